import assert from 'node:assert/strict';
import { DeliveryLog, type DeliveryOutcome } from '../../../src/billing-intake/delivery-log';
import type { EventLogBucket, EventLogRepository, NewEventLogEntry } from '../../../src/store/event-log';
import { createLogger } from '../../../src/logging/logger';
import { testConfig } from '../../support/config';

/** A repository that keeps what it is given. */
function memoryRepo() {
  const writes: { bucket: EventLogBucket; entries: NewEventLogEntry[]; cap: number }[] = [];
  return {
    writes,
    repo: { write: async (bucket, entries, cap) => void writes.push({ bucket, entries, cap }) } as Pick<EventLogRepository, 'write'>,
  };
}

const at = new Date('2026-11-20T10:00:30Z');
const refusal = (over: Partial<DeliveryOutcome>): DeliveryOutcome => ({
  endpoint: 'app',
  app: 'acme',
  scope: 'app:acme',
  at,
  status: 401,
  outcome: 'rejected',
  reason: 'authorization_mismatch',
  unauthorized: true,
  ...over,
});

describe('the event log writer (billing-intake/delivery-log.ts)', () => {
  const logger = createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test');

  it('counts refusals before authorization per bucket, reason and minute, however many slugs a flood makes up', async () => {
    const { writes, repo } = memoryRepo();
    const log = new DeliveryLog(repo as EventLogRepository, { maxPerScope: 100, maxUnattributed: 50 }, logger);
    for (let i = 0; i < 1000; i++) log.record(refusal({ app: `made-up-${i}`, scope: null, reason: 'unknown_app' }));
    for (let i = 0; i < 300; i++) log.record(refusal({}));
    log.record(refusal({ at: new Date(at.getTime() + 60_000) }));
    await log.stop();
    const byBucket = Object.fromEntries(writes.map((w) => [w.bucket, w]));
    assert.deepEqual(
      byBucket.unattributed!.entries.map((e) => [e.count, e.app, e.reason, e.at.toISOString()]),
      [[1000, 'made-up-0', 'unknown_app', '2026-11-20T10:00:00.000Z']],
    );
    assert.equal(byBucket.unattributed!.cap, 50);
    assert.deepEqual(
      byBucket['app:acme']!.entries.map((e) => [e.count, e.at.toISOString()]),
      [
        [300, '2026-11-20T10:00:00.000Z'],
        [1, '2026-11-20T10:01:00.000Z'],
      ],
    );
    assert.equal(byBucket['app:acme']!.cap, 100);
  });

  it("bounds what waits per bucket: one app's flood is dropped (and counted) while another's entries are kept", async () => {
    const { writes, repo } = memoryRepo();
    const log = new DeliveryLog(repo as EventLogRepository, { maxPerScope: 100, maxUnattributed: 50 }, logger);
    const accepted = (scope: 'app:loud' | 'app:quiet', i: number): DeliveryOutcome => ({
      endpoint: 'app',
      app: scope.slice(4),
      scope,
      at,
      status: 200,
      outcome: 'accepted',
      reason: null,
      eventId: `e-${i}`,
      type: 'RENEWAL',
      subscriberId: `u-${i}`,
    });
    for (let i = 0; i < 2_500; i++) log.record(accepted('app:loud', i));
    for (let i = 0; i < 10; i++) log.record(accepted('app:quiet', i));
    await log.stop();
    const count = (bucket: string) => writes.filter((w) => w.bucket === bucket).reduce((n, w) => n + w.entries.length, 0);
    assert.equal(count('app:loud'), 2_000);
    assert.equal(count('app:quiet'), 10);
    assert.equal(log.stats().dropped, 500);
    const quiet = writes.find((w) => w.bucket === 'app:quiet')!.entries[0]!;
    assert.deepEqual(quiet.facets.sort(), ['all', 'outcome:accepted', 'subscriber:u-0', 'type:RENEWAL']);
  });
});
