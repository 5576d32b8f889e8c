/**
 * The billing workflows on a time-skipping server, with stubbed activities: period ends months away, renewals
 * before them, merges that hand a pending downgrade to the canonical record, and a run continued as new with a
 * timer pending, checked in workflow time rather than wall time.
 */
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BillingTotals } from '../../src/billing/metrics';
import type { BillingEvent } from '../../src/billing/provider-events';
import { contributionOf, ZERO_TOTALS } from '../../src/billing/metrics';
import { applyEvent, initialState, type SubscriberState } from '../../src/billing/subscriber-state';
import type { createActivities } from '../../src/activities';
import { ensureMetricsWorkflow } from '../../src/temporal/clients/billing-metrics';
import { signalSubscriberWorkflow } from '../../src/temporal/clients/billing-subscriber';
import { systemClock } from '../../src/config/clock';
import { billingMetricsContract, type BillingMetricsWorkflow } from '../../src/contracts/workflows/billing-metrics';
import {
  billingSubscriberContract,
  type BillingSubscriberWorkflow,
  type SubscriberMessage,
} from '../../src/contracts/workflows/billing-subscriber';

/** The worker's activities: stubs are checked against them, so renaming or retyping one breaks this file's build. */
type Activities = ReturnType<typeof createActivities>;
import { workflowBundlePath } from '../support/bundle';
import { DAY, eventId, providerEvent } from '../support/provider-events';
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
        async publishSubscriber(args: { state: SubscriberState }) {
          persisted.push(args.state);
        },
        async loadProviderEvent() {
          return null;
        },
        async applyOperatorEntitlements() {},
        async loadStoredSubscriber() {
          return null;
        },
        async loadBillingTotals() {
          return null;
        },
        async sendBillingIssueEmail() {
          return 'no_owner' as const;
        },
        // As the real activity does: merges and forwards reach the other record's workflow.
        async signalSubscriber(args: { scope: typeof SCOPE; subscriberId: string; message: SubscriberMessage }) {
          await signalSubscriberWorkflow(client, TASK_QUEUE, args, args.message, systemClock);
        },
        async dispatchOutboundEvent() {
          return 0;
        },
        async parkDeadLetter() {
          throw new Error('nothing is parked in these tests');
        },
        async ensureBillingMetricsWorkflow(scope) {
          await ensureMetricsWorkflow(client, TASK_QUEUE, scope);
        },
        async writeBillingTotals(args) {
          totalsWritten.push(args.totals);
        },
      } satisfies Partial<Activities>,
    });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await env?.teardown();
  });

  const send = (subscriberId: string, event: BillingEvent) =>
    signalSubscriberWorkflow(env.client, TASK_QUEUE, { scope: SCOPE, subscriberId }, { kind: 'event', event }, systemClock);
  const stateOf = (subscriberId: string) =>
    env.client.workflow
      .getHandle<BillingSubscriberWorkflow>(billingSubscriberContract.workflowId(SCOPE, subscriberId))
      .query(billingSubscriberContract.queries.state);
  const applied = (subscriberId: string, count: number) =>
    eventually(
      () => stateOf(subscriberId),
      (s) => s.appliedEventIds.length === count,
      { what: `${subscriberId} to apply ${count} events` },
    );

  it('keeps a cancelled quarterly subscription until its period ends three months later, then downgrades', async () => {
    const t0 = await env.currentTimeMs();
    await send(
      'quarterly',
      providerEvent('INITIAL_PURCHASE', 'quarterly', { at: t0, purchasedAt: t0, expiresAt: t0 + 90 * DAY, price: 29.97 }),
    );
    await send(
      'quarterly',
      providerEvent('CANCELLATION', 'quarterly', {
        at: t0 + 1000,
        purchasedAt: t0,
        expiresAt: t0 + 90 * DAY,
        price: 29.97,
        cancel_reason: 'UNSUBSCRIBE',
      }),
    );
    await applied('quarterly', 2);

    await env.sleep(89 * DAY);
    const before = await stateOf('quarterly');
    assert.equal(before.status, 'cancelled');
    assert.deepEqual(
      before.entitlements.map((e) => e.id),
      ['pro'],
      'still entitled a day before the period ends',
    );

    await env.sleep(2 * DAY);
    const after = await eventually(
      () => stateOf('quarterly'),
      (s) => s.status === 'expired',
      { what: 'the downgrade at period end' },
    );
    assert.deepEqual(after.entitlements, []);
    assert.equal(after.scheduledDowngrade, null);
    const metrics = await eventually(
      () =>
        env.client.workflow
          .getHandle<BillingMetricsWorkflow>(billingMetricsContract.workflowId(SCOPE))
          .query(billingMetricsContract.queries.totals),
      (t) => t.totals.activeSubscriptions === 0,
      { what: 'the scope totals to drop the expired subscription' },
    );
    assert.equal(metrics.totals.mrrMicros, 0);
  });

  it('a renewal before the period end cancels the downgrade: access continues into the next period', async () => {
    const t0 = await env.currentTimeMs();
    await send('renewer', providerEvent('INITIAL_PURCHASE', 'renewer', { at: t0, purchasedAt: t0, expiresAt: t0 + 30 * DAY }));
    await send(
      'renewer',
      providerEvent('CANCELLATION', 'renewer', { at: t0 + 1000, purchasedAt: t0, expiresAt: t0 + 30 * DAY, cancel_reason: 'UNSUBSCRIBE' }),
    );
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
    const lapsed = await eventually(
      () => stateOf('renewer'),
      (s) => s.entitlements.length === 0,
      { what: 'the entitlement to lapse at the renewed period end' },
    );
    assert.notEqual(lapsed.status, 'active');
  });

  it('an alias merge hands a pending downgrade to the canonical record, which downgrades at the period end two months later', async () => {
    const t0 = await env.currentTimeMs();
    await send('anon-m', providerEvent('INITIAL_PURCHASE', 'anon-m', { at: t0, purchasedAt: t0, expiresAt: t0 + 60 * DAY }));
    await send(
      'anon-m',
      providerEvent('CANCELLATION', 'anon-m', { at: t0 + 1000, purchasedAt: t0, expiresAt: t0 + 60 * DAY, cancel_reason: 'UNSUBSCRIBE' }),
    );
    await applied('anon-m', 2);
    // The relay sends an alias event to its primary id, the original app user id.
    const alias = {
      id: eventId('alias'),
      type: 'SUBSCRIBER_ALIAS',
      event_timestamp_ms: t0 + 2000,
      app_user_id: 'anon-m',
      original_app_user_id: 'ada-m',
      aliases: ['ada-m', 'anon-m'],
      environment: 'PRODUCTION',
    } as BillingEvent;
    await send('ada-m', alias);

    const canonical = await eventually(
      () => stateOf('ada-m'),
      (s) => s.entitlements.length === 1,
      { what: 'the canonical record to absorb the alias' },
    );
    assert.ok(canonical.aliases.includes('anon-m'));
    assert.equal(canonical.status, 'cancelled');
    assert.equal(canonical.scheduledDowngrade?.atMs, t0 + 60 * DAY, 'the downgrade moves with the subscription');
    const merged = await eventually(
      () => stateOf('anon-m'),
      (s) => s.mergedInto === 'ada-m',
      { what: 'the alias record to point at the canonical one' },
    );
    assert.deepEqual(merged.entitlements, [], 'the merged record shows nothing');

    await env.sleep(59 * DAY);
    assert.deepEqual(
      (await stateOf('ada-m')).entitlements.map((e) => e.id),
      ['pro'],
      'still entitled a day before the period ends',
    );
    await env.sleep(2 * DAY);
    const lapsed = await eventually(
      () => stateOf('ada-m'),
      (s) => s.status === 'expired',
      { what: 'the canonical record to downgrade at the period end' },
    );
    assert.deepEqual(lapsed.entitlements, []);
    assert.equal((await stateOf('anon-m')).mergedInto, 'ada-m', 'the merged record stays merged');
  });

  it('a run continued as new re-arms its pending timer from the carried state and applies the carried inbox', async () => {
    const t0 = await env.currentTimeMs();
    const purchase = providerEvent('INITIAL_PURCHASE', 'carried', { at: t0, purchasedAt: t0, expiresAt: t0 + 120 * DAY });
    const cancellation = providerEvent('CANCELLATION', 'carried', {
      at: t0 + 1000,
      purchasedAt: t0,
      expiresAt: t0 + 120 * DAY,
      cancel_reason: 'UNSUBSCRIBE',
    });
    const billingIssue = providerEvent('BILLING_ISSUE', 'carried', { at: t0 + 2000, purchasedAt: t0, expiresAt: t0 + 120 * DAY });
    // What continueAsNew passes on: the state so far (a downgrade four months away), what the scope totals
    // already count, and messages that arrived after the last one applied (one of them a redelivery).
    const state = applyEvent(applyEvent(initialState(SCOPE, 'carried'), purchase, t0).state, cancellation, t0 + 1000).state;
    assert.equal(state.scheduledDowngrade?.atMs, t0 + 120 * DAY);
    await env.client.workflow.start<BillingSubscriberWorkflow>(billingSubscriberContract.name, {
      workflowId: billingSubscriberContract.workflowId(SCOPE, 'carried'),
      taskQueue: TASK_QUEUE,
      args: [
        {
          scope: SCOPE,
          subscriberId: 'carried',
          carried: {
            state,
            counted: contributionOf(state),
            inbox: [
              { kind: 'event', event: cancellation },
              { kind: 'event', event: billingIssue },
            ],
          },
        },
      ],
    });
    const resumed = await applied('carried', 3);
    assert.equal(resumed.status, 'cancelled', 'the redelivered cancellation applies once; the billing issue is applied');

    await env.sleep(119 * DAY);
    assert.deepEqual(
      (await stateOf('carried')).entitlements.map((e) => e.id),
      ['pro'],
      'the carried timer has not fired early',
    );
    await env.sleep(2 * DAY);
    const lapsed = await eventually(
      () => stateOf('carried'),
      (s) => s.status === 'expired',
      { what: 'the carried timer to fire at the period end' },
    );
    assert.deepEqual(lapsed.entitlements, []);
    assert.equal(lapsed.scheduledDowngrade, null);
  });

  it('the metrics workflow continued as new keeps its totals, sequence and unapplied deltas', async () => {
    const scope = 'app:time-carried' as const;
    const one = (mrrMicros: number): BillingTotals => ({ ...ZERO_TOTALS, mrrMicros, activeSubscriptions: 1 });
    const handle = await env.client.workflow.start<BillingMetricsWorkflow>(billingMetricsContract.name, {
      workflowId: billingMetricsContract.workflowId(scope),
      taskQueue: TASK_QUEUE,
      args: [{ scope, carried: { totals: one(9_990_000), seq: 41, pending: [one(4_990_000)] } }],
    });
    await handle.signal(billingMetricsContract.signals.totalsDelta, { ...ZERO_TOTALS, mrrMicros: -9_990_000, activeSubscriptions: -1 });
    const settled = await eventually(
      () => handle.query(billingMetricsContract.queries.totals),
      (t) => t.totals.activeSubscriptions === 1 && t.totals.mrrMicros === 4_990_000,
      {
        what: 'carried totals + carried delta + new delta',
      },
    );
    assert.ok(settled.seq > 41, 'the sequence continues from the carried one, so store writes never regress');
  });
});
