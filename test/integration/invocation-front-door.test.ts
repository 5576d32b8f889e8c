/**
 * One invocation seen through all four adapters of the invocation service at once, over the real stack: an MCP
 * tools/call starts it (no worker yet, so it stays queued), REST finds it by the same Idempotency-Key and waits for
 * it (`Prefer: wait`), the event stream and an A2A 1.0 SubscribeToTask follow it, and once a worker runs, each ends
 * with the same document: the golden release notes (test/golden), made by the pure drafter without the service.
 * Then the service's get, wait and follow on their own, over records written as the worker writes them (a draft,
 * then the model's version 2).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mcpIdempotencyKey } from '../../src/api/agents/agent-idempotency';
import { systemClock } from '../../src/config/clock';
import { RateLimiter } from '../../src/contracts/rate-limit';
import { newInvocationId } from '../../src/invocations/ids';
import { InvocationService } from '../../src/invocations/invoke';
import { StreamBudget } from '../../src/invocations/stream-budget';
import { TOTAL_STEPS, type InvocationStatus } from '../../src/skills/invocation-status';
import { queuedInvocation, type InvocationRecord } from '../../src/store/invocations';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { initialize, invocationsOf, type Tenant } from '../support/mcp-raw';
import { events, type SseEvent } from '../support/sse';
import { projectToken } from '../support/tokens';
import { repoRoot } from '../unit/skills/demo';
import { PROJECT, invocationCount, invoke, loadDemo } from './skills-helpers';

const ARGS = { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'casual' };
const CALL_ID = 'front-door-1';

/** The `data:` lines of a finished event stream, parsed. */
const dataLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);

describe('one invocation through REST, the event stream, A2A and MCP (real Temporal, real store)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  const tenant: Tenant = { sub: 'member', project: PROJECT, token: member };
  const golden = readFileSync(join(repoRoot(), 'test', 'golden', 'release_notes_composer', 'casual-1.2.1-2.0.0.md'), 'utf8');
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
  });
  after(async () => h?.close());

  it('each adapter waits for or follows the same invocation to the same final document', async function () {
    this.timeout(120_000);
    // MCP starts it: a tools/call with progress asked for, left open while no worker runs.
    const session = await initialize(h, tenant);
    assert.equal(session.status, 200, session.text);
    const mcp = fetch(`${h.baseUrl}/v1/agents/${PROJECT}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${member}`,
        'Mcp-Session-Id': session.sessionId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: CALL_ID,
        method: 'tools/call',
        params: { name: 'release_notes_composer', arguments: ARGS, _meta: { progressToken: 'door' } },
      }),
    }).then(async (res) => ({ status: res.status, text: await res.text() }));
    const [listed] = await eventually(
      () => invocationsOf(h, tenant),
      (l) => l.length === 1,
      { what: 'the MCP call’s invocation' },
    );
    const id = listed!.id;

    // REST: the same Idempotency-Key and body are the same invocation; read it, then wait for it.
    const key = mcpIdempotencyKey(session.sessionId, CALL_ID);
    const again = await invoke(h, member, 'release_notes_composer', ARGS, { 'Idempotency-Key': key });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.body.id, id);
    const read = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${id}`, { token: member });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, 'queued');
    const waited = invoke(h, member, 'release_notes_composer', ARGS, { 'Idempotency-Key': key, Prefer: 'wait=60' });

    // The event stream: the queued state first.
    const sse = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/invocations/${id}/events`, {
      headers: { Authorization: `Bearer ${member}` },
    });
    assert.equal(sse.status, 200);
    const stream = events(sse);
    const first = (await stream.next()).value as SseEvent;
    assert.deepEqual([first.event, first.data.status], ['status', 'queued']);
    const sseRest = (async () => {
      const seen: SseEvent[] = [first];
      for await (const e of stream) seen.push(e);
      return seen;
    })();

    // A2A 1.0: subscribe to the task (the invocation under its A2A name).
    const a2a = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/a2a`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member}`, 'Content-Type': 'application/json', 'A2A-Version': '1.0', Accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SubscribeToTask', params: { id } }),
    });
    assert.equal(a2a.status, 200);
    assert.match(a2a.headers.get('content-type') ?? '', /^text\/event-stream/);
    const a2aText = a2a.text();

    await h.startWorker();

    // REST's wait: the finished invocation.
    const rest = await waited;
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.headers.get('preference-applied'), 'wait=60');
    assert.equal(rest.body.id, id);
    assert.equal(rest.body.status, 'completed');
    assert.equal(rest.body.result.markdown, golden);

    // The event stream: each change once, ending with the result.
    const seen = await sseRest;
    const last = seen.at(-1)!;
    assert.equal(last.event, 'result');
    assert.equal(last.data.id, id);
    assert.equal((last.data.result as { markdown: string }).markdown, golden);
    assert.equal(seen.filter((e) => e.event === 'status').at(-1)!.data.status, 'completed');
    assert.equal(new Set(seen.map((e) => e.id)).size, seen.length);

    // A2A: the task first, then its updates, the document as an artifact, and the completed status last.
    const updates = dataLines(await a2aText).map((m) => {
      assert.equal(m.id, 7);
      return m.result as {
        task?: { id: string; status: { state: string } };
        artifactUpdate?: { taskId: string; artifact: { parts: { text?: string }[] } };
        statusUpdate?: { taskId: string; status: { state: string } };
      };
    });
    assert.equal(updates[0]!.task?.id, id);
    assert.equal(updates[0]!.task?.status.state, 'TASK_STATE_SUBMITTED');
    const artifacts = updates.filter((u) => u.artifactUpdate).map((u) => u.artifactUpdate!);
    assert.deepEqual(
      artifacts.map((a) => [a.taskId, a.artifact.parts[0]!.text]),
      [[id, golden]],
    );
    const lastUpdate = updates.at(-1)!;
    assert.deepEqual([lastUpdate.statusUpdate?.taskId, lastUpdate.statusUpdate?.status.state], [id, 'TASK_STATE_COMPLETED']);

    // MCP: progress that grows, then the document and the invocation's id.
    const call = await mcp;
    assert.equal(call.status, 200, call.text);
    const messages = dataLines(call.text);
    const progress = messages
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => (m.params as { progress: number; progressToken: string }).progress);
    assert.ok(progress.length >= 2, call.text);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]! > progress[i - 1]!, `progress grows: ${progress.join(', ')}`);
    const answer = messages.find((m) => m.id === CALL_ID)!;
    const result = answer.result as { isError?: boolean; content: { text: string }[]; structuredContent: { invocationId: string } };
    assert.notEqual(result.isError, true, call.text);
    assert.equal(result.content[0]!.text, golden);
    assert.equal(result.structuredContent.invocationId, id);

    // A2A GetTask reads the same finished invocation; and there was only ever the one.
    const got = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/a2a`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member}`, 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'GetTask', params: { id } }),
    });
    const task = ((await got.json()) as { result: { id: string; status: { state: string }; artifacts: { parts: { text?: string }[] }[] } })
      .result;
    assert.deepEqual([task.id, task.status.state, task.artifacts[0]!.parts[0]!.text], [id, 'TASK_STATE_COMPLETED', golden]);
    assert.equal(await invocationCount(h), 1);
  });
});

