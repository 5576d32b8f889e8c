import assert from 'node:assert/strict';
import { APPLIED_EVENT_IDS_LIMIT, applyDowngrade, applyEvent, initialState } from '../../../src/billing/subscriber-state';
import { canonicalView } from '../../../src/billing/canonical-view';
import { nextWakeAt } from '../../../src/billing/wake-time';
import { searchStatus, summary } from '../../../src/billing/summary';
import { ANON, DAY, OTX, T0, USER, monthly, subEvent } from './fixtures';
import { deliver, fresh, kinds } from './helpers';

const HOUR = 3_600_000;
const P0 = monthly(0);
const P1 = monthly(1);
const P0_END = P0.expiresAt as number;
const P1_END = P1.expiresAt as number;

const purchase = (id = 'ip', at = T0, overrides = {}) => subEvent('INITIAL_PURCHASE', id, at, P0, overrides);

describe('subscriber state', () => {
  it('starts empty', () => {
    const state = initialState('app:acme', ANON);
    assert.deepEqual(
      { status: state.status, aliases: state.aliases, entitlements: state.entitlements, mrr: state.mrrContributionMicros },
      { status: 'none', aliases: [ANON], entitlements: [], mrr: 0 },
    );
  });

  describe('INITIAL_PURCHASE', () => {
    it('entitles until expiration_at_ms, counts MRR, and asks to merge the ids it learned', () => {
      const { state, effects } = deliver([purchase()], T0 + HOUR);
      assert.equal(state.status, 'active');
      assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'com.acme.pro.monthly', expiresAtMs: P0_END }]);
      assert.equal(state.mrrContributionMicros, 9_990_000);
      assert.deepEqual(state.aliases, [ANON, USER].sort());
      assert.deepEqual(effects, [
        { kind: 'merge', from: [USER], listed: true },
        { kind: 'entitlements_changed', entitlements: state.entitlements },
      ]);
      assert.deepEqual(state.lastEvent, { id: 'ip', type: 'INITIAL_PURCHASE', atMs: T0 });
    });

    it('reads the deprecated entitlement_id when entitlement_ids is absent', () => {
      const { state } = deliver([purchase('ip', T0, { entitlement_ids: null, entitlement_id: 'legacy_pro' })], T0);
      assert.deepEqual(
        state.entitlements.map((e) => e.id),
        ['legacy_pro'],
      );
    });

    it('grants a purchase without expiration with no end, outside MRR', () => {
      const lifetime = subEvent('INITIAL_PURCHASE', 'ip', T0, { purchasedAt: T0, expiresAt: null }, { product_id: 'lifetime' });
      const { state } = deliver([lifetime], T0 + 400 * DAY);
      assert.equal(state.status, 'active');
      assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'lifetime', expiresAtMs: null }]);
      assert.equal(state.mrrContributionMicros, 0);
    });

    it('entitles sandbox and family-share purchases without counting them in MRR', () => {
      for (const overrides of [{ environment: 'SANDBOX' }, { is_family_share: true }]) {
        const { state } = deliver([purchase('ip', T0, overrides)], T0);
        assert.equal(state.status, 'active', JSON.stringify(overrides));
        assert.equal(state.mrrContributionMicros, 0, JSON.stringify(overrides));
      }
    });

    it('cancels a scheduled downgrade of the same subscription', () => {
      const cancelled = deliver([purchase(), subEvent('CANCELLATION', 'c', T0 + DAY, P0, { cancel_reason: 'UNSUBSCRIBE' })], T0 + DAY);
      assert.ok(cancelled.state.scheduledDowngrade);
      const later = subEvent('INITIAL_PURCHASE', 'ip2', T0 + 2 * DAY, { purchasedAt: T0 + 2 * DAY, expiresAt: T0 + 32 * DAY });
      const { state, effects } = applyEvent(cancelled.state, later, T0 + 2 * DAY);
      assert.equal(state.scheduledDowngrade, null);
      assert.equal(state.status, 'active');
      assert.deepEqual(kinds(effects), ['entitlements_changed']);
    });
  });

  describe('RENEWAL', () => {
    it('extends access to the new expiration and keeps counting MRR', () => {
      const purchased = deliver([purchase()], T0).state;
      const { state, effects } = applyEvent(purchased, subEvent('RENEWAL', 'r1', P0_END - HOUR, P1), P0_END - HOUR);
      assert.equal(state.status, 'active');
      assert.equal(state.entitlements[0].expiresAtMs, P1_END);
      assert.equal(state.mrrContributionMicros, 9_990_000);
      assert.deepEqual(effects, [{ kind: 'entitlements_changed', entitlements: state.entitlements }]);
      const late = deliver([purchase(), subEvent('RENEWAL', 'r1', P0_END + HOUR, P1)], P0_END + 2 * HOUR).state;
      assert.equal(late.status, 'active', 'a renewal delivered after the period end restores access');
    });

    it('clears a billing-issue flag raised before it, but not one raised after it', () => {
      const issue = subEvent('BILLING_ISSUE', 'b1', P0_END, P0);
      const renewal = subEvent('RENEWAL', 'r1', P0_END + HOUR, P1);
      const cleared = deliver([purchase(), issue, renewal], P0_END + 2 * HOUR).state;
      assert.deepEqual(cleared.flags, []);
      const staleRenewalLast = deliver(
        [purchase(), renewal, subEvent('BILLING_ISSUE', 'b2', P0_END + 2 * HOUR, P1)],
        P0_END + 3 * HOUR,
      ).state;
      assert.deepEqual(
        staleRenewalLast.flags.map((f) => f.eventId),
        ['b2'],
      );
      const reversed = deliver([purchase(), subEvent('BILLING_ISSUE', 'b2', P0_END + 2 * HOUR, P1), renewal], P0_END + 3 * HOUR).state;
      assert.deepEqual(
        reversed.flags.map((f) => f.eventId),
        ['b2'],
        'an older RENEWAL must not clear a newer flag',
      );
    });

    it('before the period end, cancels the downgrade a cancellation scheduled', () => {
      const cancellation = subEvent('CANCELLATION', 'c1', T0 + 10 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
      const scheduled = deliver([purchase(), cancellation], T0 + 10 * DAY);
      assert.equal(scheduled.state.scheduledDowngrade?.atMs, P0_END);
      // The customer resubscribes: the renewal pays for the next period.
      const { state, effects } = applyEvent(scheduled.state, subEvent('RENEWAL', 'r1', T0 + 20 * DAY, P1), T0 + 20 * DAY);
      assert.equal(state.scheduledDowngrade, null);
      assert.equal(state.status, 'active');
      assert.deepEqual(kinds(effects), ['entitlements_changed']);
      // The timer fired anyway (it raced the cancel): nothing happens.
      const fired = applyDowngrade(state, P0_END);
      assert.equal(fired.state.status, 'active');
      assert.deepEqual(fired.effects, []);
    });
  });

  describe('CANCELLATION and EXPIRATION', () => {
    it('schedules the downgrade for the period end; access and MRR last until then', () => {
      const cancellation = subEvent('CANCELLATION', 'c1', T0 + 10 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
      const { state } = deliver([purchase(), cancellation], T0 + 10 * DAY);
      assert.equal(state.status, 'cancelled');
      assert.deepEqual(state.scheduledDowngrade, { atMs: P0_END, reason: 'CANCELLATION', eventId: 'c1', subscriptionKey: OTX });
      assert.equal(state.entitlements.length, 1);
      assert.equal(state.mrrContributionMicros, 9_990_000);
      assert.equal(nextWakeAt(state), P0_END, 'the workflow wakes at the period end');
    });

    it('downgrades when the timer fires: no entitlements, status expired, no MRR', () => {
      const cancellation = subEvent('CANCELLATION', 'c1', T0 + 10 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
      const { state } = deliver([purchase(), cancellation], T0 + 10 * DAY);
      const early = applyDowngrade(state, P0_END - 1);
      assert.equal(early.state.status, 'cancelled', 'a timer that fires early changes nothing');
      assert.deepEqual(early.effects, []);
      assert.equal(nextWakeAt(early.state), P0_END, 'and the workflow sleeps again until the period end');
      const fired = applyDowngrade(state, P0_END);
      assert.equal(fired.state.status, 'expired');
      assert.deepEqual(fired.state.entitlements, []);
      assert.equal(fired.state.scheduledDowngrade, null);
      assert.equal(fired.state.mrrContributionMicros, 0);
      assert.deepEqual(fired.effects, [{ kind: 'entitlements_changed', entitlements: [] }]);
    });

    it('downgrades at once when the period end is already past', () => {
      const expiration = subEvent('EXPIRATION', 'x1', P0_END + HOUR, P0, { expiration_reason: 'UNSUBSCRIBE', price: 0 });
      const { state } = deliver([purchase(), expiration], P0_END + 2 * HOUR);
      assert.equal(state.status, 'expired');
      assert.deepEqual(state.entitlements, []);
      assert.equal(state.scheduledDowngrade, null);
    });

    it('an EXPIRATION delivered before its period end schedules like a cancellation', () => {
      const expiration = subEvent('EXPIRATION', 'x1', T0 + 5 * DAY, P0, { expiration_reason: 'BILLING_ERROR' });
      const { state } = deliver([purchase(), expiration], T0 + 5 * DAY);
      assert.deepEqual(state.scheduledDowngrade, { atMs: P0_END, reason: 'EXPIRATION', eventId: 'x1', subscriptionKey: OTX });
    });

    it('a stale EXPIRATION does not revoke a period a later RENEWAL paid for', () => {
      const renewal = subEvent('RENEWAL', 'r1', P0_END, P1);
      const staleExpiration = subEvent('EXPIRATION', 'x0', P0_END - HOUR, P0, { expiration_reason: 'BILLING_ERROR' });
      const { state } = deliver([purchase(), renewal, staleExpiration], P0_END + HOUR);
      assert.equal(state.status, 'active');
      assert.equal(state.scheduledDowngrade, null);
      assert.equal(state.entitlements[0].expiresAtMs, P1_END);
    });

    it('a stale RENEWAL arriving after a newer CANCELLATION does not cancel the downgrade', () => {
      const renewal = subEvent('RENEWAL', 'r1', P0_END, P1);
      const cancellation = subEvent('CANCELLATION', 'c1', P0_END + 5 * DAY, P1, { cancel_reason: 'UNSUBSCRIBE' });
      const { state } = deliver([purchase(), cancellation, renewal], P0_END + 6 * DAY);
      assert.equal(state.status, 'cancelled');
      assert.equal(state.scheduledDowngrade?.atMs, P1_END);
    });

    it('a cancellation of an unknown subscription entitles until its period end, then downgrades', () => {
      const cancellation = subEvent('CANCELLATION', 'c1', T0 + 10 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
      const { state } = deliver([cancellation], T0 + 10 * DAY);
      assert.equal(state.status, 'cancelled');
      assert.equal(state.scheduledDowngrade?.atMs, P0_END);
    });
  });

  describe('refunds', () => {
    const refundCases = {
      'cancel_reason CUSTOMER_SUPPORT': { cancel_reason: 'CUSTOMER_SUPPORT' },
      'a negative price': { cancel_reason: 'UNKNOWN', price: -9.99, price_in_purchased_currency: -9.99 },
    };
    for (const [name, overrides] of Object.entries(refundCases)) {
      it(`take effect now (${name}), cancelling any scheduled downgrade`, () => {
        const cancellation = subEvent('CANCELLATION', 'c1', T0 + 2 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
        const refund = subEvent('CANCELLATION', 'refund', T0 + 3 * DAY, P0, overrides);
        const { state, effects } = deliver([purchase(), cancellation, refund], T0 + 3 * DAY);
        assert.equal(state.status, 'expired');
        assert.deepEqual(state.entitlements, []);
        assert.equal(state.mrrContributionMicros, 0);
        assert.equal(state.scheduledDowngrade, null);
        assert.deepEqual(kinds(effects).slice(-1), ['entitlements_changed']);
      });
    }

    it('are not undone by a stale RENEWAL of the refunded period, only by a purchase made after them', () => {
      const renewal = subEvent('RENEWAL', 'r1', P0_END, P1);
      const refund = subEvent('CANCELLATION', 'refund', P0_END + DAY, P1, { cancel_reason: 'CUSTOMER_SUPPORT' });
      assert.equal(deliver([purchase(), refund, renewal], P0_END + 2 * DAY).state.status, 'expired');
      const resubscribed = subEvent('RENEWAL', 'r2', P0_END + 3 * DAY, { purchasedAt: P0_END + 3 * DAY, expiresAt: P0_END + 33 * DAY });
      const { state } = deliver([purchase(), renewal, refund, resubscribed], P0_END + 3 * DAY);
      assert.equal(state.status, 'active');
      assert.equal(state.entitlements[0].expiresAtMs, P0_END + 33 * DAY);
    });

    it('are not undone by an uncancellation or a late notice about the refunded period', () => {
      const refund = subEvent('CANCELLATION', 'refund', T0 + 5 * DAY, P0, { cancel_reason: 'CUSTOMER_SUPPORT' });
      const uncancellation = subEvent('UNCANCELLATION', 'u1', T0 + 6 * DAY, P0);
      const lateNotice = subEvent('RENEWAL', 'late', T0 + 7 * DAY, P0);
      const { state } = deliver([purchase(), refund, uncancellation, lateNotice], T0 + 7 * DAY);
      assert.equal(state.status, 'expired');
      assert.deepEqual(state.entitlements, []);
    });
  });

  describe('UNCANCELLATION', () => {
    it('cancels the scheduled downgrade; an older one delivered late does not', () => {
      const cancellation = subEvent('CANCELLATION', 'c1', T0 + 2 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
      const uncancellation = subEvent('UNCANCELLATION', 'u1', T0 + 3 * DAY, P0);
      const { state } = deliver([purchase(), cancellation, uncancellation], T0 + 3 * DAY);
      assert.equal(state.status, 'active');
      assert.equal(state.scheduledDowngrade, null);
      const staleUncancel = subEvent('UNCANCELLATION', 'u0', T0 + DAY, P0);
      const stillCancelled = deliver([purchase(), cancellation, staleUncancel], T0 + 3 * DAY).state;
      assert.equal(stillCancelled.status, 'cancelled');
    });
  });

  describe('BILLING_ISSUE', () => {
    const issue = subEvent('BILLING_ISSUE', 'b1', P0_END, P0, { price: 0, grace_period_expiration_at_ms: P0_END + 16 * DAY });

    it('flags the customer without touching access', () => {
      const { state, effects } = deliver([purchase(), issue], P0_END - HOUR);
      assert.deepEqual(state.flags, [{ type: 'billing_issue', sinceMs: P0_END, eventId: 'b1', subscriptionKey: OTX }]);
      assert.equal(state.status, 'active');
      assert.equal(state.mrrContributionMicros, 9_990_000);
      assert.ok(!kinds(effects).includes('email_billing_issue'), 'no email outside the operator scope');
    });

    it('in operator scope, emails the org owner once per event id', () => {
      const first = deliver([purchase(), issue], P0_END, fresh('operator', ANON));
      assert.deepEqual(
        first.effects.filter((e) => e.kind === 'email_billing_issue'),
        [{ kind: 'email_billing_issue', eventId: 'b1', subscriberId: ANON, orgIds: [USER, ANON] }],
      );
      const again = applyEvent(first.state, issue, P0_END + HOUR);
      assert.deepEqual(again.effects, []);
      assert.equal(again.state, first.state);
      const second = applyEvent(first.state, { ...issue, id: 'b2', event_timestamp_ms: P0_END + DAY }, P0_END + DAY);
      assert.deepEqual(second.effects, [{ kind: 'email_billing_issue', eventId: 'b2', subscriberId: ANON, orgIds: [USER, ANON] }]);
    });

    it('does not flag or email when it is older than the latest RENEWAL', () => {
      const renewal = subEvent('RENEWAL', 'r1', P0_END + HOUR, P1);
      const { state, effects } = deliver([purchase(), renewal, issue], P0_END + 2 * HOUR, fresh('operator', ANON));
      assert.deepEqual(state.flags, []);
      assert.ok(!kinds(effects).includes('email_billing_issue'));
    });
  });

  describe('types without an effect', () => {
    for (const type of [
      'PRODUCT_CHANGE',
      'INVOICE_ISSUANCE',
      'EXPERIMENT_ENROLLMENT',
      'VIRTUAL_CURRENCY_TRANSACTION',
      'TEST',
      'BRAND_NEW_TYPE',
    ]) {
      it(`${type} is recorded as the last event, and teaches the ids it names`, () => {
        const base = deliver([purchase()], T0 + DAY).state;
        const event = subEvent(type, `n-${type}`, T0 + 2 * DAY, P1, { aliases: [ANON, 'never-seen'], new_product_id: 'x', price: 0 });
        const { state, effects } = applyEvent(base, event, T0 + 2 * DAY);
        assert.deepEqual(effects, [{ kind: 'merge', from: ['never-seen'], listed: true }]);
        assert.deepEqual(state.lastEvent, { id: `n-${type}`, type, atMs: T0 + 2 * DAY });
        assert.deepEqual(state.aliases, [ANON, 'never-seen', USER].sort());
        const without = (s: typeof state) => ({ ...canonicalView(s), lastEvent: null, aliases: [] });
        assert.deepEqual(without(state), without(base), 'no subscription fact changes');
        const older = applyEvent(base, { ...event, id: 'older', event_timestamp_ms: T0 - DAY }, T0 + 2 * DAY);
        assert.deepEqual(older.state.lastEvent, base.lastEvent, 'an older event does not replace the last one');
      });
    }

    it('runs recorded under rules v2 record them only', () => {
      const base = applyEvent(fresh(), purchase(), T0 + DAY, 'v2').state;
      for (const type of ['PRODUCT_CHANGE', 'SUBSCRIPTION_PAUSED', 'EXPERIMENT_ENROLLMENT']) {
        const event = subEvent(type, `n-${type}`, T0 + 2 * DAY, P0, { aliases: [ANON, 'never-seen'] });
        const { state, effects } = applyEvent(base, event, T0 + 2 * DAY, 'v2');
        assert.deepEqual(effects, [], type);
        assert.deepEqual(state.aliases, base.aliases, type);
        assert.equal(state.scheduledDowngrade, null, type);
        assert.equal(state.rules, undefined, type);
      }
    });
  });

  it('keeps an entitlement granted by two subscriptions as long as the longer one lasts', () => {
    const yearly = subEvent(
      'INITIAL_PURCHASE',
      'y',
      T0,
      { purchasedAt: T0, expiresAt: T0 + 365 * DAY },
      { original_transaction_id: 'Y', product_id: 'com.acme.pro.yearly', price: 99.99 },
    );
    for (const order of [
      [purchase(), yearly],
      [yearly, purchase()],
    ]) {
      const { state } = deliver(order, T0 + DAY);
      assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'com.acme.pro.yearly', expiresAtMs: T0 + 365 * DAY }]);
      assert.equal(state.mrrContributionMicros, 9_990_000 + 8_332_500);
    }
    const refundYearly = subEvent(
      'CANCELLATION',
      'y-refund',
      T0 + 2 * DAY,
      { purchasedAt: T0, expiresAt: T0 + 365 * DAY },
      { original_transaction_id: 'Y', cancel_reason: 'CUSTOMER_SUPPORT' },
    );
    const { state } = deliver([purchase(), yearly, refundYearly], T0 + 2 * DAY);
    assert.deepEqual(state.entitlements, [{ id: 'pro', productId: 'com.acme.pro.monthly', expiresAtMs: P0_END }]);
  });

  it('breaks timestamp ties by event id, whatever the arrival order', () => {
    const a = { id: 'evt-a', type: 'TEST', event_timestamp_ms: T0 };
    const b = { id: 'evt-b', type: 'SUBSCRIPTION_PAUSED', event_timestamp_ms: T0 };
    assert.equal(deliver([a, b], T0).state.lastEvent?.id, 'evt-b');
    assert.equal(deliver([b, a], T0).state.lastEvent?.id, 'evt-b');
  });

  it('skips a redelivered event id entirely', () => {
    const once = deliver([purchase()], T0);
    const twice = applyEvent(once.state, purchase(), T0 + DAY);
    assert.equal(twice.state, once.state);
    assert.deepEqual(twice.effects, []);
  });

  it('remembers a bounded number of applied event ids', () => {
    const events = Array.from({ length: APPLIED_EVENT_IDS_LIMIT + 20 }, (_, i) => ({
      id: `t${i}`,
      type: 'TEST',
      event_timestamp_ms: T0 + i,
    }));
    const { state } = deliver(events, T0);
    assert.equal(state.appliedEventIds.length, APPLIED_EVENT_IDS_LIMIT);
    assert.equal(state.appliedEventIds[0], 't20');
    assert.equal(state.version, events.length);
  });

  it('survives a JSON round trip (continue-as-new) unchanged', () => {
    const { state } = deliver([purchase(), subEvent('CANCELLATION', 'c1', T0 + DAY, P0, { cancel_reason: 'UNSUBSCRIBE' })], T0 + DAY);
    const copy = JSON.parse(JSON.stringify(state)) as typeof state;
    assert.deepEqual(copy, state);
    const renewal = subEvent('RENEWAL', 'r1', P0_END, P1);
    assert.deepEqual(applyEvent(copy, renewal, P0_END), applyEvent(state, renewal, P0_END));
  });

  it('goes trial → purchase → renewal → cancellation → downgrade', () => {
    const trial = subEvent(
      'INITIAL_PURCHASE',
      'trial',
      T0,
      { purchasedAt: T0, expiresAt: T0 + 7 * DAY },
      { period_type: 'TRIAL', price: 0, price_in_purchased_currency: 0 },
    );
    const conversionPeriod = { purchasedAt: T0 + 7 * DAY, expiresAt: T0 + 37 * DAY };
    const conversion = subEvent('RENEWAL', 'conv', T0 + 7 * DAY, conversionPeriod, { is_trial_conversion: true });
    const renewalPeriod = { purchasedAt: T0 + 37 * DAY, expiresAt: T0 + 67 * DAY };
    const renewal = subEvent('RENEWAL', 'ren', T0 + 37 * DAY, renewalPeriod);
    const cancellation = subEvent('CANCELLATION', 'can', T0 + 50 * DAY, renewalPeriod, { cancel_reason: 'UNSUBSCRIBE' });

    const steps = [
      { event: trial, now: T0 + HOUR, status: 'active', mrr: 0, until: T0 + 7 * DAY },
      { event: conversion, now: T0 + 7 * DAY, status: 'active', mrr: 9_990_000, until: T0 + 37 * DAY },
      { event: renewal, now: T0 + 37 * DAY, status: 'active', mrr: 9_990_000, until: T0 + 67 * DAY },
      { event: cancellation, now: T0 + 50 * DAY, status: 'cancelled', mrr: 9_990_000, until: T0 + 67 * DAY },
    ];
    let state = fresh();
    for (const step of steps) {
      state = applyEvent(state, step.event, step.now).state;
      assert.equal(state.status, step.status, step.event.id);
      assert.equal(state.mrrContributionMicros, step.mrr, step.event.id);
      assert.equal(state.entitlements[0]?.expiresAtMs, step.until, step.event.id);
    }
    assert.equal(summary(state), 'cancelled · pro until 2026-03-13 · downgrade 2026-03-13 · $9.99/mo');
    assert.equal(searchStatus(state), 'cancelled');

    const downgraded = applyDowngrade(state, T0 + 67 * DAY).state;
    assert.equal(downgraded.status, 'expired');
    assert.deepEqual(downgraded.entitlements, []);
    assert.equal(downgraded.mrrContributionMicros, 0);
    assert.equal(summary(downgraded), 'expired · last CANCELLATION 2026-02-24');
    assert.equal(searchStatus(downgraded), 'expired');
  });

  it('summarises an active subscriber with a flag in one line', () => {
    const { state } = deliver([purchase(), subEvent('BILLING_ISSUE', 'b1', T0 + DAY, P0)], T0 + DAY);
    assert.equal(summary(state), 'active · pro until 2026-02-04 · $9.99/mo · billing issue');
    assert.equal(summary(fresh()), 'none');
  });
});
