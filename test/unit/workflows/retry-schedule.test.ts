import assert from 'node:assert/strict';
import type { RetrySchedule } from '../../../src/contracts/workflows/outbound-delivery';
import { nominalDelay, retryDelay } from '../../../src/workflows/retry-schedule';

const DEFAULTS: RetrySchedule = { baseMs: 30_000, capMs: 6 * 3_600_000, windowMs: 24 * 3_600_000 };

describe('outbound webhooks: retry schedule', () => {
  it('grows x3 from 30 s to a 6 h cap and keeps retrying for at least 24 h', () => {
    const nominal = Array.from({ length: 10 }, (_, i) => nominalDelay(DEFAULTS, i + 1) / 1000);
    assert.deepEqual(nominal, [30, 90, 270, 810, 2430, 7290, 21600, 21600, 21600, 21600]);
    let elapsed = 0;
    let attempt = 1;
    for (let d = retryDelay(DEFAULTS, attempt, 0.5); d !== null; d = retryDelay(DEFAULTS, ++attempt, 0.5)) elapsed += d;
    assert.equal(attempt, 11, '10 retries, 11 attempts');
    assert.ok(elapsed >= 24 * 3_600_000, `last retry ${elapsed / 3_600_000} h after the first attempt`);
    assert.ok(elapsed < 30 * 3_600_000);
  });

  it('jitters within ±25% and never below zero', () => {
    for (const r of [0, 0.25, 0.5, 0.999, -1, 2]) {
      const d = retryDelay(DEFAULTS, 3, r)!;
      assert.ok(d >= 270_000 * 0.75 && d <= 270_000 * 1.25, `${d}`);
    }
    assert.notEqual(retryDelay(DEFAULTS, 3, 0), retryDelay(DEFAULTS, 3, 0.9));
  });

  it('a short schedule (tests) runs out quickly', () => {
    const s = { baseMs: 50, capMs: 100, windowMs: 250 };
    const delays = [1, 2, 3, 4, 5].map((a) => retryDelay(s, a, 0.5));
    assert.deepEqual(delays, [50, 100, 100, null, null]);
  });
});
