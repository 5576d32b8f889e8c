import { Client, Connection } from '@temporalio/client';
import assert from 'node:assert/strict';
import { mintToken } from '../../src/auth/mint-token';
import { COLLECTIONS } from '../../src/store/collections';
import { ProjectRepository } from '../../src/store/projects';
import { TEST_JWT_SECRET, testConfig } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
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
    assert.deepEqual(
      answers.map((r) => r.status),
      [400, 400, 429],
      'refused requests count too: the limit protects the workflow service',
    );
    assert.equal(answers[2].body.code, 'rate_limited');
    const retryAfter = Number(answers[2].headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const another = mintToken(TEST_JWT_SECRET, { sub: 'another-member', projects: [PROJECT] }, { expiresInSeconds: 600 });
    assert.equal(
      (await invoke(h, another, 'release_notes_composer', { fromVersion: '1.0.0' })).status,
      400,
      'another caller has its own window',
    );
  });
});

describe('skills: Prefer: wait with no worker running', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  before(async () => {
    h = await startHarness();
    await withProject(h);
  });
  after(async () => h?.close());

  it('a cancellation through the API ends the wait at once (the run itself cannot close without a worker)', async () => {
    const started = Date.now();
    const waiting = invoke(h, member, 'proposal_writer', EMAIL, { Prefer: 'wait=30' });
    const queued = await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations?status=queued`, { token: member }),
      (r) => r.body?.invocations?.length === 1,
      { what: 'the queued invocation' },
    );
    const id = queued.body.invocations[0].id as string;
    const cancel = await h.request('POST', `/v1/agents/${PROJECT}/invocations/${id}/cancel`, { token: member });
    assert.equal(cancel.status, 202, cancel.text);
    const res = await waiting;
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('preference-applied'), 'wait=30');
    assert.equal(res.body.id, id);
    assert.equal(res.body.status, 'cancelled');
    assert.ok(Date.now() - started < 20_000, `answered after ${Date.now() - started} ms, not at the 30 s deadline`);
    const run = await h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${id}`).describe();
    assert.equal(run.status.name, 'RUNNING', 'the run is still open: the answer came from the record, not the run');
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

describe('skills: a start whose answer never arrives (Temporal behind a proxy that holds its replies)', () => {
  let h: Harness;
  let proxy: TcpProxy;
  let direct: Connection;
  const member = projectToken([PROJECT]);
  before(async () => {
    const temporalAddress = testConfig().temporal.address;
    proxy = await startTcpProxy(temporalAddress);
    h = await startHarness({ TEMPORAL_ADDRESS: proxy.address });
    await withProject(h);
    direct = await Connection.connect({ address: temporalAddress });
  });
  after(async () => {
    proxy?.release();
    await h?.close();
    await direct?.close();
    await proxy?.close();
  });

  it('the record and the Idempotency-Key stay (503 with Location); the retry resumes the same invocation and run', async () => {
    // The API's connection is up before the fault, so the start request does reach the server.
    await h.temporal.client.workflowService.getSystemInfo({});
    proxy.holdReplies();
    const held = await invoke(h, member, 'proposal_writer', EMAIL, { 'Idempotency-Key': 'held-1' });
    assert.equal(held.status, 503, held.text);
    assert.equal(await invocationCount(h), 1, 'the record is kept');
    assert.equal(await h.db.collection(COLLECTIONS.idempotencyKeys).countDocuments(), 1, 'the key is kept');
    assert.equal(held.body.code, 'temporal_unavailable');
    assert.match(held.body.detail, /did not confirm the start/);
    const location = held.headers.get('location');
    assert.match(location ?? '', new RegExp(`^/v1/agents/${PROJECT}/invocations/inv_[0-9A-Z]{26}$`));
    const id = location!.split('/').pop()!;

    // The server did start the run, although the API never heard so.
    const client = new Client({ connection: direct });
    const run = await client.workflow.getHandle(`skill/${PROJECT}/${id}`).describe();
    assert.equal(run.status.name, 'RUNNING');

    proxy.release();
    const retry = await invoke(h, member, 'proposal_writer', EMAIL, { 'Idempotency-Key': 'held-1' });
    assert.equal(retry.status, 202, retry.text);
    assert.equal(retry.body.id, id, 'the retry resumes the same invocation');
    assert.equal(await invocationCount(h), 1);
    const again = await client.workflow.getHandle(`skill/${PROJECT}/${id}`).describe();
    assert.equal(again.runId, run.runId, 'and the same run: no second workflow');
    const runs = [];
    for await (const w of client.workflow.list({ query: `WorkflowId = 'skill/${PROJECT}/${id}'` })) runs.push(w.runId);
    assert.deepEqual(runs, [run.runId]);
  });
});
