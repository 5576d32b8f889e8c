import assert from 'node:assert/strict';
import { mintToken } from '../../src/api/auth';
import { COLLECTIONS } from '../../src/store/collections';
import { ProjectRepository } from '../../src/store/projects';
import { TEST_JWT_SECRET } from '../support/config';
import { startHarness, type Harness } from '../support/harness';
import { adminToken, projectToken } from '../support/tokens';
import { PROJECT, invocationCount, invoke } from './skills-helpers';

/** No worker in these suites: nothing here needs an invocation to run, only to be accepted or refused. */
async function withProject(h: Harness): Promise<void> {
  const repo = new ProjectRepository(h.db);
  await repo.upsertOrg('acme', { name: 'Acme', ownerEmail: 'ops@acme.test' }, new Date());
  await repo.upsertProject(PROJECT, { name: 'Acme Web', org: 'acme' }, new Date());
}

const EMAIL = { customerName: 'Gate Foods', format: 'email' };

describe('skills: entitlements and rate limits (SKILL_ENTITLEMENTS, SKILL_INVOCATIONS_PER_MINUTE=2)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ SKILL_ENTITLEMENTS: '{"proposal_writer":"pro"}', SKILL_INVOCATIONS_PER_MINUTE: '2' });
    await withProject(h);
  });
  after(async () => h?.close());

  it('402 while the project is not entitled; 202 once its org holds the entitlement', async () => {
    const admin = adminToken();
    const refused = await invoke(h, admin, 'proposal_writer', EMAIL);
    assert.equal(refused.status, 402);
    assert.equal(refused.body.code, 'not_entitled');
    assert.match(refused.body.detail, /"pro"/);
    assert.equal(await invocationCount(h), 0);

    await new ProjectRepository(h.db).setEntitlements('acme', [{ id: 'pro', productId: 'pro_monthly', expiresAt: null }], 1, new Date());
    const accepted = await invoke(h, admin, 'proposal_writer', EMAIL);
    assert.equal(accepted.status, 202, accepted.text);
  });

  it('429 with Retry-After past the per-minute limit, per caller', async () => {
    const member = projectToken([PROJECT]);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await invoke(h, member, 'release_notes_composer', { fromVersion: '1.0.0' }));
    assert.deepEqual(answers.map((r) => r.status), [400, 400, 429], 'refused requests count too: the limit protects the workflow service');
    assert.equal(answers[2].body.code, 'rate_limited');
    const retryAfter = Number(answers[2].headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const another = mintToken(TEST_JWT_SECRET, { sub: 'another-member', projects: [PROJECT] }, { expiresInSeconds: 600 });
    assert.equal((await invoke(h, another, 'release_notes_composer', { fromVersion: '1.0.0' })).status, 400, 'another caller has its own window');
  });
});

describe('skills: Temporal unreachable (TEMPORAL_ADDRESS=127.0.0.1:1)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ TEMPORAL_ADDRESS: '127.0.0.1:1' });
    await withProject(h);
  });
  after(async () => h?.close());

  it('503 and nothing stored: no invocation record, the Idempotency-Key free for the retry', async () => {
    const res = await invoke(h, projectToken([PROJECT]), 'proposal_writer', EMAIL, { 'Idempotency-Key': 'down-1' });
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.code, 'temporal_unavailable');
    assert.doesNotMatch(res.text, /ECONNREFUSED|at .*\.js/, 'no internals in a 5xx body');
    assert.equal(await invocationCount(h), 0);
    assert.equal(await h.db.collection(COLLECTIONS.idempotencyKeys).countDocuments(), 0);
  });
});
