import assert from 'node:assert/strict';
import {
  microsToCents,
  microsToUsd,
  monthlyMicros,
  mrrOf,
  nearestStandardPeriod,
  usdToMicros,
  type MrrInput,
} from '../../../src/billing/mrr';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 31);

function paid(days: number, priceUsd: number, overrides: Partial<MrrInput> = {}): MrrInput {
  return {
    periodType: 'NORMAL',
    priceUsd,
    purchasedAtMs: START,
    expirationAtMs: START + days * DAY,
    environment: 'PRODUCTION',
    isFamilyShare: false,
    ...overrides,
  };
}

describe('MRR normalisation', () => {
  it('normalises each standard period with the documented factor', () => {
    const cases: [number, number, string, number][] = [
      [7, 2.99, 'P1W', 11_960_000], // ×4, RevenueCat's factor
      [30, 9.99, 'P1M', 9_990_000],
      [61, 17.99, 'P2M', 8_995_000],
      [91, 24.99, 'P3M', 8_330_000],
      [182, 49.99, 'P6M', 8_331_667],
      [365, 99.99, 'P1Y', 8_332_500],
    ];
    for (const [days, price, period, micros] of cases) {
      const result = mrrOf(paid(days, price));
      assert.deepEqual(result, { counted: true, micros, period }, `${days} days`);
    }
  });

  it('rounds the duration to the nearest standard period', () => {
    const expected: [number, string][] = [
      [1, 'P1W'],
      [6, 'P1W'],
      [8, 'P1W'],
      [18, 'P1W'],
      [19, 'P1M'],
      [28, 'P1M'],
      [29, 'P1M'],
      [31, 'P1M'],
      [45, 'P1M'],
      [46, 'P2M'],
      [59, 'P2M'],
      [62, 'P2M'],
      [89, 'P3M'],
      [92, 'P3M'],
      [136, 'P3M'],
      [137, 'P6M'],
      [181, 'P6M'],
      [184, 'P6M'],
      [273, 'P6M'],
      [274, 'P1Y'],
      [365, 'P1Y'],
      [366, 'P1Y'],
      [1000, 'P1Y'],
    ];
    for (const [days, period] of expected) assert.equal(nearestStandardPeriod(days * DAY), period, `${days} days`);
    assert.equal(nearestStandardPeriod(0), null);
    assert.equal(nearestStandardPeriod(-DAY), null);
    assert.equal(nearestStandardPeriod(Number.NaN), null);
  });

  it('measures the period from purchased_at_ms to expiration_at_ms across short and long months', () => {
    const february = { purchasedAtMs: Date.UTC(2026, 1, 1), expirationAtMs: Date.UTC(2026, 2, 1) };
    const leapYear = { purchasedAtMs: Date.UTC(2028, 0, 1), expirationAtMs: Date.UTC(2029, 0, 1) };
    assert.equal(mrrOf({ ...paid(0, 9.99), ...february }).micros, 9_990_000);
    assert.equal(mrrOf({ ...paid(0, 120), ...leapYear }).micros, 10_000_000);
  });

  it('excludes trials, unpaid, non-renewing, sandbox, family-share and undatable periods', () => {
    const excluded: [MrrInput, string][] = [
      [paid(7, 0, { periodType: 'TRIAL' }), 'trial'],
      [paid(30, 9.99, { periodType: 'TRIAL' }), 'trial'],
      [paid(30, 0), 'unpaid'],
      [paid(30, -9.99), 'unpaid'],
      [paid(30, 9.99, { priceUsd: null }), 'unpaid'],
      [paid(30, 9.99, { expirationAtMs: null }), 'non_renewing'],
      [paid(30, 9.99, { environment: 'SANDBOX' }), 'sandbox'],
      [paid(30, 9.99, { isFamilyShare: true }), 'family_share'],
      [paid(30, 9.99, { purchasedAtMs: null }), 'unknown_period'],
      [paid(30, 9.99, { purchasedAtMs: START + 31 * DAY }), 'unknown_period'],
    ];
    for (const [input, reason] of excluded) {
      assert.deepEqual(mrrOf(input), { counted: false, micros: 0, excludedBy: reason }, JSON.stringify(input));
    }
    assert.equal(mrrOf(paid(30, 9.99, { periodType: 'INTRO' })).counted, true);
  });

  it('works in integer micro-dollars, so sums do not drift', () => {
    assert.equal(usdToMicros(9.99), 9_990_000);
    assert.equal(usdToMicros(0.1 + 0.2), 300_000);
    assert.equal(monthlyMicros(usdToMicros(4.99), 'P3M'), 1_663_333);
    // A thousand yearly 99.99 subscriptions: per-subscriber cents would say 8,330.00; the exact total is 8,332.50.
    const total = Array.from({ length: 1000 }, () => mrrOf(paid(365, 99.99)).micros).reduce((a, b) => a + b, 0);
    assert.equal(total, 8_332_500_000);
    assert.equal(microsToUsd(total), 8332.5);
    assert.ok(Number.isInteger(total));
  });

  it('rounds to the cent for display', () => {
    assert.equal(microsToCents(8_332_500), 833);
    assert.equal(microsToCents(8_335_000), 834);
    assert.equal(microsToUsd(9_990_000), 9.99);
    assert.equal(microsToUsd(1_663_333), 1.66);
    assert.equal(microsToUsd(0), 0);
  });
});
