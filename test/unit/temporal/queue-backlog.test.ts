import assert from 'node:assert/strict';
import { backlogReport, LAGGING_AFTER_SECONDS } from '../../../src/temporal/queue-backlog';
import { tenantPriority } from '../../../src/temporal/fairness';

describe('backpressure that says so (/readyz backlog)', () => {
  it('ok while the relay and the queues keep up; lagging once either has waited past the threshold', () => {
    const idle = { billing: { tasks: 0, ageSeconds: 0 }, skills: { tasks: 0, ageSeconds: 0 } };
    assert.deepEqual(backlogReport({ events: 0, lagMs: 0 }, idle), { status: 'ok', relay: { events: 0, lagSeconds: 0 }, queues: idle });
    assert.equal(backlogReport({ events: 40, lagMs: 1_250 }, idle).relay.lagSeconds, 1.3);
    assert.equal(backlogReport({ events: 5_000, lagMs: (LAGGING_AFTER_SECONDS + 1) * 1000 }, idle).status, 'lagging');
    const queued = { billing: { tasks: 5_441, ageSeconds: 270 }, skills: null };
    assert.equal(backlogReport({ events: 0, lagMs: 0 }, queued).status, 'lagging', "the queue's age counts though the relay is idle");
    assert.equal(backlogReport({ events: 0, lagMs: 0 }, { billing: null, skills: null }).status, 'ok', 'no figures: no claim');
  });

  it("fairness keys are the billing scope, cut to Temporal's 64 bytes", () => {
    assert.deepEqual(tenantPriority('app:acme-web'), { fairnessKey: 'app:acme-web' });
    const long = `app:${'x'.repeat(63)}`;
    assert.equal(Buffer.byteLength(tenantPriority(long).fairnessKey!), 64);
    assert.ok(long.startsWith(tenantPriority(long).fairnessKey!));
  });
});
