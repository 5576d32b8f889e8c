import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputOf } from '../../src/invocations/invoke';
import { startInvocationWorkflow } from '../../src/temporal/clients/skill-invocation';
import { createLogger } from '../../src/logging/logger';
import { COLLECTIONS } from '../../src/store/collections';
import type { InvocationRecord } from '../../src/store/invocations';
import { runWorkerInApi, type WorkerInApi } from '../../src/worker/in-api';
import { workflowBundlePath } from '../support/bundle';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { adminToken, projectToken } from '../support/tokens';
import { RETAIL } from '../unit/skills/cases';
import { repoRoot } from '../unit/skills/demo';
import { PROJECT, assertInOrder, assertResultShape, invocationCount, invoke, loadDemo, localActivities, settle } from './skills-helpers';

/** The golden files of test/golden (made by the pure drafters over in-memory retrieval). */
function golden(skill: string, name: string): { md: string; json: unknown } {
  const dir = join(repoRoot(), 'test', 'golden', skill);
  return { md: readFileSync(join(dir, `${name}.md`), 'utf8'), json: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) };
}

describe('skills over HTTP: invoke, poll, list, idempotency (real Temporal, real store, demo project)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
    await h.startWorker();
  });
  after(async () => h?.close());

  it('release notes: 202 with Location, then completed; the stored result is the golden one, byte for byte', async () => {
    const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' });
    assert.equal(res.status, 202, res.text);
    assert.match(res.body.id, /^inv_[0-9A-Z]{26}$/);
    assert.equal(res.headers.get('location'), `/v1/agents/${PROJECT}/invocations/${res.body.id}`);
    assert.deepEqual(
      { ...res.body, id: undefined, createdAt: undefined },
      {
        project: PROJECT,
        skill: 'release_notes_composer',
        status: 'queued',
        links: { self: `/v1/agents/${PROJECT}/invocations/${res.body.id}` },
        id: undefined,
        createdAt: undefined,
      },
    );

    const inv = await settle(h, member, res.body.id);
    assert.equal(inv.status, 'completed', JSON.stringify(inv.error));
    assert.deepEqual(inv.inputs, { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'neutral' }, 'the default tone is filled in');
    assert.deepEqual(inv.progress, { step: 'completed', completedSteps: 3, totalSteps: 3 });
    assert.equal(inv.error, null);
    assert.ok(Date.parse(inv.completedAt) >= Date.parse(inv.createdAt));
    assertResultShape(inv.result);
    assert.equal(inv.result.generator, 'deterministic');
    // Retrieval through MongoDB (semver keys, range queries) finds exactly what the in-memory golden run did.
    const expected = golden('release_notes_composer', 'neutral-1.2.1-2.0.0');
    assert.equal(inv.result.markdown, expected.md);
    const { markdown: _markdown, ...rest } = inv.result;
    assert.deepEqual(rest, expected.json);
    const stored = await h.db.collection(COLLECTIONS.invocationContexts).countDocuments({ _id: res.body.id } as never);
    assert.equal(stored, 0, 'the retrieved-documents context is removed once the result is stored');
  });

  it('tone changes the wording, not the facts', async () => {
    const [casual, formal] = await Promise.all(
      (['casual', 'formal'] as const).map(async (tone) => {
        const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0', tone });
        assert.equal(res.status, 202, res.text);
        return (await settle(h, member, res.body.id)).result;
      }),
    );
    assert.equal(casual.markdown, golden('release_notes_composer', 'casual-1.2.1-2.0.0').md);
    assert.equal(formal.markdown, golden('release_notes_composer', 'formal-1.2.1-2.0.0').md);
    assert.notEqual(casual.markdown, formal.markdown);
    assert.deepEqual(casual.citations, formal.citations);
    assert.doesNotMatch(formal.markdown, /!|n't\b/);
  });

  it('a proposal (one-pager) and an incident RCA (SEV-1) complete with their fixed sections', async () => {
    const [proposal, rca] = await Promise.all([
      invoke(h, member, 'proposal_writer', { ...RETAIL, format: 'one-pager' }),
      invoke(h, member, 'incident_rca', { incidentId: 'INC-2025-014', severity: 'SEV-1' }),
    ]);
    assert.equal(proposal.status, 202, proposal.text);
    assert.equal(rca.status, 202, rca.text);
    const p = (await settle(h, member, proposal.body.id)).result;
    const r = (await settle(h, member, rca.body.id)).result;
    for (const result of [p, r]) assertResultShape(result);
    assertInOrder(
      p.sections.map((s: { heading: string }) => s.heading),
      ['Summary', 'Your challenges', 'Our approach', 'Proof', 'Next steps'],
    );
    for (const pain of RETAIL.painPoints) assert.ok(p.markdown.includes(pain), `pain point "${pain}" answered by name`);
    assertInOrder(
      r.sections.map((s: { heading: string }) => s.heading),
      ['Summary', 'Impact', 'Timeline', 'Root cause', 'Contributing factors', 'Fix', 'Follow-up actions', 'Customer-facing summary'],
    );
    assert.equal(r.markdown, golden('incident_rca', 'sev1-INC-2025-014').md);
    assert.ok(r.citations.some((c: { id: string }) => c.id === 'incident:INC-2025-014'));
  });

  it('Prefer: wait=30 answers 200 with the whole invocation and Preference-Applied', async () => {
    const res = await invoke(h, member, 'proposal_writer', { ...RETAIL, format: 'email' }, { Prefer: 'wait=30' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('preference-applied'), 'wait=30');
    assert.equal(res.headers.get('location'), `/v1/agents/${PROJECT}/invocations/${res.body.id}`);
    assert.equal(res.body.status, 'completed');
    assert.deepEqual(res.body.inputs, { ...RETAIL, format: 'email' });
    assertResultShape(res.body.result);
    assert.equal(res.body.result.markdown, golden('proposal_writer', 'email-retail').md);
  });

  it('lists invocations newest first, filtered by skill and status, page by page with a cursor', async () => {
    const all = (await h.request('GET', `/v1/agents/${PROJECT}/invocations?limit=100`, { token: member })).body.invocations as {
      id: string;
      skill: string;
      status: string;
      createdAt: string;
    }[];
    assert.ok(all.length >= 6, `${all.length} invocations`);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].createdAt >= all[i].createdAt, 'newest first');

    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { invocations: { id: string }[]; nextCursor: string | null } } = await h.request(
        'GET',
        `/v1/agents/${PROJECT}/invocations?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: member },
      );
      assert.equal(page.status, 200);
      assert.ok(page.body.invocations.length <= 2);
      paged.push(...page.body.invocations.map((i) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(
      paged,
      all.map((i) => i.id),
      'pages join up to the whole list, no gaps, no repeats',
    );

    const rn = (
      await h.request('GET', `/v1/agents/${PROJECT}/invocations?skill=release_notes_composer&status=completed`, { token: member })
    ).body.invocations;
    assert.equal(rn.length, all.filter((i) => i.skill === 'release_notes_composer' && i.status === 'completed').length);
    assert.ok(
      rn.length >= 3 &&
        rn.every((i: { skill: string; status: string }) => i.skill === 'release_notes_composer' && i.status === 'completed'),
    );
    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/invocations?status=failed`, { token: member })).body.invocations.length, 0);

    for (const bad of ['status=done', 'skill=nope', 'limit=0', 'cursor=garbage']) {
      const res = await h.request('GET', `/v1/agents/${PROJECT}/invocations?${bad}`, { token: member });
      assert.equal(res.status, 400, bad);
    }
  });

  it('Idempotency-Key: the same body gives the same invocation (also when concurrent); a different body is 409', async () => {
    const before = await invocationCount(h);
    const body = { customerName: 'Idempotent Foods', format: 'email', industry: 'Retail' };
    const first = await invoke(h, member, 'proposal_writer', body, { 'Idempotency-Key': 'key-1' });
    assert.equal(first.status, 202, first.text);
    const again = await invoke(
      h,
      member,
      'proposal_writer',
      { industry: 'Retail', format: 'email', customerName: 'Idempotent Foods' },
      { 'Idempotency-Key': 'key-1' },
    );
    assert.equal(again.body.id, first.body.id, 'member order does not matter');

    const racing = await Promise.all(
      [1, 2, 3].map(() => invoke(h, member, 'proposal_writer', { ...body, customerName: 'Racing Foods' }, { 'Idempotency-Key': 'key-2' })),
    );
    assert.deepEqual(
      racing.map((r) => r.status),
      [202, 202, 202],
    );
    assert.equal(new Set(racing.map((r) => r.body.id)).size, 1, 'concurrent requests with one key share one invocation');
    assert.equal(await invocationCount(h), before + 2, 'one record (hence one workflow) per key');

    const conflict = await invoke(h, member, 'proposal_writer', { ...body, format: 'one-pager' }, { 'Idempotency-Key': 'key-1' });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.code, 'idempotency_key_reused');
    assert.equal(await invocationCount(h), before + 2);

    // No second workflow: the one the key names ran once.
    const handle = h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${first.body.id}`);
    await settle(h, member, first.body.id);
    const history = await handle.fetchHistory();
    assert.equal(history.events!.filter((e) => e.workflowExecutionStartedEventAttributes).length, 1);
  });

  it('cancelling a finished invocation is 409; unknown invocations are 404', async () => {
    const done = (await h.request('GET', `/v1/agents/${PROJECT}/invocations?status=completed&limit=1`, { token: member })).body
      .invocations[0];
    const res = await h.request('POST', `/v1/agents/${PROJECT}/invocations/${done.id}/cancel`, { token: member });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'invocation_finished');
    for (const [method, path] of [
      ['GET', 'inv_nope'],
      ['POST', 'inv_nope/cancel'],
    ] as const) {
      const missing = await h.request(method, `/v1/agents/${PROJECT}/invocations/${path}`, { token: member });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'unknown_invocation');
    }
  });

  describe('every documented error of POST .../skills/{skill}, and nothing stored for any', () => {
    let before: number;
    beforeEach(async () => {
      before = await invocationCount(h);
    });
    afterEach(async () => {
      assert.equal(await invocationCount(h), before, 'no invocation record');
    });

    it('400: schema violations with JSON pointers; an unknown member named, with a case hint', async () => {
      const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2', tone: 'loud' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_input');
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path).sort(), ['/fromVersion', '/toVersion', '/tone']);
      assert.match(res.body.detail, /^Skill inputs do not match the schema: /);

      const cased = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', ToVersion: '2.0.0' });
      assert.equal(cased.status, 400);
      const unknown = cased.body.errors.find((e: { path: string }) => e.path === '/ToVersion');
      assert.match(unknown.message, /unknown member "ToVersion".*did you mean "toVersion"/);

      const painPoints = await invoke(h, member, 'proposal_writer', { customerName: 'X', format: 'email', painPoints: [''] });
      assert.equal(painPoints.status, 400);
      assert.deepEqual([...new Set(painPoints.body.errors.map((e: { path: string }) => e.path))], ['/painPoints/0']);
      assert.equal((await h.request('POST', `/v1/agents/${PROJECT}/skills/incident_rca`, { token: member })).status, 400, 'no body');
    });

    it('401 without a valid token; 403 for a token without the project', async () => {
      const anonymous = await invoke(h, '', 'proposal_writer', { customerName: 'X', format: 'email' });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
      const other = await invoke(h, projectToken(['other']), 'proposal_writer', { customerName: 'X', format: 'email' });
      assert.equal(other.status, 403);
    });

    it('404 for an unknown project or skill', async () => {
      const project = await h.request('POST', '/v1/agents/ghost/skills/proposal_writer', {
        token: adminToken(),
        body: { customerName: 'X', format: 'email' },
      });
      assert.equal(project.status, 404);
      assert.equal(project.body.code, 'unknown_project');
      const skill = await invoke(h, member, 'poem_writer', { topic: 'x' });
      assert.equal(skill.status, 404);
      assert.equal(skill.body.code, 'unknown_skill');
    });

    it('413 past 64 KiB; 415 for a body that is not JSON; 400 for malformed JSON', async () => {
      const big = await invoke(h, member, 'proposal_writer', { customerName: 'X', format: 'email', industry: 'x'.repeat(70 * 1024) });
      assert.equal(big.status, 413);
      const text = await h.request('POST', `/v1/agents/${PROJECT}/skills/proposal_writer`, {
        token: member,
        raw: 'customerName=X',
        headers: { 'Content-Type': 'text/plain' },
      });
      assert.equal(text.status, 415);
      const malformed = await h.request('POST', `/v1/agents/${PROJECT}/skills/proposal_writer`, {
        token: member,
        raw: '{"customerName":',
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
    });

    it('422: fromVersion not below toVersion, a version the project does not know, an incident not in the project', async () => {
      const cases: [string, object, string][] = [
        ['release_notes_composer', { fromVersion: '2.0.0', toVersion: '1.2.1' }, '/fromVersion'],
        ['release_notes_composer', { fromVersion: '2.0.0', toVersion: '2.0.0' }, '/fromVersion'],
        ['release_notes_composer', { fromVersion: '1.2.1', toVersion: '1.9.0' }, '/toVersion'],
        ['release_notes_composer', { fromVersion: '0.9.0', toVersion: '2.0.0' }, '/fromVersion'],
        ['incident_rca', { incidentId: 'INC-1999-001', severity: 'SEV-2' }, '/incidentId'],
      ];
      for (const [skill, inputs, path] of cases) {
        const res = await invoke(h, member, skill, inputs);
        assert.equal(res.status, 422, `${JSON.stringify(inputs)}: ${res.text}`);
        assert.equal(res.body.code, 'impossible_request');
        assert.ok(
          res.body.errors.some((e: { path: string }) => e.path === path),
          `${JSON.stringify(res.body.errors)} names ${path}`,
        );
      }
    });
  });
});

describe('skills with the worker in the API process (API_RUNS_WORKER): eager start, one workflow task', () => {
  let h: Harness;
  let inApi: WorkerInApi;
  const member = projectToken([PROJECT]);
  before(async () => {
    h = await startHarness({ API_RUNS_WORKER: 'true' });
    await loadDemo(h);
    inApi = runWorkerInApi({
      config: h.config,
      db: h.db,
      logger: createLogger(h.config, 'test'),
      workflowBundlePath: await workflowBundlePath(),
      onStarter: (c) => (h.temporal.starter = c),
    });
    await eventually(async () => h.temporal.starter, Boolean, { timeoutMs: 30_000, what: 'the worker in the API process to run' });
  });
  after(async () => {
    await inApi?.stop();
    await h?.close();
  });

  it('the server hands the first workflow task to this process (eagerlyStarted), and a restart of the same invocation attaches to its run', async () => {
    const id = `inv_EAGER${Date.now()}`;
    const record = {
      _id: id,
      project: PROJECT,
      skill: 'incident_rca',
      inputs: { incidentId: 'INC-2025-014', severity: 'SEV-1' },
      createdAt: new Date(),
      workflowId: `skill/${PROJECT}/${id}`,
    } as unknown as InvocationRecord;
    const run = { workflowId: record.workflowId, input: inputOf(record) };
    const start = () =>
      startInvocationWorkflow(h.temporal.client, h.config.temporal.skillsTaskQueue, run, { eagerClient: h.temporal.starter });
    assert.deepEqual(await start(), { kind: 'started', eager: true });
    assert.deepEqual(await start(), { kind: 'started', eager: false }, 'USE_EXISTING or REJECT_DUPLICATE: the same run');
    await h.temporal.client.workflow.getHandle(record.workflowId).result();
    const again = await start();
    assert.equal(again.kind, 'started', 'a closed run is not started twice (REJECT_DUPLICATE)');
    const runs = [];
    for await (const w of h.temporal.client.workflow.list({ query: `WorkflowId = '${record.workflowId}'` })) runs.push(w.runId);
    assert.equal(runs.length, 1);
  });

  it('Prefer: wait answers with the completed invocation; its whole run is one workflow task with three local activities', async () => {
    const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' }, { Prefer: 'wait=30' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'completed');
    assert.equal(res.body.result.markdown, golden('release_notes_composer', 'neutral-1.2.1-2.0.0').md);
    assert.deepEqual(res.body.progress, { step: 'completed', completedSteps: 3, totalSteps: 3 });

    const handle = h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${res.body.id}`);
    await handle.result();
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    assert.equal(events.filter((e) => e.workflowTaskCompletedEventAttributes).length, 1, 'one workflow task');
    assert.equal(events.filter((e) => e.activityTaskScheduledEventAttributes).length, 0, 'no remote activity');
    assert.deepEqual(localActivities(events), ['retrieveSkillContext', 'draftSkillDocumentLocally', 'storeSkillResult']);
    if (process.env.UPDATE_HISTORIES === '1') {
      writeFileSync(
        join(repoRoot(), 'test', 'fixtures', 'histories', 'skill-invocation.json'),
        JSON.stringify({ workflowId: handle.workflowId, history: JSON.parse(historyToJSON(history)) }),
      );
    }
  });
});