describe('InvocationService: get, wait and follow over the real store', () => {
  let h: Harness;
  let service: InvocationService;
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
    service = new InvocationService({
      invocations: h.repos.invocations,
      keys: h.repos.idempotency,
      projects: h.repos.projects,
      documents: h.repos.documents,
      limiter: new RateLimiter(60, 60_000),
      client: h.temporal.client,
      eagerClient: () => null,
      taskQueue: h.config.temporal.taskQueue,
      entitlements: h.config.skills.entitlements,
      streams: new StreamBudget(2, 10),
      now: systemClock,
    });
  });
  after(async () => h?.close());

  /** A queued record whose workflow never ran (no such run): only the writes below move it, as a worker's would. */
  async function queued(): Promise<InvocationRecord> {
    const id = newInvocationId();
    const record = queuedInvocation({
      id,
      project: PROJECT,
      skill: 'release_notes_composer',
      inputs: ARGS,
      workflowId: `no-such-run-${id}`,
      requestedBy: 'member',
      createdAt: new Date(),
    });
    await h.repos.invocations.create(record);
    return record;
  }
  const progress = (completedSteps: number, step: InvocationStatus) => ({ step, completedSteps, totalSteps: TOTAL_STEPS });

  it('follow yields each state, the draft with its result, and ends only with the final version; wait answers with the draft', async function () {
    this.timeout(60_000);
    const record = await queued();
    assert.equal((await service.get(PROJECT, record._id))?.status, 'queued');
    assert.equal(await service.get('another-project', record._id), null, 'another project has no such invocation');

    const seen: InvocationRecord[] = [];
    let ended = false;
    const following = (async () => {
      for await (const r of service.follow(record)) seen.push(r);
      ended = true;
    })();
    const waiting = service.wait(record, 30);

    const invocations = h.repos.invocations;
    await invocations.advance(record._id, 1, { status: 'retrieving', progress: progress(0, 'retrieving') }, new Date());
    await eventually(
      async () => seen.map((r) => r.status),
      (s) => s.includes('retrieving'),
      { what: 'follow to see retrieving' },
    );
    const draft = { markdown: '# Draft\n' };
    await invocations.advance(
      record._id,
      2,
      {
        status: 'completed',
        progress: progress(TOTAL_STEPS, 'completed'),
        result: draft,
        completedAt: new Date(),
        revision: { number: 1, final: false },
      },
      new Date(),
    );
    const waited = await waiting;
    assert.deepEqual(
      [waited.status, waited.revision, waited.result],
      ['completed', { number: 1, final: false }, draft],
      'wait ends at the draft',
    );
    await eventually(
      async () => seen.at(-1),
      (r) => r?.revision?.number === 1,
      { what: 'follow to see the draft' },
    );
    assert.deepEqual(seen.at(-1)!.result, draft, 'the draft with its result');
    assert.equal(ended, false, 'a draft does not end the follow');

    const final = { markdown: '# Final\n' };
    await invocations.revise(record._id, 3, final, { number: 2, final: true }, new Date());
    await following;
    assert.deepEqual(
      seen.map((r) => [r.status, r.revision?.number ?? null]),
      [
        ['queued', null],
        ['retrieving', null],
        ['completed', 1],
        ['completed', 2],
      ],
    );
    assert.deepEqual(
      [seen.at(-1)!.revision, seen.at(-1)!.result],
      [{ number: 2, final: true }, final],
      'it ends with the final version and its result',
    );
  });

  it('follow ends at its deadline with the state it last saw; wait answers with the record as it is when time runs out', async () => {
    const record = await queued();
    const seen: string[] = [];
    for await (const r of service.follow(record, { until: Date.now() + 300 })) seen.push(r.status);
    assert.deepEqual(seen, ['queued']);
    const waited = await service.wait(record, 1);
    assert.equal(waited.status, 'queued');
  });

  it('one stream limit per caller: the service refuses past the share, and a release gives it back', () => {
    const a1 = service.openStream('a');
    service.openStream('a');
    assert.throws(() => service.openStream('a'), /too many streams/);
    service.openStream('b');
    a1();
    service.openStream('a');
  });
});
