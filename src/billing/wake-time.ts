import type { SubscriberState } from './subscriber-state';
import { NO_END_MS } from './subscription';

/**
 * When a subscriber's view next changes with time alone, so its workflow sleeps until then: the scheduled
 * downgrade, the earliest entitlement expiry, and the end of every subscription period still running. The
 * last covers what the entitlements cannot show: a product with no entitlement ids, or a monthly and a yearly
 * subscription sharing one entitlement, whose monthly MRR must drop when the month ends even if EXPIRATION
 * never arrives. Null: nothing changes until the next event. Pure.
 */
export function nextWakeAt(state: SubscriberState): number | null {
  if (state.mergedInto !== null) return null;
  const times = [
    ...(state.scheduledDowngrade ? [state.scheduledDowngrade.atMs] : []),
    ...state.entitlements.flatMap((e) => (e.expiresAtMs === null ? [] : [e.expiresAtMs])),
    ...state.subscriptions.flatMap((s) => (s.accessUntilMs === null || s.accessUntilMs === NO_END_MS ? [] : [s.accessUntilMs])),
  ].filter((t) => t > state.asOfMs);
  return times.length > 0 ? Math.min(...times) : null;
}
