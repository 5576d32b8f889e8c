import assert from 'node:assert/strict';
import { RateLimiter } from '../../../src/contracts/rate-limit';
import { rateLimitFields } from '../../../src/api/access/rate-limit-fields';

describe('RateLimiter: a sliding window', () => {
  it('allows at most the limit in any window, however the hits are spaced (no burst at a boundary)', () => {
    const l = new RateLimiter(3, 60_000);
    const allowedAt = (t: number) => l.take('k', t).allowed;
    assert.deepEqual([allowedAt(0), allowedAt(59_000), allowedAt(59_500), allowedAt(59_900)], [true, true, true, false]);
    // A fixed window starting at 0 would allow three more at 60 s; only the hit made at 0 has left the window.
    assert.deepEqual([allowedAt(60_000), allowedAt(60_001)], [true, false]);
    assert.deepEqual([allowedAt(118_999), allowedAt(119_000)], [false, true], 'the hit made at 59 s leaves at 119 s');
  });

  it('says what is left and when the next place frees, and refused hits do not count', () => {
    const l = new RateLimiter(2, 60_000);
    assert.deepEqual(l.take('k', 1_000), {
      allowed: true,
      limit: 2,
      windowSeconds: 60,
      remaining: 1,
      resetSeconds: 60,
      retryAfterSeconds: null,
    });
    l.take('k', 31_000);
    const refused = l.take('k', 40_000);
    assert.deepEqual([refused.allowed, refused.remaining, refused.resetSeconds, refused.retryAfterSeconds], [false, 0, 21, 21]);
    for (let t = 40_000; t < 61_000; t += 1_000) l.take('k', t);
    assert.equal(l.take('k', 61_000).allowed, true, 'the refused ones in between took nothing');
    assert.equal(l.take('other', 61_000).remaining, 1, 'keys are apart');
  });

  it('hit() answers null or the seconds to wait (at least 1)', () => {
    const l = new RateLimiter(1, 1_000);
    assert.equal(l.hit('k', 0), null);
    assert.equal(l.hit('k', 999), 1);
  });

  it('written as the draft RateLimit-Policy and RateLimit fields', () => {
    const l = new RateLimiter(60, 60_000);
    l.take('k', 0);
    assert.deepEqual(rateLimitFields('invocations', l.take('k', 2_500)), {
      'RateLimit-Policy': '"invocations";q=60;w=60',
      RateLimit: '"invocations";r=58;t=58',
    });
  });

  it('holds 50,000 keys: past them the least recently hit key is forgotten first, and a key still limited stays limited', () => {
    const l = new RateLimiter(1, 60_000);
    for (let i = 0; i < 50_000; i++) l.take(`k${i}`, 0);
    assert.equal(l.take('k1', 500).allowed, false, 'all 50,000 held');
    l.take('new', 1_000);
    assert.equal(l.take('k0', 2_000).allowed, true, 'k0 (hit longest ago) was let go for the new key');
    assert.equal(l.take('k2', 2_000).allowed, false, 'the others are still counted');
    // Once their window has passed, new keys take the places of the expired ones, and the recent ones stay counted.
    for (let i = 0; i < 10; i++) l.take(`later${i}`, 61_000);
    assert.equal(l.take('k0', 61_500).allowed, false, 'k0 hit at 2 s is still counted');
    assert.equal(l.take('later3', 61_500).allowed, false);
  });
});
