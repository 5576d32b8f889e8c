/**
 * A fixed-window counter per key, in process memory. Each API instance limits on its own, so the effective
 * limit is per instance; that is enough to stop one runaway client from flooding the workflow service.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit; returns null when allowed, else the seconds until the window resets. */
  hit(key: string, nowMs: number): number | null {
    const w = this.windows.get(key);
    if (!w || nowMs - w.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.sweep(nowMs);
      this.windows.set(key, { start: nowMs, count: 1 });
      return null;
    }
    if (w.count >= this.limit) return Math.max(1, Math.ceil((w.start + this.windowMs - nowMs) / 1000));
    w.count += 1;
    return null;
  }

  private sweep(nowMs: number): void {
    for (const [k, w] of this.windows) if (nowMs - w.start >= this.windowMs) this.windows.delete(k);
  }
}
