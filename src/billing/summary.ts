/** How a subscriber workflow presents itself in the Temporal UI: a one-line summary and a search keyword. Pure. */
import { isoDay } from './iso-time';
import { microsToCents } from './mrr';
import type { SubscriberState } from './subscriber-state';
import type { SubscriberStatus } from './subscriber-view';

/** Value of the `BillingStatus` search attribute. */
export type BillingSearchStatus = SubscriberStatus | 'merged';

export function searchStatus(state: SubscriberState): BillingSearchStatus {
  return state.mergedInto !== null ? 'merged' : state.status;
}

/** e.g. "active · pro until 2026-12-01 · $9.99/mo", "cancelled · pro until 2026-12-01 · downgrade 2026-12-01". */
export function summary(state: SubscriberState): string {
  if (state.mergedInto !== null) return `merged into ${state.mergedInto}`;
  const parts: string[] = [state.status];
  if (state.entitlements.length > 0) {
    const ids = state.entitlements.map((e) => e.id).join(', ');
    const ends = state.entitlements.flatMap((e) => (e.expiresAtMs === null ? [] : [e.expiresAtMs]));
    parts.push(ends.length < state.entitlements.length ? `${ids}, no end` : `${ids} until ${isoDay(Math.max(...ends))}`);
  }
  if (state.scheduledDowngrade !== null) parts.push(`downgrade ${isoDay(state.scheduledDowngrade.atMs)}`);
  if (state.mrrContributionMicros > 0) parts.push(`$${(microsToCents(state.mrrContributionMicros) / 100).toFixed(2)}/mo`);
  if (state.flags.length > 0) parts.push('billing issue');
  if (state.entitlements.length === 0 && state.lastEvent !== null) {
    parts.push(`last ${state.lastEvent.type} ${isoDay(state.lastEvent.atMs)}`);
  }
  return parts.join(' · ');
}
