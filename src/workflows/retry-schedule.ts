/**
 * When a failed delivery is tried again. Pure and workflow-safe: the delivery workflow calls it with its own
 * (deterministic) random numbers.
 *
 * Delays grow ×3 from `baseMs` up to `capMs`, each with ±25% jitter so endpoints that failed together do not
 * retry together. Retries are scheduled while the nominal delays so far add up to less than `windowMs`; with
 * the defaults (30 s, 6 h, 24 h) that is 30 s, 1.5 min, 4.5 min, 13.5 min, 40.5 min, 2 h, then 6 h four times:
 * 10 retries, the last about 27 h after the first attempt. The schedule's shape is the delivery workflow's input
 * (`RetrySchedule`, src/contracts/workflows/outbound-delivery.ts).
 */
import type { RetrySchedule } from '../contracts/workflows/outbound-delivery';

export const RETRY_FACTOR = 3;
export const RETRY_JITTER = 0.25;

/** The nominal (jitter-free) delay before retry number `retry` (1-based). */
export function nominalDelay(schedule: RetrySchedule, retry: number): number {
  return Math.min(schedule.capMs, schedule.baseMs * RETRY_FACTOR ** Math.min(retry - 1, 60));
}

/**
 * The delay after failed attempt number `attempt` (1-based), or null when no retry is left. `random` is in
 * [0, 1); the jitter never takes a delay below 75% or above 125% of the nominal one.
 */
export function retryDelay(schedule: RetrySchedule, attempt: number, random: number): number | null {
  let elapsed = 0;
  for (let r = 1; r < attempt; r++) elapsed += nominalDelay(schedule, r);
  if (elapsed >= schedule.windowMs) return null;
  const nominal = nominalDelay(schedule, attempt);
  return Math.round(nominal * (1 - RETRY_JITTER + 2 * RETRY_JITTER * Math.min(Math.max(random, 0), 1)));
}
