/**
 * Property: delivering a subscriber's history in any order, with any events delivered twice, gives the same
 * record as delivering it in order (canonical view, and the whole state but for bookkeeping).
 */
import assert from 'node:assert/strict';
import type { BillingEvent } from '../../../src/billing/provider-events';
import type { SubscriberState } from '../../../src/billing/subscriber-state';
import { canonicalView } from '../../../src/billing/canonical-view';
import { ANON, DAY, OTX, T0, USER, aliasEvent, subEvent } from './fixtures';
import { deliver, seededRandom } from './helpers';

const HOUR = 3_600_000;
const trialPeriod = { purchasedAt: T0, expiresAt: T0 + 7 * DAY };
const firstPaid = { purchasedAt: T0 + 7 * DAY, expiresAt: T0 + 37 * DAY };
const secondPaid = { purchasedAt: T0 + 37 * DAY, expiresAt: T0 + 67 * DAY };
const yearly = { purchasedAt: T0 + 3 * DAY, expiresAt: T0 + 368 * DAY };
const YEARLY = {
  original_transaction_id: 'Y-2000000000000002',
  product_id: 'com.acme.team.yearly',
  entitlement_ids: ['team'],
  price: 99.99,
};

/** Trial, conversion, a billing issue cleared by a renewal, cancel / uncancel / cancel, noise, an alias. */
const cancelledHistory: BillingEvent[] = [
  subEvent('INITIAL_PURCHASE', 'h1', T0, trialPeriod, { period_type: 'TRIAL', price: 0 }),
  subEvent('RENEWAL', 'h2', T0 + 7 * DAY, firstPaid, { is_trial_conversion: true }),
  subEvent('BILLING_ISSUE', 'h3', T0 + 37 * DAY, firstPaid, { price: 0 }),
  subEvent('RENEWAL', 'h4', T0 + 37 * DAY + HOUR, secondPaid),
  subEvent('CANCELLATION', 'h5', T0 + 40 * DAY, secondPaid, { cancel_reason: 'UNSUBSCRIBE' }),
  subEvent('UNCANCELLATION', 'h6', T0 + 45 * DAY, secondPaid),
  subEvent('CANCELLATION', 'h7', T0 + 50 * DAY, secondPaid, { cancel_reason: 'PRICE_INCREASE' }),
  subEvent('PRODUCT_CHANGE', 'h8', T0 + 51 * DAY, secondPaid, { new_product_id: 'com.acme.pro.yearly' }),
  aliasEvent('h9', T0 + 52 * DAY, ANON, [ANON, USER, 'ada-second-device']),
  subEvent('INITIAL_PURCHASE', 'h10', T0 + 3 * DAY, yearly, YEARLY),
  subEvent('BILLING_ISSUE', 'h11', T0 + 55 * DAY, yearly, { ...YEARLY, price: 0 }),
];

/** Ends with everything over: an expiration after the cancellation, a refunded yearly plan, stale events. */
const endedHistory: BillingEvent[] = [
  subEvent('INITIAL_PURCHASE', 'k1', T0, firstPaid),
  subEvent('RENEWAL', 'k2', T0 + 37 * DAY, secondPaid),
  subEvent('EXPIRATION', 'k0', T0 + 36 * DAY, firstPaid, { expiration_reason: 'BILLING_ERROR' }),
  subEvent('CANCELLATION', 'k3', T0 + 50 * DAY, secondPaid, { cancel_reason: 'UNSUBSCRIBE' }),
  subEvent('EXPIRATION', 'k4', T0 + 67 * DAY + HOUR, secondPaid, { expiration_reason: 'UNSUBSCRIBE', price: 0 }),
  subEvent('INITIAL_PURCHASE', 'k5', T0 + 3 * DAY, yearly, YEARLY),
  subEvent('CANCELLATION', 'k6', T0 + 20 * DAY, yearly, { ...YEARLY, cancel_reason: 'CUSTOMER_SUPPORT', price: -99.99 }),
  subEvent('UNCANCELLATION', 'k7', T0 + 10 * DAY, yearly, YEARLY),
  { id: 'k8', type: 'EXPERIMENT_ENROLLMENT', event_timestamp_ms: T0 + 80 * DAY, app_user_id: USER },
];

/** The whole state but for delivery bookkeeping. */
function withoutBookkeeping(state: SubscriberState): Partial<SubscriberState> {
  const rest: Partial<SubscriberState> = { ...state };
  delete rest.appliedEventIds;
  delete rest.version;
  return rest;
}

/** A random order of the events, with about a third of them delivered a second time somewhere. */
function shuffledWithDuplicates(events: BillingEvent[], random: () => number): BillingEvent[] {
  const deliveries = [...events, ...events.filter(() => random() < 0.35)];
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
  }
  return deliveries;
}

const scenarios = [
  {
    name: 'a cancelled subscriber with a pending downgrade and a flag',
    events: cancelledHistory,
    now: T0 + 60 * DAY,
    expect(state: SubscriberState) {
      assert.equal(state.status, 'active');
      assert.deepEqual(
        state.entitlements.map((e) => e.id),
        ['pro', 'team'],
      );
      assert.deepEqual(state.scheduledDowngrade, { atMs: T0 + 67 * DAY, reason: 'CANCELLATION', eventId: 'h7', subscriptionKey: OTX });
      assert.deepEqual(
        state.flags.map((f) => f.eventId),
        ['h11'],
      );
      assert.equal(state.mrrContributionMicros, 9_990_000 + 8_332_500);
      assert.deepEqual(state.aliases, [ANON, 'ada-second-device', USER].sort());
      assert.equal(state.lastEvent?.id, 'h11');
    },
  },
  {
    name: 'a subscriber whose subscriptions all ended',
    events: endedHistory,
    now: T0 + 90 * DAY,
    expect(state: SubscriberState) {
      assert.equal(state.status, 'expired');
      assert.deepEqual(state.entitlements, []);
      assert.equal(state.scheduledDowngrade, null);
      assert.equal(state.mrrContributionMicros, 0);
      assert.deepEqual(
        canonicalView(state).subscriptions.map((s) => s.status),
        ['expired', 'refunded'],
      );
      assert.equal(state.lastEvent?.id, 'k8');
    },
  },
];

describe('billing reducer: order and duplicates do not matter', () => {
  for (const scenario of scenarios) {
    describe(scenario.name, () => {
      const inOrder = deliver(scenario.events, scenario.now).state;

      it('in-order delivery gives the expected record', () => {
        scenario.expect(inOrder);
      });

      it('300 seeded random orders with duplicates give the same record', () => {
        const random = seededRandom(0x5eed + scenario.events.length);
        for (let run = 0; run < 300; run++) {
          const deliveries = shuffledWithDuplicates(scenario.events, random);
          const { state } = deliver(deliveries, scenario.now);
          const order = deliveries.map((e) => e.id).join(',');
          assert.deepEqual(canonicalView(state), canonicalView(inOrder), `order ${order}`);
          assert.deepEqual(withoutBookkeeping(state), withoutBookkeeping(inOrder), `order ${order}`);
        }
      });

      it('reverse order, and every event delivered twice in a row, give the same record', () => {
        const reversed = deliver([...scenario.events].reverse(), scenario.now).state;
        const doubled = deliver(
          scenario.events.flatMap((e) => [e, { ...e }]),
          scenario.now,
        ).state;
        assert.deepEqual(canonicalView(reversed), canonicalView(inOrder));
        assert.deepEqual(canonicalView(doubled), canonicalView(inOrder));
      });
    });
  }
});
