/**
 * Store- and dashboard-initiated changes of access (SUBSCRIPTION_EXTENDED, REFUND_REVERSED, NON_RENEWING_PURCHASE,
 * TEMPORARY_ENTITLEMENT_GRANT) and the plausible-time rule, on the pure reducer, in every delivery order.
 */
import assert from 'node:assert/strict';
import { PLAUSIBLE_AHEAD_MS, withPlausibleTime } from '../../../src/billing/event-time';
import type { BillingEvent } from '../../../src/billing/provider-events';
import { applyDowngrade, applyEvent, initialState } from '../../../src/billing/subscriber-state';
import { DAY, T0, monthly, subEvent } from './fixtures';
import { deliver, fresh } from './helpers';

const P0 = monthly(0);
const purchase = subEvent('INITIAL_PURCHASE', 'ip', T0, P0);
const cancel = subEvent('CANCELLATION', 'c', T0 + DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });

/** Every order of `events` gives the same canonical result; returns it. */
function inEveryOrder(events: BillingEvent[], nowMs: number) {
  const orders = permutations(events);
  const results = orders.map((order) => deliver(order, nowMs).state);
  const strip = (s: (typeof results)[number]) => ({ ...s, appliedEventIds: [], version: 0, lastEvent: null });
  for (const r of results) assert.deepEqual(strip(r), strip(results[0]!));
  return results[0]!;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe('store-initiated changes of access', () => {
  it("SUBSCRIPTION_EXTENDED moves a cancelled subscription's downgrade to the new end; MRR unchanged", () => {
    const newEnd = P0.expiresAt! + 7 * DAY;
    const extended = subEvent('SUBSCRIPTION_EXTENDED', 'x', T0 + 2 * DAY, { purchasedAt: P0.purchasedAt, expiresAt: newEnd }, { price: 0 });
    const state = inEveryOrder([purchase, cancel, extended], T0 + 3 * DAY);
    assert.equal(state.status, 'cancelled');
    assert.equal(state.scheduledDowngrade?.atMs, newEnd);
    assert.deepEqual(
      state.entitlements.map((e) => e.expiresAtMs),
      [newEnd],
    );
    assert.equal(state.mrrContributionMicros, 9_990_000);
    // At the old end nothing happens; at the new one the downgrade does.
    assert.equal(applyDowngrade(state, P0.expiresAt! + DAY).state.status, 'cancelled');
    assert.equal(applyDowngrade(state, newEnd).state.status, 'expired');
  });

  it('REFUND_REVERSED restores access and MRR as the period stood; a refund after the reversal revokes again', () => {
    const refund = subEvent('CANCELLATION', 'rf', T0 + DAY, P0, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 });
    const reversed = subEvent('REFUND_REVERSED', 'rr', T0 + 2 * DAY, P0, { price: 9.99 });
    assert.equal(deliver([purchase, refund], T0 + 3 * DAY).state.entitlements.length, 0);
    const state = inEveryOrder([purchase, refund, reversed], T0 + 3 * DAY);
    assert.equal(state.status, 'active');
    assert.deepEqual(
      state.entitlements.map((e) => [e.id, e.expiresAtMs]),
      [['pro', P0.expiresAt]],
    );
    assert.equal(state.mrrContributionMicros, 9_990_000);
    const again = subEvent('CANCELLATION', 'rf2', T0 + 4 * DAY, P0, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 });
    assert.equal(applyEvent(state, again, T0 + 5 * DAY).state.entitlements.length, 0);
  });

  it('NON_RENEWING_PURCHASE from the dashboard (PROMOTIONAL, no expiration) entitles for good and adds no MRR', () => {
    const grant = subEvent(
      'NON_RENEWING_PURCHASE',
      'nr',
      T0,
      { purchasedAt: T0, expiresAt: null },
      {
        store: 'PROMOTIONAL',
        period_type: 'PROMOTIONAL',
        product_id: 'rc_promo_pro_lifetime',
        price: 0,
        original_transaction_id: null,
        transaction_id: null,
      },
    );
    const { state } = deliver([grant], T0 + 400 * DAY);
    assert.equal(state.status, 'active');
    assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'rc_promo_pro_lifetime', expiresAtMs: null }]);
    assert.equal(state.mrrContributionMicros, 0);
    assert.equal(state.scheduledDowngrade, null);
  });

  it('a paid one-time purchase with an expiration entitles until then, adds no MRR, and ends on its own', () => {
    const pass = subEvent('NON_RENEWING_PURCHASE', 'pass', T0, P0, {
      product_id: 'com.acme.pass30',
      price: 4.99,
      original_transaction_id: 'pass-otx',
    });
    const { state } = deliver([pass], T0 + DAY);
    assert.deepEqual(
      state.entitlements.map((e) => [e.id, e.expiresAtMs]),
      [['pro', P0.expiresAt]],
    );
    assert.equal(state.mrrContributionMicros, 0);
    assert.equal(applyDowngrade(state, P0.expiresAt!).state.entitlements.length, 0);
  });

  it('TEMPORARY_ENTITLEMENT_GRANT entitles the ids it names until its expiration; without ids or an end it grants nothing', () => {
    const until = T0 + DAY;
    const temporary = subEvent(
      'TEMPORARY_ENTITLEMENT_GRANT',
      'tg',
      T0,
      { purchasedAt: T0, expiresAt: until },
      { price: 0, original_transaction_id: null },
    );
    const { state } = deliver([temporary], T0 + 1000);
    assert.deepEqual(
      state.entitlements.map((e) => [e.id, e.expiresAtMs]),
      [['pro', until]],
    );
    assert.equal(state.mrrContributionMicros, 0);
    assert.equal(applyDowngrade(state, until).state.entitlements.length, 0);
    for (const bare of [{ entitlement_ids: [] }, { expiration_at_ms: null }]) {
      const none = deliver([{ ...temporary, id: `tg-${Object.keys(bare)[0]}`, ...bare }], T0 + 1000).state;
      assert.equal(none.entitlements.length, 0);
      assert.equal(none.subscriptions.length, 0);
    }
    // The purchase the grant stood in for arrives: its price counts, the entitlement lasts as long as the longer.
    const both = deliver([temporary, purchase], T0 + 1000).state;
    assert.equal(both.mrrContributionMicros, 9_990_000);
    assert.deepEqual(
      both.entitlements.map((e) => e.expiresAtMs),
      [P0.expiresAt],
    );
  });

  it('runs on the v1 rules record the grant types and change nothing (replay of runs recorded before)', () => {
    const grant = subEvent('NON_RENEWING_PURCHASE', 'nr2', T0, { purchasedAt: T0, expiresAt: null }, { price: 0 });
    const { state } = applyEvent(initialState('app:acme', 'u'), grant, T0, 'v1');
    assert.equal(state.entitlements.length, 0);
    assert.equal(state.lastEvent?.id, 'nr2');
  });
});

