/**
 * What a subscriber's facts mean at a point in time: status, entitlements, flags, the scheduled downgrade and
 * the MRR contribution. Pure (the canonical view the dashboard reads is in canonical-view.ts).
 */
import { mrrOf, type MrrResult } from './mrr';
import type { RuleSet } from './provider-events';
import {
  NO_END_MS,
  billingIssueStands,
  compareCodeUnits,
  currentInfo,
  isEntitling,
  subscriptionStatus,
  type EventStamp,
  type Subscription,
  type SubscriptionInfo,
  type SubscriptionStatus,
} from './subscription';

export type SubscriberStatus = 'active' | 'cancelled' | 'expired' | 'none';

export interface Entitlement {
  id: string;
  productId: string | null;
  /** Null: no end (a non-renewing purchase). */
  expiresAtMs: number | null;
}

export interface BillingFlag {
  type: 'billing_issue';
  sinceMs: number;
  eventId: string;
  subscriptionKey: string;
}

export interface ScheduledDowngrade {
  atMs: number;
  /** The event type that scheduled it: CANCELLATION, EXPIRATION or SUBSCRIPTION_PAUSED (rules v3). */
  reason: string;
  eventId: string;
  subscriptionKey: string;
}

export interface SubscriberView {
  status: SubscriberStatus;
  entitlements: Entitlement[];
  flags: BillingFlag[];
  scheduledDowngrade: ScheduledDowngrade | null;
  /** Integer micro-dollars per month. */
  mrrContributionMicros: number;
}

/** One subscription as it stands at a point in time. */
export interface SubscriptionLine {
  subscription: Subscription;
  status: SubscriptionStatus;
  /** What describes its current period (subscription.ts's currentInfo). */
  info: SubscriptionInfo | null;
  /** Null when the subscription does not entitle (nothing to count). */
  mrr: MrrResult | null;
}

/** `rules`: those the record was last changed under (SubscriberState.rules; absent: before v3). */
export function subscriptionLines(subscriptions: readonly Subscription[], asOfMs: number, rules: RuleSet = 'v2'): SubscriptionLine[] {
  return subscriptions.map((subscription) => {
    const status = subscriptionStatus(subscription, asOfMs);
    const info = currentInfo(subscription, rules);
    const mrr = isEntitling(status) && info !== null ? mrrOf(info) : null;
    return { subscription, status, info, mrr };
  });
}

const MERGED_VIEW: SubscriberView = {
  status: 'none',
  entitlements: [],
  flags: [],
  scheduledDowngrade: null,
  mrrContributionMicros: 0,
};

/**
 * A merged record shows nothing of its own: its history lives on in the canonical record, and counting it
 * here too would count it twice.
 */
export function deriveView(subscriptions: readonly Subscription[], asOfMs: number, merged: boolean, rules: RuleSet = 'v2'): SubscriberView {
  if (merged) return { ...MERGED_VIEW };
  const lines = subscriptionLines(subscriptions, asOfMs, rules);
  const entitled = lines.filter((line) => isEntitling(line.status));
  return {
    status: statusOf(lines),
    entitlements: entitlementsOf(entitled),
    // Rules v3: a flag lasts while its subscription is entitled (in a grace period) and nothing was bought since;
    // the subscription expiring or being bought again ends it (the timeline keeps the event).
    flags: flagsOf(
      rules === 'v3' ? entitled.filter((line) => billingIssueStands(line.subscription)).map((l) => l.subscription) : subscriptions,
    ),
    scheduledDowngrade: downgradeOf(entitled.filter((line) => line.status === 'cancelled')),
    mrrContributionMicros: lines.reduce((sum, line) => sum + (line.mrr?.micros ?? 0), 0),
  };
}

function statusOf(lines: SubscriptionLine[]): SubscriberStatus {
  if (lines.some((line) => line.status === 'active')) return 'active';
  if (lines.some((line) => line.status === 'cancelled')) return 'cancelled';
  return lines.some((line) => line.subscription.info !== null) ? 'expired' : 'none';
}

// Several subscriptions may grant the same entitlement: it lasts as long as the longest of them (ties: the
// smaller product id, so that the choice does not depend on the order subscriptions were learned in).
function entitlementsOf(entitled: SubscriptionLine[]): Entitlement[] {
  const byId = new Map<string, { productId: string | null; untilMs: number }>();
  for (const { subscription: sub, info } of entitled) {
    const productId = info?.productId ?? null;
    const untilMs = sub.accessUntilMs ?? NO_END_MS; // never null on an entitling subscription
    for (const id of info?.entitlementIds ?? []) {
      const known = byId.get(id);
      const longer = known === undefined || untilMs > known.untilMs;
      const tieWinner = known !== undefined && untilMs === known.untilMs && compareCodeUnits(productId ?? '', known.productId ?? '') < 0;
      if (longer || tieWinner) byId.set(id, { productId, untilMs });
    }
  }
  return [...byId]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([id, { productId, untilMs }]) => ({ id, productId, expiresAtMs: untilMs === NO_END_MS ? null : untilMs }));
}

function flagsOf(subscriptions: readonly Subscription[]): BillingFlag[] {
  return subscriptions
    .filter((sub): sub is Subscription & { billingIssue: EventStamp } => sub.billingIssue !== null)
    .map((sub) => ({
      type: 'billing_issue' as const,
      sinceMs: sub.billingIssue.atMs,
      eventId: sub.billingIssue.id,
      subscriptionKey: sub.key,
    }))
    .sort((a, b) => a.sinceMs - b.sinceMs || compareCodeUnits(a.subscriptionKey, b.subscriptionKey));
}

// One timer per subscriber: the earliest pending downgrade; the next one is re-armed when it fires.
function downgradeOf(cancelled: SubscriptionLine[]): ScheduledDowngrade | null {
  const pending = cancelled
    .map(({ subscription: sub }) => ({
      atMs: sub.accessUntilMs ?? NO_END_MS, // never null on an entitling subscription
      reason: sub.endings[0].type,
      eventId: sub.endings[0].id,
      subscriptionKey: sub.key,
    }))
    .sort((a, b) => a.atMs - b.atMs || compareCodeUnits(a.subscriptionKey, b.subscriptionKey));
  return pending[0] ?? null;
}

export interface CanonicalSubscription {
  key: string;
  status: SubscriptionStatus;
  productId: string | null;
  entitlementIds: string[];
  periodType: string | null;
  store: string | null;
  environment: string | null;
  isFamilyShare: boolean;
  priceUsd: number | null;
  purchasedAtMs: number | null;
  /** Null: no end. */
  expiresAtMs: number | null;
  mrrMicros: number;
}
