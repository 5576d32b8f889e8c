import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvocationRepository } from '../../src/store/invocations';
import { eventually } from '../support/eventually';
import { rewrite, startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { PROJECT, assertResultShape, invoke, loadDemo, localActivities } from './skills-helpers';

const EMAIL = { customerName: 'Harbor & Vine Market', industry: 'Retail', format: 'email' };

describe('skills: cancellation and a worker killed mid-invocation (worker in its own process, slow model)', () => {
  let h: Harness;
  let llm: FakeLlm;
  let worker: ChildProcess;
  const member = projectToken([PROJECT]);
  before(async () => {
    llm = await startFakeLlm();
    // A long model timeout: what ends these model calls must be the cancellation or the crash, not a timer.
    h = await startHarness({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '120000' });
    await loadDemo(h);
    worker = await h.spawnWorkerProcess();
  });
  after(async () => {
    await h?.close();
    await llm?.close();
  });

  /** The invocation once its final version is stored. */
  const finalVersion = (id: string) =>
    eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${id}`, { token: member }),
      (r) => r.status === 200 && r.body.revision?.final === true,
      { timeoutMs: 60_000, intervalMs: 100, what: `invocation ${id} to have its final version` },
    );

  /** Invokes and waits until the rewrite activity is inside its model call: the draft is stored by then. */
  async function invokeAndWaitForModel(skill: string, inputs: object): Promise<string> {
    const requestsBefore = llm.requests.length;
    const res = await invoke(h, member, skill, inputs);
    assert.equal(res.status, 202, res.text);
    await eventually(async () => llm.requests.length > requestsBefore && llm.pending > 0, Boolean, {
      timeoutMs: 30_000,
      what: 'the model call',
    });
    const inv = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${res.body.id}`, { token: member });
    assert.equal(inv.body.status, 'completed');
    assert.deepEqual(inv.body.revision, { number: 1, final: false });
    assert.equal(inv.body.result.generator, 'deterministic');
    return res.body.id as string;
  }

  it('Prefer: wait answers with the draft when its run is in another process (the record is re-read), the model’s version follows', async () => {
    // A slow model: the run is far from closed when the draft is stored, so only a read of the record can see it.
    llm.handle((req) => ({ ...rewrite(req), delayMs: 1_000 }));
    const res = await invoke(h, member, 'incident_rca', { incidentId: 'INC-2025-022', severity: 'SEV-3' }, { Prefer: 'wait=30' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'completed');
    assert.deepEqual(res.body.revision, { number: 1, final: false });
    assert.equal(res.body.result.generator, 'deterministic');
    const done = await finalVersion(res.body.id);
    assert.equal(done.body.result.generator, 'llm:fake-model');
    const handle = h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${res.body.id}`);
    await handle.result();
    const history = await handle.fetchHistory();
    assert.deepEqual(localActivities(history.events ?? []), [
      'retrieveSkillContext',
      'draftSkillDocumentLocally',
      'storeSkillResult',
      'storeSkillResult',
    ]);
  });

  it('cancel during the model call: 202, the workflow cancelled, the model call abandoned, the draft final', async () => {
    llm.handle(() => ({ hang: true }));
    const abortedBefore = llm.aborted;
    const id = await invokeAndWaitForModel('proposal_writer', EMAIL);

    const res = await h.request('POST', `/v1/agents/${PROJECT}/invocations/${id}/cancel`, { token: member });
    assert.equal(res.status, 202, res.text);
    // The draft was the answer already: it stays, and becomes the final version.
    assert.equal(res.body.status, 'completed');

    const handle = h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${id}`);
    await eventually(
      () => handle.describe(),
      (d) => d.status.name === 'CANCELLED',
      { timeoutMs: 20_000, what: 'the workflow to be cancelled' },
    );
    // The cancellation reaches the running activity with a heartbeat's answer and aborts its HTTP request.
    await eventually(
      async () => llm.aborted,
      (n) => n > abortedBefore,
      { timeoutMs: 20_000, what: 'the model request to be aborted' },
    );
    const inv = await finalVersion(id);
    assert.equal(inv.body.status, 'completed');
    assert.deepEqual(inv.body.revision, { number: 2, final: true });
    assert.equal(inv.body.result.generator, 'deterministic');
    assert.equal(inv.body.result.notes.at(-1), "The model's rewrite was cancelled. This is the deterministic draft.");
    assert.ok(inv.body.completedAt);
    assert.equal((await h.request('POST', `/v1/agents/${PROJECT}/invocations/${id}/cancel`, { token: member })).status, 409);
  });

  it('an MCP call cancelled while the model rewrites its draft: the rewrite stops, the draft is final', async () => {
    llm.handle(() => ({ hang: true }));
    const abortedBefore = llm.aborted;
    const requestsBefore = llm.requests.length;
    const mcp = new Client({ name: 'test-client', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/v1/agents/${PROJECT}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${member}` } },
      }),
    );
    const controller = new AbortController();
    const messages: string[] = [];
    const call = mcp.callTool({ name: 'proposal_writer', arguments: { ...EMAIL, customerName: 'Cancelled Market' } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => void messages.push(p.message ?? ''),
    });
    await eventually(
      async () => messages.some((m) => /the model's rewrite follows/.test(m)) && llm.requests.length > requestsBefore && llm.pending > 0,
      Boolean,
      { timeoutMs: 30_000, what: 'the draft’s progress notification and the model call' },
    );
    controller.abort();
    await assert.rejects(call);
    const listed = await h.request('GET', `/v1/agents/${PROJECT}/invocations?skill=proposal_writer`, { token: member });
    const id = (listed.body.invocations as { id: string; inputs: { customerName?: string } }[]).find(
      (i) => i.inputs.customerName === 'Cancelled Market',
    )!.id;
    await eventually(
      async () => llm.aborted,
      (n) => n > abortedBefore,
      { timeoutMs: 20_000, what: 'the model request to be aborted' },
    );
    // Closed only now: a client closed at once may drop its cancellation notice, which it sends on its own.
    await mcp.close();
    const inv = await finalVersion(id);
    assert.equal(inv.body.status, 'completed');
    assert.equal(inv.body.result.generator, 'deterministic');
    assert.equal(inv.body.result.notes.at(-1), "The model's rewrite was cancelled. This is the deterministic draft.");
  });

  it('SIGKILL during the model’s rewrite: another worker completes the invocation exactly once', async () => {
    llm.handle((req, n) => (n === 0 ? { hang: true } : rewrite(req)));
    const requestsBefore = llm.requests.length;
    const id = await invokeAndWaitForModel('release_notes_composer', { fromVersion: '1.0.0', toVersion: '1.2.1' });

    worker.kill('SIGKILL');
    await once(worker, 'exit');
    await h.startWorker();

    const inv = (await finalVersion(id)).body;
    assert.equal(inv.status, 'completed', JSON.stringify(inv.error));
    assertResultShape(inv.result);
    assert.equal(inv.result.generator, 'llm:fake-model', 'the retried attempt asked the model again and used its answer');
    const written = inv.result.model.sections.filter((s: { outcome: string }) => s.outcome === 'accepted').length;
    assert.ok(written >= 1, 'the section with prose (Breaking changes) was rewritten');
    assert.equal(llm.requests.length - requestsBefore, 1 + written, 'the call lost with the worker, then one per section');

    // Temporal's history: retrieval, the draft and its store, then the final store ran as local activities
    // (recorded as markers, once each), one remote rewrite activity whose second attempt completed, one completion.
    // The record is stored just before the run completes: wait for the run, then read its history.
    const run = h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${id}`);
    await run.result();
    const history = await run.fetchHistory();
    const events = history.events ?? [];
    const scheduled = events
      .filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    assert.deepEqual(scheduled, ['rewriteSkillDraft']);
    assert.deepEqual(localActivities(events), [
      'retrieveSkillContext',
      'draftSkillDocumentLocally',
      'storeSkillResult',
      'storeSkillResult',
    ]);
    const draftId = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'rewriteSkillDraft')!.eventId;
    const draftStarted = events.find(
      (e) => e.activityTaskStartedEventAttributes && String(e.activityTaskStartedEventAttributes.scheduledEventId) === String(draftId),
    );
    assert.equal(draftStarted?.activityTaskStartedEventAttributes?.attempt, 2);
    assert.equal(events.filter((e) => e.activityTaskCompletedEventAttributes).length, scheduled.length);
    assert.equal(events.filter((e) => e.workflowExecutionCompletedEventAttributes).length, 1);

    // The record's sequence guard: a late write from the dead attempt cannot move it back.
    const repo = new InvocationRepository(h.db);
    const record = await repo.get(PROJECT, id);
    assert.equal(record!.seq, 4);
    const late = await repo.advance(
      id,
      2,
      { status: 'drafting', progress: { step: 'drafting', completedSteps: 1, totalSteps: 3 } },
      new Date(),
    );
    assert.equal(late, false);
    assert.deepEqual(await repo.get(PROJECT, id), record);
  });
});