describe('provider times far ahead of their receipt', () => {
  const YEAR_9000 = Date.UTC(9000, 0, 1);

  it('keeps a time up to 48 h past the receipt or within the period the event is about; else orders by the receipt', () => {
    const received = T0 - 10 * DAY;
    const soon = { ...purchase, event_timestamp_ms: received + PLAUSIBLE_AHEAD_MS };
    assert.equal(withPlausibleTime(soon, received), soon);
    const past = { ...purchase, event_timestamp_ms: received - 300 * DAY };
    assert.equal(withPlausibleTime(past, received), past);
    // A period dated ahead (a prepaid year starting next month): its own events keep their times.
    const inPeriod = { ...purchase, event_timestamp_ms: P0.expiresAt! + PLAUSIBLE_AHEAD_MS };
    assert.equal(withPlausibleTime(inPeriod, received), inPeriod);
    for (const at of [P0.expiresAt! + PLAUSIBLE_AHEAD_MS + 1, YEAR_9000]) {
      assert.equal(withPlausibleTime({ ...purchase, event_timestamp_ms: at }, received).event_timestamp_ms, received);
    }
    const transfer = { id: 't', type: 'TRANSFER', event_timestamp_ms: 78_789_789_798_798 };
    assert.equal(withPlausibleTime(transfer, received).event_timestamp_ms, received);
  });

  it('a BILLING_ISSUE dated year 9000 is cleared by a later RENEWAL', () => {
    const issue = withPlausibleTime(subEvent('BILLING_ISSUE', 'bi', YEAR_9000, P0), T0 + 29 * DAY);
    const renewal = withPlausibleTime(subEvent('RENEWAL', 'rn', P0.expiresAt!, monthly(1)), P0.expiresAt!);
    const { state } = deliver([purchase, issue, renewal], P0.expiresAt! + 1000);
    assert.equal(state.flags.length, 0);
    assert.equal(state.status, 'active');
  });

  it('a refund dated year 9000 does not block a later re-purchase', () => {
    const refund = withPlausibleTime(
      subEvent('CANCELLATION', 'rf9', YEAR_9000, P0, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 }),
      T0 + DAY,
    );
    const later = T0 + 2 * DAY;
    const repurchase = withPlausibleTime(
      subEvent('INITIAL_PURCHASE', 'ip2', later, { purchasedAt: later, expiresAt: later + 30 * DAY }),
      later,
    );
    const { state } = deliver([purchase, refund, repurchase], later + 1000);
    assert.equal(state.status, 'active');
    assert.equal(state.mrrContributionMicros, 9_990_000);
  });

  it("the provider's TRANSFER sample dated year 4466 still merges", () => {
    const transfer = withPlausibleTime(
      {
        id: 'tr',
        type: 'TRANSFER',
        event_timestamp_ms: 78_789_789_798_798,
        transferred_from: ['from-user'],
        transferred_to: ['to-user'],
        app_id: 'app',
      },
      T0,
    );
    const { effects } = applyEvent(fresh('app:acme', 'to-user'), transfer, T0);
    assert.ok(
      effects.some((e) => e.kind === 'merge' || e.kind === 'transfer_out'),
      JSON.stringify(effects),
    );
  });
});
