import assert from 'node:assert/strict';
import { DAY_MS, DailyTrendBuilder } from '../../../src/billing/daily-trend';
import { applyEvent, initialState } from '../../../src/billing/subscriber-state';
import { providerEvent } from '../../support/provider-events';

describe('daily trend backfill', () => {
  const day0 = Date.parse('2026-03-10T00:00:00Z');

  it('counts a subscription from its purchase to its end, and its end as one churned subscription', () => {
    let state = initialState('app:x', 'u1');
    const bought = day0 + 2 * DAY_MS + 3600_000;
    const ends = day0 + 5 * DAY_MS + 3600_000;
    state = applyEvent(state, providerEvent('INITIAL_PURCHASE', 'u1', { at: bought, expiresAt: ends, price: 10 }), bought).state;
    state = applyEvent(
      state,
      providerEvent('CANCELLATION', 'u1', {
        at: bought + 1000,
        purchasedAt: bought,
        expiresAt: ends,
        price: 10,
        cancel_reason: 'UNSUBSCRIBE',
      }),
      ends + DAY_MS,
    ).state;
    const builder = new DailyTrendBuilder(Array.from({ length: 8 }, (_, i) => day0 + i * DAY_MS));
    builder.add(state);
    builder.add(initialState('app:x', 'nobody'));
    const points = builder.points();
    assert.deepEqual(
      points.map((p) => p.activeSubscriptions),
      [0, 0, 1, 1, 1, 0, 0, 0],
    );
    assert.deepEqual(
      points.map((p) => p.churned),
      [0, 0, 0, 0, 0, 1, 0, 0],
    );
    assert.ok(points[3]!.mrrMicros > 0, 'MRR while active (normalised to a month from the period length)');
    assert.equal(points[6]!.mrrMicros, 0);
  });
});
