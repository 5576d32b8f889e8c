/** Latency summaries: nearest-rank percentiles over every sample (no histogram bucketing). */
export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return {
    n: sorted.length,
    mean,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

export const median = (samples: readonly number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );

/** Milliseconds with sub-millisecond resolution, comparable across processes (epoch based). */
export const nowMs = () => performance.timeOrigin + performance.now();

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` until it returns true or the deadline passes; returns whether it succeeded. Never unbounded. */
export async function pollUntil(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(intervalMs);
  }
  return false;
}
