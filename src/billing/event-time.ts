/**
 * Which time orders an event. The provider's event_timestamp_ms orders events (a retry keeps it, so a late
 * delivery still takes its place), but it is the sender's word: a tenant's app can send any value, and one far
 * ahead of now would win every comparison for good (a BILLING_ISSUE dated year 9000 outliving every RENEWAL, a
 * refund dated year 9000 blocking every re-purchase). The provider's own TRANSFER sample is dated year 4466. So
 * a provider time more than PLAUSIBLE_AHEAD_MS after the service received the event orders by the receipt
 * instead; the provider's time stays in the inbox and on the timeline as data. Times in the past are kept: late
 * deliveries and retries are normal. Pure.
 */
import type { BillingEvent } from './provider-events';

/** How far ahead of its receipt an event's own time may lie: clock skew and the provider's batching, generously. */
export const PLAUSIBLE_AHEAD_MS = 48 * 60 * 60 * 1000;

/** The event as the reducer orders it: with its receipt time when its own lies implausibly far ahead of it. */
export function withPlausibleTime(event: BillingEvent, receivedAtMs: number): BillingEvent {
  const at = event.event_timestamp_ms;
  if (typeof at !== 'number' || at <= receivedAtMs + PLAUSIBLE_AHEAD_MS) return event;
  return { ...event, event_timestamp_ms: receivedAtMs };
}
