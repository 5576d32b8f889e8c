/** Invocation progress as Server-Sent Events over the real stack: the states as they happen, the result, resumption. */
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { events, type SseEvent } from '../support/sse';
import { PROJECT, invoke, loadDemo } from './skills-helpers';

describe('invocation progress as Server-Sent Events (real Temporal, real store)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
  });
  after(async () => h?.close());

  const open = (id: string, lastEventId?: string) =>
    fetch(`${h.baseUrl}/v1/agents/${PROJECT}/invocations/${id}/events`, {
      headers: { Authorization: `Bearer ${member}`, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
    });

  it('streams the queued state, each change once the worker runs it, then the result; a reconnect gets only what is new', async () => {
    const started = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' });
    assert.equal(started.status, 202, started.text);
    const res = await open(started.body.id);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const stream = events(res);
    const first = (await stream.next()).value as SseEvent;
    assert.deepEqual([first.event, first.data.status], ['status', 'queued'], 'the current state first');
    // No worker yet: nothing moves. Now one starts, and the stream follows it to the end.
    await h.startWorker();
    const seen: SseEvent[] = [first];
    for await (const e of stream) seen.push(e);
    const last = seen.at(-1)!;
    assert.equal(last.event, 'result');
    assert.equal(last.data.status, 'completed');
    assert.equal(last.data.id, started.body.id);
    assert.match(String((last.data.result as { markdown: string }).markdown), /^# /);
    const statuses = seen.filter((e) => e.event === 'status').map((e) => e.data.status);
    assert.equal(statuses.at(-1), 'completed');
    assert.equal(new Set(seen.map((e) => e.id)).size, seen.length, 'each state once, and the result with its own id');

    // Reconnecting after the final status but before the result: only the result.
    const finalStatus = seen.at(-2)!;
    assert.equal(finalStatus.data.status, 'completed');
    const again = [];
    for await (const e of events(await open(started.body.id, finalStatus.id))) again.push(e);
    assert.deepEqual(
      again.map((e) => e.event),
      ['result'],
    );
    // Reconnecting after the result (what an EventSource does when the stream ends): 204, so it stops.
    const done = await open(started.body.id, last.id);
    assert.equal(done.status, 204);
    assert.equal(await done.text(), '');
  });

  it('401 without a token, 404 for an unknown invocation, as problem+json', async () => {
    const anonymous = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/invocations/inv_01M82RANSA3FRAD36WHFZAZZD8/events`);
    assert.equal(anonymous.status, 401);
    const unknown = await open('inv_01M82RANSA3FRAD36WHFZAZZD8');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('content-type'), 'application/problem+json');
  });
});
