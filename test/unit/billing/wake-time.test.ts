import assert from 'node:assert/strict';
import { contributionOf } from '../../../src/billing/metrics';
import { applyDowngrade, applyEvent } from '../../../src/billing/subscriber-state';
import { nextWakeAt } from '../../../src/billing/wake-time';
import { DAY, T0, monthly, subEvent } from './fixtures';
import { deliver, fresh } from './helpers';

describe('nextWakeAt: when a subscriber changes with time alone', () => {
  it('wakes at the scheduled downgrade of a cancelled subscription', () => {
    const { state } = deliver(
      [
        subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0)),
        subEvent('CANCELLATION', 'c', T0 + DAY, monthly(0), { cancel_reason: 'UNSUBSCRIBE' }),
      ],
      T0 + DAY,
    );
    assert.equal(nextWakeAt(state), T0 + 30 * DAY);
  });

  it('a product with no entitlement ids still lapses at its period end, without an EXPIRATION event', () => {
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0), { entitlement_ids: null, entitlement_id: null })], T0);
    assert.equal(nextWakeAt(state), T0 + 30 * DAY);
    assert.ok(contributionOf(state).mrrMicros > 0);
    const lapsed = applyDowngrade(state, T0 + 30 * DAY).state;
    assert.equal(contributionOf(lapsed).mrrMicros, 0, 'MRR drops when the month ends');
  });

  it('a monthly and a yearly subscription sharing one entitlement: wakes at the month end, when monthly MRR drops', () => {
    const yearly = { purchasedAt: T0, expiresAt: T0 + 365 * DAY };
    const { state } = deliver(
      [
        subEvent('INITIAL_PURCHASE', 'ip-m', T0, monthly(0)),
        subEvent('INITIAL_PURCHASE', 'ip-y', T0, yearly, {
          original_transaction_id: 'Y1',
          product_id: 'com.acme.pro.yearly',
          price: 99.99,
        }),
      ],
      T0,
    );
    assert.equal(state.entitlements[0]!.expiresAtMs, T0 + 365 * DAY, 'the entitlement alone would wake in a year');
    assert.equal(nextWakeAt(state), T0 + 30 * DAY);
    const before = contributionOf(state).mrrMicros;
    const after = contributionOf(applyDowngrade(state, T0 + 30 * DAY).state).mrrMicros;
    assert.ok(after < before, `${after} < ${before}`);
    assert.equal(nextWakeAt(applyDowngrade(state, T0 + 30 * DAY).state), T0 + 365 * DAY);
  });

  it('nothing to wake for: no subscriptions, or a record merged elsewhere', () => {
    assert.equal(nextWakeAt(fresh()), null);
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0))], T0);
    assert.equal(nextWakeAt({ ...state, mergedInto: 'other' }), null);
    assert.equal(applyEvent(state, subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0)), T0).state, state);
  });
});
