/**
 * The relay under a backlog: while every signal-with-start slot is taken, events that queue up for one
 * subscriber leave together in one signal (`providerEvents`), in the order received; one event alone still
 * goes as it always did. Temporal is a stand-in that records each call and answers when told.
 */
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { EventForwarder } from '../../../src/billing-intake/event-forwarder';
import { createLogger } from '../../../src/logging/logger';
import type { Repositories } from '../../../src/store/repositories';
import type { WebhookEventRecord } from '../../../src/store/webhook-events';
import { providerEvent } from '../../support/provider-events';
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
  return { client, calls, releaseAll };
}

const record = (subscriber: string, n: number): WebhookEventRecord => {
  const event = providerEvent('RENEWAL', subscriber, { at: Date.UTC(2026, 0, 1) + n, id: `${subscriber}-${n}` });
  return {
    _id: `app:x|${event.id}`,
    scope: 'app:x',
    eventId: event.id,
    type: event.type,
    workflowId: `billing/app:x/${subscriber}`,
    subscriberId: subscriber,
    eventJson: JSON.stringify(event),
    receivedAt: new Date(Date.UTC(2026, 0, 1) + n),
    acceptedBy: 'test',
    ignored: false,
    deliveries: 1,
  };
};

describe('billing intake: the relay sends a subscriber’s waiting events in one signal', () => {
  it('one signal-with-start for the backlog of one subscriber, in order; single events as before', async () => {
    const t = standIn();
    const repos = {} as Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>;
    const forwarder = new EventForwarder(repos, t.client, 'q', createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test'));
    // Sixteen subscribers take every slot; then five events of one more subscriber wait in the queue.
    for (let i = 0; i < 16; i++) forwarder.forwardSoon(record(`busy-${i}`, 0));
    for (let n = 1; n <= 5; n++) forwarder.forwardSoon(record('burst', n));
    assert.equal(t.calls.length, 16);
    assert.ok(
      t.calls.every((c) => c.signal === 'providerEvent' && c.args.length === 2),
      'one event alone: the signal it always was',
    );
    t.releaseAll();
    await new Promise((r) => setImmediate(r));
    assert.equal(t.calls.length, 17, 'the five waiting events left in one call');
    const batch = t.calls[16]!;
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
});
