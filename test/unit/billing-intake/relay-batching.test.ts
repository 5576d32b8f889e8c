/**
 * The relay under a backlog: while every signal-with-start slot is taken, events that queue up for one
 * subscriber leave together in one signal (`providerEvents`), in the order received; one event alone still
 * goes as it always did. Temporal is a stand-in that records each call and answers when told.
 */
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { EventForwarder } from '../../../src/billing-intake/event-forwarder';
import { RELAY_CALLS_PER_SCOPE } from '../../../src/billing-intake/relay-queue';
import { createLogger } from '../../../src/logging/logger';
import type { Repositories } from '../../../src/store/repositories';
import { inboxRecord } from './inbox-record';
import { testConfig } from '../../support/config';

interface Call {
  workflowId: string;
  signal: string;
  args: unknown[];
}

function standIn() {
  const calls: Call[] = [];
  const waiting: (() => void)[] = [];
  const client = {
    connection: { withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn() },
    workflow: {
      signalWithStart: (_type: string, options: { workflowId: string; signal: { name: string } | string; signalArgs: unknown[] }) => {
        calls.push({
          workflowId: options.workflowId,
          signal: typeof options.signal === 'string' ? options.signal : options.signal.name,
          args: options.signalArgs,
        });
        return new Promise<void>((resolve) => waiting.push(resolve));
      },
    },
  } as unknown as Client;
  const releaseAll = () => waiting.splice(0).forEach((r) => r());
  const releaseFirst = () => waiting.shift()?.();
  return { client, calls, releaseAll, releaseFirst };
}

const record = (subscriber: string, n: number) => inboxRecord('app:x', subscriber, n);

/** A relay whose Temporal is the stand-in (no store: nothing here checkpoints or reads back). */
function relayOver(client: Client): EventForwarder {
  const repos = {} as Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>;
  return new EventForwarder({
    repos,
    client: { get: async () => client },
    taskQueue: 'q',
    logger: createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test'),
  });
}

describe('billing intake: the relay sends a subscriber’s waiting events in one signal', () => {
  it('one signal-with-start for the backlog of one subscriber, in order; single events as before', async () => {
    const t = standIn();
    const forwarder = relayOver(t.client);
    // Other subscribers of the scope take every call it may have; then five events of one more subscriber wait.
    for (let i = 0; i < RELAY_CALLS_PER_SCOPE; i++) forwarder.forwardSoon(record(`busy-${i}`, 0));
    for (let n = 1; n <= 5; n++) forwarder.forwardSoon(record('burst', n));
    await new Promise((r) => setImmediate(r));
    assert.equal(t.calls.length, RELAY_CALLS_PER_SCOPE);
    assert.ok(
      t.calls.every((c) => c.signal === 'providerEvent' && c.args.length === 2),
      'one event alone: the signal it always was',
    );
    t.releaseAll();
    await new Promise((r) => setImmediate(r));
    assert.equal(t.calls.length, RELAY_CALLS_PER_SCOPE + 1, 'the five waiting events left in one call');
    const batch = t.calls[RELAY_CALLS_PER_SCOPE]!;
    assert.equal(batch.workflowId, 'billing/app:x/burst');
    assert.equal(batch.signal, 'providerEvents');
    const events = batch.args[0] as [{ id: string }, number][];
    assert.deepEqual(
      events.map(([e]) => e.id),
      ['burst-1', 'burst-2', 'burst-3', 'burst-4', 'burst-5'],
    );
    assert.ok(
      events.every(([, at]) => typeof at === 'number'),
      'each with its receipt time',
    );
    t.releaseAll();
    await forwarder.idle();
    assert.deepEqual(forwarder.stats(), { queued: 0, inFlight: 0, owed: 0 });
  });

  it('a subscriber’s events wait while a call for it is in flight, then leave together; subscribers go oldest first', async () => {
    const t = standIn();
    const forwarder = relayOver(t.client);
    forwarder.forwardSoon(record('hot', 1));
    await new Promise((r) => setImmediate(r));
    assert.equal(t.calls.length, 1);
    // While hot's first call is in flight: three more of its events, and one of a subscriber that came later.
    for (let n = 2; n <= 4; n++) forwarder.forwardSoon(record('hot', n));
    forwarder.forwardSoon(record('cold', 5));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      t.calls.map((c) => c.workflowId),
      ['billing/app:x/hot', 'billing/app:x/cold'],
      'a free slot goes to another subscriber, never to a second call for one in flight',
    );
    t.releaseFirst();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    assert.equal(t.calls.length, 3);
    const next = t.calls[2]!;
    assert.equal(next.workflowId, 'billing/app:x/hot');
    assert.deepEqual(
      (next.args[0] as [{ id: string }, number][]).map(([e]) => e.id),
      ['hot-2', 'hot-3', 'hot-4'],
      'the waiting events in one call, in order',
    );
    t.releaseAll();
    await forwarder.idle();
    assert.deepEqual(forwarder.stats(), { queued: 0, inFlight: 0, owed: 0 });
  });
});
