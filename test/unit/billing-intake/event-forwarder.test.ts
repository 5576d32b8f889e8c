/**
 * The forwarder's shutdown: it lets the relays in hand finish and leaves its checkpoint as its ledger says (removed
 * with nothing owed, written once more otherwise), and it never hangs on a store or a Temporal that does not answer
 * (an unanswered checkpoint delete once held an API's shutdown for over a minute: commit f7d9d1d).
 */
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { EventForwarder } from '../../../src/billing-intake/event-forwarder';
import { createLogger } from '../../../src/logging/logger';
import type { Repositories } from '../../../src/store/repositories';
import { testConfig } from '../../support/config';
import { inboxRecord } from './inbox-record';
import { MemoryRelayStore } from './memory-relay-store';

type RelayRepos = Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>;
const logger = createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test');
const never = <T>() => new Promise<T>(() => undefined);

/** A Temporal stand-in whose signal-with-start answers at once (`ok`) or refuses as an unreachable server does. */
function temporal(ok: boolean): { get: () => Promise<Client> } {
  const client = {
    connection: { withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn() },
    workflow: { signalWithStart: async () => (ok ? undefined : Promise.reject(new Error('14 UNAVAILABLE: connection refused'))) },
  } as unknown as Client;
  return { get: async () => client };
}

describe('the relay forwarder: stop()', () => {
  it('with everything relayed, removes its checkpoint; with an event owed, leaves it behind that event', async () => {
    const store = new MemoryRelayStore();
    const repos = { relayCheckpoints: store.checkpoints, webhookEvents: store.events } as unknown as RelayRepos;
    const relayed = new EventForwarder({ repos, client: temporal(true), taskQueue: 'q', logger });
    await relayed.checkpoint();
    relayed.forwardSoon(inboxRecord('app:x', 'a', 1));
    await relayed.stop();
    assert.equal(store.saved.has(relayed.instanceId), false, 'nothing owed: nothing for a peer to recover');

    const stuck = new EventForwarder({ repos, client: temporal(false), taskQueue: 'q', logger });
    const record = inboxRecord('app:x', 'b', 2);
    stuck.forwardSoon(record);
    await stuck.stop();
    assert.equal(stuck.stats().owed, 1, 'the failed relay is still owed');
    assert.equal(store.saved.get(stuck.instanceId)?.safeUntil.getTime(), record.receivedAt.getTime(), 'a peer recovers from it');
  });

  it('returns within its bound while neither the store nor Temporal answers, with a relay and a recovery under way', async () => {
    const asked: string[] = [];
    const repos = {
      relayCheckpoints: {
        save: () => (asked.push('save'), never()),
        remove: () => (asked.push('remove'), never()),
        stale: () => never(),
        removeIfUnchanged: () => never(),
      },
      webhookEvents: { acceptedSince: () => never() },
    } as unknown as RelayRepos;
    const forwarder = new EventForwarder({ repos, client: { get: () => never() }, taskQueue: 'q', logger, stopWaitMs: 50 });
    forwarder.forwardSoon(inboxRecord('app:x', 'c', 3));
    void forwarder.recover();
    await forwarder.stop();
    assert.deepEqual(asked, ['save'], 'it asked for its last checkpoint and did not wait for the answer');
    assert.deepEqual(forwarder.stats(), { queued: 0, inFlight: 1, owed: 1 }, 'the relay still hangs; recovery of it is left to a peer');
  });
});
