/**
 * Which time orders an event. The provider's event_timestamp_ms orders events (a retry keeps it, so a late
 * delivery still takes its place), but it is the sender's word: a tenant's app can send any value, and one far
 * ahead would win every comparison for good (a BILLING_ISSUE dated year 9000 outliving every RENEWAL, a refund
 * dated year 9000 blocking every re-purchase). The provider's own TRANSFER sample is dated year 4466.
 *
 * A provider time is plausible when it lies no more than PLAUSIBLE_AHEAD_MS after the service received the event,
 * or within the period the event is about (from `purchased_at_ms` to `expiration_at_ms`, with the same margin on
 * either side): an event speaks of its own period, even one that is dated ahead. Anything else is ordered by the
 * receipt instead; the provider's time stays in the inbox and on the timeline as data. Times in the past are
 * kept: late deliveries and retries are normal. Pure.
 */
import type { BillingEvent } from './provider-events';

/** The margin around the receipt and the period: clock skew and the provider's batching, generously. */
export const PLAUSIBLE_AHEAD_MS = 48 * 60 * 60 * 1000;

/** The event as the reducer orders it: with its receipt time when its own time is implausible. */
export function withPlausibleTime(event: BillingEvent, receivedAtMs: number): BillingEvent {
  const at = event.event_timestamp_ms;
  if (typeof at !== 'number' || at <= receivedAtMs + PLAUSIBLE_AHEAD_MS || withinPeriod(event, at)) return event;
  return { ...event, event_timestamp_ms: receivedAtMs };
}

function withinPeriod(event: BillingEvent, at: number): boolean {
  const start = event.purchased_at_ms;
  if (typeof start !== 'number') return false;
  const end = typeof event.expiration_at_ms === 'number' ? event.expiration_at_ms : start;
  return at >= start - PLAUSIBLE_AHEAD_MS && at <= end + PLAUSIBLE_AHEAD_MS;
}
