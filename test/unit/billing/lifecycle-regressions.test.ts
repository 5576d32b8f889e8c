/**
 * The five money and identity bugs of issue #31, each in the provider's published payload shape (the members of
 * RevenueCat's sample webhooks, `test/unit/billing/fixtures.ts`) and delivered in every order: a grace period
 * kept the price paid at zero, an immediate Stripe upgrade kept the old product, ids first named together by an
 * event without an effect were never learned, a billing-issue flag outlived the issue, a pause showed no downgrade.
 */
import assert from 'node:assert/strict';
import { canonicalView } from '../../../src/billing/canonical-view';
import { contributionOf } from '../../../src/billing/metrics';
import type { BillingEvent } from '../../../src/billing/provider-events';
import { applyDowngrade, applyEvent, type SubscriberState } from '../../../src/billing/subscriber-state';
import { seeded } from '../../../bench/lib/random';
import { ANON, DAY, OTX, T0, USER, monthly, subEvent, type Period } from './fixtures';
import { deliver, fresh } from './helpers';
import { canonicalOf, runNetwork } from './merge-network';

const HOUR = 3_600_000;
const P0 = monthly(0);
const P0_END = P0.expiresAt!;
const GRACE_END = P0_END + 16 * DAY;

/** Every order of `events` (at most 6 of them), each folded at `nowMs` and then re-derived at `asOfMs`. */
function everyOrder(events: BillingEvent[], nowMs: number, asOfMs = nowMs): SubscriberState[] {
  const orders: BillingEvent[][] = [];
  const permute = (done: BillingEvent[], rest: BillingEvent[]) => {
    if (rest.length === 0) orders.push(done);
    rest.forEach((e, i) => permute([...done, e], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  permute([], events);
  return orders.map((order) => applyDowngrade(deliver(order, nowMs).state, asOfMs).state);
}

const purchase = subEvent('INITIAL_PURCHASE', 'ip', T0, P0);

describe('issue #31: lifecycle regressions in the provider shape', () => {
  describe('1. a grace period keeps the price paid', () => {
    // RevenueCat's billing-issue flow with a grace period: BILLING_ISSUE (price 0, the period that failed to
    // renew, grace_period_expiration_at_ms) and a CANCELLATION with cancel_reason BILLING_ERROR whose
    // expiration_at_ms is the grace period's end, also at price 0.
    const issue = subEvent('BILLING_ISSUE', 'bi', P0_END + HOUR, P0, {
      price: 0,
      price_in_purchased_currency: 0,
      grace_period_expiration_at_ms: GRACE_END,
    });
    const graceCancel = subEvent(
      'CANCELLATION',
      'gc',
      P0_END + HOUR + 1,
      { purchasedAt: P0.purchasedAt, expiresAt: GRACE_END },
      { cancel_reason: 'BILLING_ERROR', price: 0, price_in_purchased_currency: 0 },
    );

    it('in grace: entitled until the grace end, flagged, and still counted at the price paid (every order)', () => {
      for (const state of everyOrder([purchase, issue, graceCancel], P0_END + 2 * DAY)) {
        assert.equal(state.status, 'cancelled');
        assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'com.acme.pro.monthly', expiresAtMs: GRACE_END }]);
        assert.deepEqual(state.scheduledDowngrade, { atMs: GRACE_END, reason: 'CANCELLATION', eventId: 'gc', subscriptionKey: OTX });
        assert.deepEqual(
          state.flags.map((f) => f.eventId),
          ['bi'],
        );
        assert.equal(state.mrrContributionMicros, 9_990_000);
        assert.equal(contributionOf(state).activeSubscriptions, 1);
        assert.equal(canonicalView(state).subscriptions[0]?.priceUsd, 9.99);
      }
    });

    it('recovered in grace by a RENEWAL: active, unflagged, counted', () => {
      const recovered = subEvent('RENEWAL', 'rr', P0_END + 3 * DAY, { purchasedAt: P0_END + 3 * DAY, expiresAt: P0_END + 33 * DAY });
      for (const state of everyOrder([purchase, issue, graceCancel, recovered], P0_END + 4 * DAY)) {
        assert.equal(state.status, 'active');
        assert.deepEqual(state.flags, []);
        assert.equal(state.scheduledDowngrade, null);
        assert.equal(state.mrrContributionMicros, 9_990_000);
      }
    });
  });

  describe('2. an immediate product change takes the new product, measured by its own period', () => {
    // Stripe: the RENEWAL that carries an immediate upgrade states the subscription's first purchased_at_ms
    // (the billing cycle is kept), so its own span is three and a half months.
    const stripe = {
      store: 'STRIPE',
      original_transaction_id: 'sub_1Q2w3E4r5T6y7U8i',
      product_id: 'prod_basic',
      entitlement_ids: ['basic'],
    };
    const cycle = (n: number): Period => ({ purchasedAt: T0 + n * 30 * DAY, expiresAt: T0 + (n + 1) * 30 * DAY });
    const upgradeAt = T0 + 3 * 30 * DAY + 10 * DAY;
    const events = [
      subEvent('INITIAL_PURCHASE', 's0', T0, cycle(0), { ...stripe, price: 4.99 }),
      subEvent('RENEWAL', 's1', T0 + 30 * DAY, cycle(1), { ...stripe, price: 4.99 }),
      subEvent('RENEWAL', 's3', T0 + 90 * DAY, cycle(3), { ...stripe, price: 4.99 }),
      subEvent('PRODUCT_CHANGE', 'pc', upgradeAt, cycle(3), { ...stripe, price: 0, new_product_id: 'prod_pro' }),
      subEvent(
        'RENEWAL',
        'up',
        upgradeAt,
        { purchasedAt: T0, expiresAt: T0 + 4 * 30 * DAY },
        { ...stripe, product_id: 'prod_pro', entitlement_ids: ['pro'], price: 9.99 },
      ),
    ];

    it('the customer has pro at 9.99 a month, not basic, and not a quarterly third of it (every order)', () => {
      for (const state of everyOrder(events, upgradeAt + HOUR)) {
        assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'prod_pro', expiresAtMs: T0 + 4 * 30 * DAY }]);
        assert.equal(state.mrrContributionMicros, 9_990_000);
        assert.equal(canonicalView(state).subscriptions[0]?.productId, 'prod_pro');
      }
    });
  });

  describe('3. ids first named together by an event without an effect are learned', () => {
    // A login without SUBSCRIBER_ALIAS: the anonymous purchase names only the anonymous id; the next event names
    // both (app_user_id the developer's id, original_app_user_id and aliases the anonymous one too).
    const anonymous = subEvent('INITIAL_PURCHASE', 'ip', T0, P0, { app_user_id: ANON, aliases: [ANON] });
    const loggedIn = { app_user_id: USER, original_app_user_id: ANON, aliases: [ANON, USER] };
    const firsts: Record<string, BillingEvent> = {
      EXPERIMENT_ENROLLMENT: {
        id: 'ee',
        type: 'EXPERIMENT_ENROLLMENT',
        event_timestamp_ms: T0 + DAY,
        ...loggedIn,
        experiment_id: 'prexpca1234abcd',
        experiment_variant: 'b',
        offering_id: 'experiment_offering_b',
        experiment_enrolled_at_ms: T0 + DAY,
      },
      PRODUCT_CHANGE: subEvent('PRODUCT_CHANGE', 'pc', T0 + DAY, P0, { ...loggedIn, price: 0, new_product_id: 'com.acme.pro.yearly' }),
      SUBSCRIPTION_PAUSED: subEvent('SUBSCRIPTION_PAUSED', 'sp', T0 + DAY, P0, {
        ...loggedIn,
        store: 'PLAY_STORE',
        price: 0,
        auto_resume_at_ms: P0_END + 30 * DAY,
      }),
    };
    for (const [type, first] of Object.entries(firsts)) {
      it(`after a login, ${type} naming both ids makes them one customer, found under either`, () => {
        for (const order of [
          [anonymous, first],
          [first, anonymous],
        ]) {
          const { records } = runNetwork('app:acme', order, T0 + 2 * DAY, seeded(7));
          assert.equal(canonicalOf(records, USER).id, ANON, `${type}: the developer's id leads to the customer`);
          const canonical = records.get(ANON)!;
          assert.deepEqual(canonical.aliases, [ANON, USER]);
          assert.equal(canonical.entitlements.length, 1);
        }
      });
    }
  });

  describe('4. a billing-issue flag ends with the issue', () => {
    const issue = subEvent('BILLING_ISSUE', 'bi', P0_END + HOUR, P0, { price: 0, grace_period_expiration_at_ms: null });
    const cancel = subEvent('CANCELLATION', 'bc', P0_END + HOUR + 1, P0, { cancel_reason: 'BILLING_ERROR', price: 0 });
    const expiration = subEvent('EXPIRATION', 'bx', P0_END + HOUR + 2, P0, { expiration_reason: 'BILLING_ERROR', price: 0 });
    const winBack = subEvent('INITIAL_PURCHASE', 'wb', P0_END + 10 * DAY, { purchasedAt: P0_END + 10 * DAY, expiresAt: P0_END + 40 * DAY });

    it('no flag once the subscription expired, in every order; the timeline still has the event', () => {
      for (const state of everyOrder([purchase, issue, cancel, expiration], P0_END + 2 * HOUR)) {
        assert.equal(state.status, 'expired');
        assert.deepEqual(state.flags, []);
        assert.equal(contributionOf(state).flaggedCustomers, 0);
      }
    });

    it('no flag after a win-back by INITIAL_PURCHASE', () => {
      for (const state of everyOrder([purchase, issue, cancel, expiration, winBack], P0_END + 11 * DAY)) {
        assert.equal(state.status, 'active');
        assert.deepEqual(state.flags, []);
      }
    });

    it('the flag lasts to the grace end, and a timer at the grace end clears it', () => {
      const graceCancel = subEvent(
        'CANCELLATION',
        'gc',
        P0_END + HOUR + 1,
        { purchasedAt: P0.purchasedAt, expiresAt: GRACE_END },
        {
          cancel_reason: 'BILLING_ERROR',
          price: 0,
        },
      );
      const inGrace = deliver([purchase, issue, graceCancel], P0_END + DAY).state;
      assert.equal(inGrace.flags.length, 1);
      const over = applyDowngrade(inGrace, GRACE_END).state;
      assert.deepEqual(over.flags, []);
      assert.equal(over.status, 'expired');
    });

    it('in the operator scope the owner is mailed once whether or not the EXPIRATION arrived first', () => {
      for (const order of [
        [purchase, issue, expiration],
        [purchase, expiration, issue],
      ]) {
        const { effects } = deliver(order, P0_END + 2 * HOUR, fresh('operator', ANON));
        assert.equal(effects.filter((e) => e.kind === 'email_billing_issue').length, 1, order.map((e) => e.id).join(','));
      }
    });
  });

  describe('5. a pause schedules the downgrade for the period end', () => {
    // Google Play's sample: SUBSCRIPTION_PAUSED with auto_resume_at_ms and price 0, the period it ends with.
    const play = { store: 'PLAY_STORE', original_transaction_id: 'GPA.3372-1234-5678-90123', product_id: 'premium:monthly' };
    const bought = subEvent('INITIAL_PURCHASE', 'ip', T0, P0, play);
    const paused = subEvent('SUBSCRIPTION_PAUSED', 'sp', T0 + 10 * DAY, P0, { ...play, price: 0, auto_resume_at_ms: P0_END + 30 * DAY });

    it('until the period ends: entitled, downgrade scheduled, counted (every order)', () => {
      for (const state of everyOrder([bought, paused], T0 + 11 * DAY)) {
        assert.equal(state.status, 'cancelled');
        assert.deepEqual(state.scheduledDowngrade, {
          atMs: P0_END,
          reason: 'SUBSCRIPTION_PAUSED',
          eventId: 'sp',
          subscriptionKey: play.original_transaction_id,
        });
        assert.equal(state.entitlements[0]?.expiresAtMs, P0_END);
        assert.equal(state.mrrContributionMicros, 9_990_000);
      }
    });

    it('the timer at the period end revokes; the RENEWAL at auto-resume restores', () => {
      const ended = applyDowngrade(deliver([bought, paused], T0 + 11 * DAY).state, P0_END).state;
      assert.equal(ended.status, 'expired');
      assert.deepEqual(ended.entitlements, []);
      const expiration = subEvent('EXPIRATION', 'px', P0_END, P0, { ...play, price: 0, expiration_reason: 'SUBSCRIPTION_PAUSED' });
      const resumedAt = P0_END + 30 * DAY;
      const resumed = subEvent('RENEWAL', 'rs', resumedAt, { purchasedAt: resumedAt, expiresAt: resumedAt + 30 * DAY }, play);
      for (const state of everyOrder([bought, paused, expiration, resumed], resumedAt + HOUR)) {
        assert.equal(state.status, 'active');
        assert.equal(state.scheduledDowngrade, null);
        assert.equal(state.mrrContributionMicros, 9_990_000);
      }
    });

    it('a run recorded under rules v2 still only records it', () => {
      const v2 = applyEvent(applyEvent(fresh(), bought, T0, 'v2').state, paused, T0 + 11 * DAY, 'v2').state;
      assert.equal(v2.scheduledDowngrade, null);
    });
  });
});
