/**
 * What a subscriber's facts mean at a point in time: status, entitlements, flags, the scheduled downgrade and
 * the MRR contribution. Pure (the canonical view the dashboard reads is in canonical-view.ts).
 */
import { mrrOf, type MrrResult } from './mrr';
import {
  NO_END_MS,
  compareCodeUnits,
  isEntitling,
  subscriptionStatus,
  type EventStamp,
  type Subscription,
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
  /** The event type that scheduled it: CANCELLATION or EXPIRATION. */
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
  /** Null when the subscription does not entitle (nothing to count). */
  mrr: MrrResult | null;
}

export function subscriptionLines(subscriptions: readonly Subscription[], asOfMs: number): SubscriptionLine[] {
  return subscriptions.map((subscription) => {
    const status = subscriptionStatus(subscription, asOfMs);
    const mrr = isEntitling(status) && subscription.info !== null ? mrrOf(subscription.info) : null;
    return { subscription, status, mrr };
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
export function deriveView(subscriptions: readonly Subscription[], asOfMs: number, merged: boolean): SubscriberView {
  if (merged) return { ...MERGED_VIEW };
  const lines = subscriptionLines(subscriptions, asOfMs);
  const entitled = lines.filter((line) => isEntitling(line.status));
  return {
    status: statusOf(lines),
    entitlements: entitlementsOf(entitled.map((line) => line.subscription)),
    flags: flagsOf(subscriptions),
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
function entitlementsOf(entitled: Subscription[]): Entitlement[] {
  const byId = new Map<string, { productId: string | null; untilMs: number }>();
  for (const sub of entitled) {
    const productId = sub.info?.productId ?? null;
    const untilMs = sub.accessUntilMs ?? NO_END_MS; // never null on an entitling subscription
    for (const id of sub.info?.entitlementIds ?? []) {
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
