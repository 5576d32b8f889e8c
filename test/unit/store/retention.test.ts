import assert from 'node:assert/strict';
import { COLLECTIONS } from '../../../src/store/collections';
import { DEFAULT_RETENTION, ttlIndexes } from '../../../src/store/retention';

const DAY_S = 86_400;

describe('retention: TTL indexes', () => {
  it('expires the inbox, the outbox and the event log after their configured days, and keeps invocations by default', () => {
    const { create, drop } = ttlIndexes(DEFAULT_RETENTION);
    assert.equal(create[COLLECTIONS.webhookEvents]![0]!.expireAfterSeconds, 30 * DAY_S);
    assert.deepEqual(create[COLLECTIONS.webhookEvents]![0]!.key, { receivedAt: 1 });
    assert.equal(create[COLLECTIONS.outbox]![0]!.expireAfterSeconds, 30 * DAY_S);
    assert.deepEqual(create[COLLECTIONS.eventLog], [{ key: { lastAt: 1 }, name: 'ttl_last', expireAfterSeconds: 30 * DAY_S }]);
    assert.equal(create[COLLECTIONS.invocations], undefined);
    assert.deepEqual(drop, [
      [COLLECTIONS.invocations, 'ttl_completed'],
      [COLLECTIONS.invocationResults, 'ttl_stored'],
    ]);
  });

  it('expires finished invocations and their results together when a retention is set', () => {
    const { create, drop } = ttlIndexes({ ...DEFAULT_RETENTION, invocationDays: 90 });
    assert.deepEqual(create[COLLECTIONS.invocations], [{ key: { completedAt: 1 }, name: 'ttl_completed', expireAfterSeconds: 90 * DAY_S }]);
    assert.deepEqual(create[COLLECTIONS.invocationResults], [{ key: { storedAt: 1 }, name: 'ttl_stored', expireAfterSeconds: 90 * DAY_S }]);
    assert.deepEqual(drop, []);
  });

  it('collects spent Idempotency-Keys only after their 24-hour window', () => {
    const [spec] = ttlIndexes(DEFAULT_RETENTION).create[COLLECTIONS.idempotencyKeys]!;
    assert.ok(spec!.expireAfterSeconds! > DAY_S);
  });
});
