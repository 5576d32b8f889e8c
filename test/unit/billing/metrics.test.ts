import assert from 'node:assert/strict';
import {
  ZERO_TOTALS,
  addTotals,
  contributionOf,
  diffContribution,
  mrrAmount,
  pickTotals,
  type BillingTotals,
} from '../../../src/billing/metrics';
import type { BillingEvent } from '../../../src/billing/provider-events';
import { applyDowngrade, applyEvent, mergeInto, type SubscriberState } from '../../../src/billing/subscriber-state';
import { DAY, T0, monthly, subEvent } from './fixtures';
import { deliver, fresh } from './helpers';

const P0 = monthly(0);
const trial = (id: string, overrides: Partial<BillingEvent> = {}) =>
  subEvent('INITIAL_PURCHASE', id, T0, { purchasedAt: T0, expiresAt: T0 + 7 * DAY }, { period_type: 'TRIAL', price: 0, ...overrides });

describe('billing metrics', () => {
  it('counts a paid subscription in MRR and active subscriptions', () => {
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, P0)], T0);
    assert.deepEqual(contributionOf(state), {
      mrrMicros: 9_990_000,
      activeSubscriptions: 1,
      activeTrials: 0,
      flaggedCustomers: 0,
      scheduledDowngrades: 0,
    });
  });

  it('counts trials apart, and leaves sandbox and family-share purchases out of MRR', () => {
    assert.equal(contributionOf(deliver([trial('t1')], T0).state).activeTrials, 1);
    assert.equal(contributionOf(deliver([trial('t2', { environment: 'SANDBOX' })], T0).state).activeTrials, 0);
    assert.equal(contributionOf(deliver([trial('t3')], T0 + 8 * DAY).state).activeTrials, 0, 'an ended trial is not active');
    for (const overrides of [{ environment: 'SANDBOX' }, { is_family_share: true }]) {
      const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, P0, overrides)], T0);
      assert.deepEqual(contributionOf(state), ZERO_TOTALS, JSON.stringify(overrides));
    }
  });

  it('counts flagged customers and scheduled downgrades once per customer', () => {
    const events = [
      subEvent('INITIAL_PURCHASE', 'a', T0, P0),
      subEvent('INITIAL_PURCHASE', 'b', T0, P0, { original_transaction_id: 'B' }),
      subEvent('BILLING_ISSUE', 'a-issue', T0 + DAY, P0),
      subEvent('BILLING_ISSUE', 'b-issue', T0 + DAY, P0, { original_transaction_id: 'B' }),
      subEvent('CANCELLATION', 'a-cancel', T0 + 2 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' }),
      subEvent('CANCELLATION', 'b-cancel', T0 + 2 * DAY, P0, { original_transaction_id: 'B', cancel_reason: 'UNSUBSCRIBE' }),
    ];
    const { state } = deliver(events, T0 + 3 * DAY);
    assert.deepEqual(contributionOf(state), {
      mrrMicros: 2 * 9_990_000,
      activeSubscriptions: 2,
      activeTrials: 0,
      flaggedCustomers: 1,
      scheduledDowngrades: 1,
    });
  });

  it('gives zero for a record merged into another', () => {
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, P0)], T0, fresh('app:acme', 'legacy'));
    assert.deepEqual(contributionOf(mergeInto(state, 'canonical', T0).state), ZERO_TOTALS);
  });

  it('keeps per-scope totals equal to a full recompute when maintained by deltas', () => {
    const subscribers = ['s1', 's2', 's3'];
    const states = new Map<string, SubscriberState>(subscribers.map((id) => [id, fresh('app:acme', id)]));
    const stored = new Map<string, BillingTotals>(subscribers.map((id) => [id, { ...ZERO_TOTALS }]));
    let totals: BillingTotals = { ...ZERO_TOTALS };
    const step = (id: string, next: SubscriberState) => {
      const contribution = contributionOf(next);
      totals = addTotals(totals, diffContribution(stored.get(id) ?? ZERO_TOTALS, contribution));
      stored.set(id, contribution);
      states.set(id, next);
    };
    // Each event names only its own subscriber (the fixtures' ANON alias would merge them all into one customer).
    const apply = (id: string, event: BillingEvent, now: number) =>
      step(id, applyEvent(states.get(id) ?? fresh(), { ...event, app_user_id: id, original_app_user_id: id, aliases: [id] }, now).state);

    apply('s1', subEvent('INITIAL_PURCHASE', 'x1', T0, P0, { app_user_id: 's1' }), T0);
    apply('s2', trial('x2', { app_user_id: 's2' }), T0);
    apply('s3', subEvent('INITIAL_PURCHASE', 'x3', T0, { purchasedAt: T0, expiresAt: T0 + 365 * DAY }, { price: 99.99 }), T0);
    apply('s1', subEvent('CANCELLATION', 'x4', T0 + DAY, P0, { cancel_reason: 'UNSUBSCRIBE' }), T0 + DAY);
    apply('s3', subEvent('BILLING_ISSUE', 'x5', T0 + 2 * DAY, P0), T0 + 2 * DAY);
    apply('s1', subEvent('CANCELLATION', 'x4', T0 + DAY, P0, { cancel_reason: 'UNSUBSCRIBE' }), T0 + 3 * DAY);
    assert.deepEqual(totals, {
      mrrMicros: 9_990_000 + 8_332_500,
      activeSubscriptions: 2,
      activeTrials: 1,
      flaggedCustomers: 1,
      scheduledDowngrades: 1,
    });
    step('s1', applyDowngrade(states.get('s1') ?? fresh(), T0 + 30 * DAY).state);
    step('s2', applyDowngrade(states.get('s2') ?? fresh(), T0 + 30 * DAY).state);

    const recomputed = [...states.values()].map(contributionOf).reduce(addTotals, { ...ZERO_TOTALS });
    assert.deepEqual(totals, recomputed);
    assert.deepEqual(totals, {
      mrrMicros: 8_332_500,
      activeSubscriptions: 1,
      activeTrials: 0,
      flaggedCustomers: 1,
      scheduledDowngrades: 0,
    });
    assert.deepEqual(mrrAmount(totals), { amount: 8.33, currency: 'USD' });
  });

  it('diffs and adds field by field', () => {
    const a = { mrrMicros: 5, activeSubscriptions: 1, activeTrials: 2, flaggedCustomers: 0, scheduledDowngrades: 1 };
    const b = { mrrMicros: 2, activeSubscriptions: 3, activeTrials: 2, flaggedCustomers: 1, scheduledDowngrades: 0 };
    assert.deepEqual(diffContribution(a, b), {
      mrrMicros: -3,
      activeSubscriptions: 2,
      activeTrials: 0,
      flaggedCustomers: 1,
      scheduledDowngrades: -1,
    });
    assert.deepEqual(addTotals(a, diffContribution(a, b)), b);
    assert.deepEqual(diffContribution(b, b), ZERO_TOTALS);
  });

  it('picks the totals out of a stored record, other fields left behind, missing ones from the fallback', () => {
    const record = {
      _id: 'operator',
      seq: 7,
      mrrMicros: 9_990_000,
      activeSubscriptions: 1,
      activeTrials: 0,
      flaggedCustomers: 2,
      scheduledDowngrades: 0,
    };
    assert.deepEqual(pickTotals(record), {
      mrrMicros: 9_990_000,
      activeSubscriptions: 1,
      activeTrials: 0,
      flaggedCustomers: 2,
      scheduledDowngrades: 0,
    });
    const dayBefore = { mrrMicros: 5, activeSubscriptions: 4, activeTrials: 3, flaggedCustomers: 2, scheduledDowngrades: 1 };
    assert.deepEqual(pickTotals({ mrrMicros: 0, activeTrials: 9 }, dayBefore), {
      mrrMicros: 0,
      activeSubscriptions: 4,
      activeTrials: 9,
      flaggedCustomers: 2,
      scheduledDowngrades: 1,
    });
    assert.deepEqual(pickTotals({}), ZERO_TOTALS);
  });
});
