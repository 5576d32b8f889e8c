/**
 * The canonical view of a subscriber record: what the dashboard reads and tests compare. In a module of its own
 * because it reads the whole record (subscriber-state.ts), which itself derives its view with subscriber-view.ts.
 */
import { microsToUsd } from './mrr';
import type { BillingScope } from './subscriber-id';
import { rulesOf, type SubscriberState } from './subscriber-state';
import { subscriptionLines, type CanonicalSubscription, type SubscriberView } from './subscriber-view';
import { NO_END_MS, type EventStamp } from './subscription';

export interface CanonicalView extends SubscriberView {
  scope: BillingScope;
  id: string;
  aliases: string[];
  mergedInto: string | null;
  /** USD per month, rounded to the cent. */
  mrrContribution: number;
  lastEvent: EventStamp | null;
  subscriptions: CanonicalSubscription[];
}

/**
 * Everything that describes the subscriber, without delivery bookkeeping (which ids were applied, in which
 * order, how many transitions). Two deliveries of the same history in different orders, with duplicates, give
 * deep-equal canonical views; the dashboard shows this.
 */
export function canonicalView(state: SubscriberState): CanonicalView {
  return {
    scope: state.scope,
    id: state.id,
    aliases: state.aliases,
    mergedInto: state.mergedInto,
    status: state.status,
    entitlements: state.entitlements,
    flags: state.flags,
    scheduledDowngrade: state.scheduledDowngrade,
    mrrContributionMicros: state.mrrContributionMicros,
    mrrContribution: microsToUsd(state.mrrContributionMicros),
    lastEvent: state.lastEvent,
    subscriptions: subscriptionLines(state.subscriptions, state.asOfMs, rulesOf(state)).map(({ subscription: sub, status, info, mrr }) => ({
      key: sub.key,
      status,
      productId: info?.productId ?? null,
      entitlementIds: info?.entitlementIds ?? [],
      periodType: info?.periodType ?? null,
      store: info?.store ?? null,
      environment: info?.environment ?? null,
      isFamilyShare: info?.isFamilyShare ?? false,
      priceUsd: info?.priceUsd ?? null,
      purchasedAtMs: info?.purchasedAtMs ?? null,
      expiresAtMs: sub.accessUntilMs === NO_END_MS ? null : sub.accessUntilMs,
      mrrMicros: mrr?.micros ?? 0,
    })),
  };
}
