/**
 * A sliding-window limit per key, in process memory: at most `limit` hits in any `windowMs`, whatever their
 * spacing. A fixed window let twice the limit through around its boundary (the last seconds of one window and the
 * first of the next); here each hit stays counted for exactly `windowMs` after it was made. A key keeps the times
 * of its counted hits (at most `limit`, and only those still in the window); refused hits are not counted. Each
 * API instance limits on its own, so the effective limit is per instance; that is enough to stop one runaway
 * client from flooding the workflow service.
 */
export interface RateDecision {
  allowed: boolean;
  /** The policy: `limit` hits per `windowSeconds`. */
  limit: number;
  windowSeconds: number;
  /** Hits left in the window after this one. */
  remaining: number;
  /** Seconds until the oldest counted hit leaves the window and frees one (0 when none is counted). */
  resetSeconds: number;
  /** When refused: seconds until a hit would be allowed (at least 1). */
  retryAfterSeconds: number | null;
}

/** Keys held at once; past it, the keys without a hit in the window go first, then the least recently hit. */
const MAX_KEYS = 50_000;

export class RateLimiter {
  /** Per key, the times of its counted hits, oldest first (Map order: least recently hit key first). */
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit unless the key is at its limit; says what is left either way. */
  take(key: string, nowMs: number): RateDecision {
    const times = this.current(key, nowMs);
    const allowed = times.length < this.limit;
    if (allowed) {
      times.push(nowMs);
      // Re-inserted last: Map order is the order keys were last hit in.
      this.hits.delete(key);
      this.hits.set(key, times);
      if (this.hits.size > MAX_KEYS) this.shed(nowMs);
    }
    const oldest = times[0];
    const freedInMs = oldest === undefined ? 0 : oldest + this.windowMs - nowMs;
    return {
      allowed,
      limit: this.limit,
      windowSeconds: Math.ceil(this.windowMs / 1000),
      remaining: this.limit - times.length,
      resetSeconds: Math.max(0, Math.ceil(freedInMs / 1000)),
      retryAfterSeconds: allowed ? null : Math.max(1, Math.ceil(freedInMs / 1000)),
    };
  }

  /** Counts one hit; returns null when allowed, else the seconds until one would be. */
  hit(key: string, nowMs: number): number | null {
    return this.take(key, nowMs).retryAfterSeconds;
  }

  /** The key's hits still in the window (dropping the older ones). */
  private current(key: string, nowMs: number): number[] {
    const times = this.hits.get(key) ?? [];
    let expired = 0;
    while (expired < times.length && times[expired]! <= nowMs - this.windowMs) expired++;
    if (expired > 0) times.splice(0, expired);
    return times;
  }

  /**
   * Map order is the order keys were last hit in, so the keys with no hit left in the window come first: dropping
   * from the front until the first key still in its window (and under MAX_KEYS) drops all of them, then the least
   * recently hit, without reading the keys that stay (a flood of new keys costs each one hit, not a scan).
   */
  private shed(nowMs: number): void {
    for (const [k, times] of this.hits) {
      if (this.hits.size <= MAX_KEYS && times.at(-1)! > nowMs - this.windowMs) break;
      this.hits.delete(k);
    }
  }
}
