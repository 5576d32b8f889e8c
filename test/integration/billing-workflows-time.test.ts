/**
 * The billing workflows on a time-skipping server, with stubbed activities: period ends months away, renewals
 * before them, and continue-as-new with a timer pending, checked in workflow time rather than wall time.
 */
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BillingTotals } from '../../src/billing/metrics';
import type { BillingEvent } from '../../src/billing/provider-events';
import type { SubscriberState } from '../../src/billing/subscriber-state';
import { providerEventSignal, subscriberStateQuery } from '../../src/workflows/billing-subscriber-contract';
import { totalsQuery, metricsWorkflowId } from '../../src/workflows/billing-metrics-contract';
import { workflowBundlePath } from '../support/bundle';
import { DAY, providerEvent } from '../support/provider-events';
import { startTimeSkipping } from '../support/time-skipping';
import { eventually } from '../support/eventually';

const TASK_QUEUE = 'billing-time';
const SCOPE = 'app:time' as const;

describe('billing workflows in workflow time (time-skipping server)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  const persisted: SubscriberState[] = [];
  const totalsWritten: BillingTotals[] = [];

  before(async () => {
    env = await startTimeSkipping();
    const client = env.client;
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: TASK_QUEUE,
      workflowBundle: { codePath: await workflowBundlePath() },
      activities: {
        async persistSubscriber(args: { state: SubscriberState }) {
          persisted.push(args.state);
        },
        async applyOperatorEntitlements() {},
        async loadStoredSubscriber() {
          return null;
        },
        async loadBillingTotals() {
          return null;
        },
        async sendBillingIssueEmail() {},
        async signalSubscriber() {},
        async dispatchOutboundEvent() {},
        async parkDeadLetter() {
          throw new Error('nothing is parked in these tests');
        },
        async ensureBillingMetricsWorkflow(scope: string) {
          await client.workflow.start('billingMetrics', { workflowId: metricsWorkflowId(scope as typeof SCOPE), taskQueue: TASK_QUEUE, args: [{ scope }] }).catch((err: Error) => {
            if (err.name !== 'WorkflowExecutionAlreadyStartedError') throw err;
          });
        },
        async writeBillingTotals(args: { totals: BillingTotals }) {
          totalsWritten.push(args.totals);
        },
      },
    });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await env?.teardown();
  });

  const send = (subscriberId: string, event: BillingEvent) =>
    env.client.workflow.signalWithStart('billingSubscriber', {
      workflowId: `billing/${SCOPE}/${subscriberId}`,
      taskQueue: TASK_QUEUE,
      args: [{ scope: SCOPE, subscriberId }],
      signal: providerEventSignal,
      signalArgs: [event],
    });
  const stateOf = (subscriberId: string) => env.client.workflow.getHandle(`billing/${SCOPE}/${subscriberId}`).query(subscriberStateQuery);
  const applied = (subscriberId: string, count: number) =>
    eventually(() => stateOf(subscriberId), (s) => s.appliedEventIds.length === count, { what: `${subscriberId} to apply ${count} events` });

  it('keeps a cancelled quarterly subscription until its period ends three months later, then downgrades', async () => {
    const t0 = await env.currentTimeMs();
    await send('quarterly', providerEvent('INITIAL_PURCHASE', 'quarterly', { at: t0, purchasedAt: t0, expiresAt: t0 + 90 * DAY, price: 29.97 }));
    await send('quarterly', providerEvent('CANCELLATION', 'quarterly', { at: t0 + 1000, purchasedAt: t0, expiresAt: t0 + 90 * DAY, price: 29.97, cancel_reason: 'UNSUBSCRIBE' }));
    await applied('quarterly', 2);

    await env.sleep(89 * DAY);
    const before = await stateOf('quarterly');
    assert.equal(before.status, 'cancelled');
    assert.deepEqual(before.entitlements.map((e) => e.id), ['pro'], 'still entitled a day before the period ends');

    await env.sleep(2 * DAY);
    const after = await eventually(() => stateOf('quarterly'), (s) => s.status === 'expired', { what: 'the downgrade at period end' });
    assert.deepEqual(after.entitlements, []);
    assert.equal(after.scheduledDowngrade, null);
    const metrics = await eventually(
      () => env.client.workflow.getHandle(metricsWorkflowId(SCOPE)).query(totalsQuery),
      (t) => t.totals.activeSubscriptions === 0,
      { what: 'the scope totals to drop the expired subscription' },
    );
    assert.equal(metrics.totals.mrrMicros, 0);
  });

  it('a renewal before the period end cancels the downgrade: access continues into the next period', async () => {
    const t0 = await env.currentTimeMs();
    await send('renewer', providerEvent('INITIAL_PURCHASE', 'renewer', { at: t0, purchasedAt: t0, expiresAt: t0 + 30 * DAY }));
    await send('renewer', providerEvent('CANCELLATION', 'renewer', { at: t0 + 1000, purchasedAt: t0, expiresAt: t0 + 30 * DAY, cancel_reason: 'UNSUBSCRIBE' }));
    await applied('renewer', 2);
    await env.sleep(20 * DAY);
    const t1 = await env.currentTimeMs();
    await send('renewer', providerEvent('RENEWAL', 'renewer', { at: t1, purchasedAt: t0 + 30 * DAY, expiresAt: t0 + 60 * DAY }));
    await applied('renewer', 3);

    await env.sleep(15 * DAY);
    const mid = await stateOf('renewer');
    assert.equal(mid.status, 'active', 'past the first period end, still active');
    assert.equal(mid.scheduledDowngrade, null);

    await env.sleep(30 * DAY);
    const lapsed = await eventually(() => stateOf('renewer'), (s) => s.entitlements.length === 0, { what: 'the entitlement to lapse at the renewed period end' });
    assert.notEqual(lapsed.status, 'active');
  });
});
