import assert from 'node:assert/strict';
import { relayRetryDelay } from '../../../src/billing-intake/event-forwarder';
import { messageFor } from '../../../src/billing-intake/dead-letters';

describe('dead letters: what a retry sends, and how long the relay waits before giving up', () => {
  it('hands an event back for relay and apply records, an effect back as a redo of the same record', () => {
    const event = { id: 'e1', type: 'RENEWAL' };
    assert.deepEqual(messageFor({ stage: 'relay', key: 'k', payload: JSON.stringify(event) }), { kind: 'event', event });
    assert.deepEqual(messageFor({ stage: 'apply', key: 'k', payload: JSON.stringify(event) }), { kind: 'event', event });
    const merge = { kind: 'mergeInto', canonicalId: 'a' };
    assert.deepEqual(messageFor({ stage: 'apply', key: 'k', payload: JSON.stringify(merge) }), merge);
    const effect = { kind: 'merge', from: ['b'] };
    assert.deepEqual(messageFor({ stage: 'effect', key: 'app:x|effect|a|3|0', payload: JSON.stringify({ effect, message: null }) }), {
      kind: 'redo',
      deadLetterKey: 'app:x|effect|a|3|0',
      effect,
      message: null,
    });
  });

  it('backs off from 5 s, doubling, and never waits more than 5 minutes between relay attempts', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(relayRetryDelay), [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000]);
    assert.equal(relayRetryDelay(10_000), 300_000);
    assert.equal(relayRetryDelay(0), 5_000);
  });
});
