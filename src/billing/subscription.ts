/**
 * One subscription's facts, kept so that merging them is commutative, associative and idempotent: every field
 * is a maximum, a newest-wins register with a total order, or a set pruned by rules that only ever remove
 * entries for good. Applying events in any order, any number of times, therefore gives the same record, and
 * merging two subscriber records is the same operation. Pure; JSON-serialisable.
 */
import { CURRENT_RULES, EFFECT_EVENT_TYPES, isRefund, type BillingEvent, type RuleSet } from './provider-events';

/** Stands for "no end" (a purchase with a null expiration) where a number is needed to compare. */
export const NO_END_MS = Number.MAX_SAFE_INTEGER;

export interface EventStamp {
  id: string;
  type: string;
  /** event_timestamp_ms (0 when the provider sent none: such an event is older than any other). */
  atMs: number;
}

/** A CANCELLATION, EXPIRATION or refund, as far as ordering and display need it. */
export interface Ending extends EventStamp {
  /** expiration_at_ms, or the event's own time when it has none. */
  endsAtMs: number;
  /** cancel_reason or expiration_reason */
  reason: string | null;
}

/** The descriptive facts of the most recent period, taken from the most authoritative event about it. */
export interface SubscriptionInfo {
  productId: string | null;
  entitlementIds: string[];
  periodType: string | null;
  purchasedAtMs: number | null;
  expirationAtMs: number | null;
  priceUsd: number | null;
  store: string | null;
  environment: string | null;
  isFamilyShare: boolean;
  /** A one-time purchase (NON_RENEWING_PURCHASE): it entitles, and adds no MRR. */
  nonRenewing?: true;
  source: EventStamp & { rank: number };
}

export interface Subscription {
  /** original_transaction_id, else `product:{product_id}`. */
  key: string;
  info: SubscriptionInfo | null;
  /** End of the furthest period an event granted (NO_END_MS: no end); null: nothing granted access. */
  accessUntilMs: number | null;
  /** Newest INITIAL_PURCHASE, RENEWAL or UNCANCELLATION, by event time. */
  renewedAtMs: number | null;
  /** Furthest period end those events paid for (NO_END_MS: no end). */
  renewedUntilMs: number | null;
  /** Newest purchased_at_ms of an INITIAL_PURCHASE or RENEWAL: a refund issued before it is history. */
  repurchasedAtMs: number | null;
  /** Newest RENEWAL by event time: it clears a billing issue flagged before it. */
  lastRenewalAtMs: number | null;
  /**
   * The cancellations and expirations still in force: none is superseded by a renewal that is newer or pays
   * for a later period. Only the Pareto-maximal ones by (atMs, endsAtMs), newest first.
   */
  endings: Ending[];
  /** The newest refund still in force (no purchase after it). */
  refund: Ending | null;
  /** The newest BILLING_ISSUE still in force (no RENEWAL after it). */
  billingIssue: EventStamp | null;
  /** Newest REFUND_REVERSED by event time: a refund issued before it no longer counts. Absent until one arrives. */
  refundReversedAtMs?: number;
  /**
   * The newest INITIAL_PURCHASE, RENEWAL or NON_RENEWING_PURCHASE by event time (rules v3; absent on facts recorded
   * before): what was bought last, so its product, entitlements and price describe the period. Other events
   * describe the same period too, but a cancellation in a grace period states a price of 0 and a later end, and a
   * Stripe RENEWAL that carries an immediate upgrade restates the subscription's first purchase time: neither may
   * replace the product and price paid (see `currentInfo`).
   */
  paid?: SubscriptionInfo;
}

export type SubscriptionStatus = 'active' | 'cancelled' | 'expired' | 'refunded';

// The effect types that speak about one subscription; aliases and transfers speak about records.
const SUBSCRIPTION_EVENT_TYPES = new Set<string>(EFFECT_EVENT_TYPES.filter((t) => t !== 'SUBSCRIBER_ALIAS' && t !== 'TRANSFER'));

// Which event's description of a period wins when several describe the same one: a purchase or renewal
// states the price paid; a cancellation or expiration may carry 0; a refund carries a negative price. An
// extension, a temporary grant or a refund reversal only fills in what nothing else described (`fallbackInfo`).
const INFO_RANK = { purchase: 3, lifecycle: 2, incidental: 1, fallback: 0 } as const;

export function subscriptionKeyOf(event: BillingEvent): string | null {
  if (event.original_transaction_id) return event.original_transaction_id;
  return event.product_id ? `product:${event.product_id}` : null;
}

export function stampOf(event: BillingEvent): EventStamp {
  return { id: event.id, type: event.type, atMs: event.event_timestamp_ms ?? 0 };
}

/** The facts one event contributes, or null for an event about no subscription. */
export function subscriptionFromEvent(event: BillingEvent, rules: RuleSet = CURRENT_RULES): Subscription | null {
  const key = subscriptionKeyOf(event);
  if (key === null || !SUBSCRIPTION_EVENT_TYPES.has(event.type)) return null;
  if (event.type === 'SUBSCRIPTION_PAUSED' && rules !== 'v3') return null;
  const stamp = stampOf(event);
  const expiration = event.expiration_at_ms ?? null;
  const ending: Ending = { ...stamp, endsAtMs: expiration ?? stamp.atMs, reason: endingReason(event) };
  const facts: Subscription = {
    key,
    info: null,
    accessUntilMs: null,
    renewedAtMs: null,
    renewedUntilMs: null,
    repurchasedAtMs: null,
    lastRenewalAtMs: null,
    endings: [],
    refund: null,
    billingIssue: null,
  };
  switch (event.type) {
    case 'INITIAL_PURCHASE':
    case 'RENEWAL':
      facts.info = infoOf(event, INFO_RANK.purchase);
      facts.accessUntilMs = expiration ?? NO_END_MS;
      facts.renewedAtMs = stamp.atMs;
      facts.renewedUntilMs = expiration ?? NO_END_MS;
      facts.repurchasedAtMs = event.purchased_at_ms ?? stamp.atMs;
      if (event.type === 'RENEWAL') facts.lastRenewalAtMs = stamp.atMs;
      if (rules === 'v3') facts.paid = facts.info;
      break;
    case 'UNCANCELLATION':
      facts.info = infoOf(event, INFO_RANK.lifecycle);
      facts.accessUntilMs = expiration;
      facts.renewedAtMs = stamp.atMs;
      facts.renewedUntilMs = expiration;
      break;
    case 'CANCELLATION':
    case 'EXPIRATION':
      if (isRefund(event)) {
        facts.info = infoOf(event, INFO_RANK.incidental);
        facts.refund = ending;
      } else {
        facts.info = infoOf(event, INFO_RANK.lifecycle);
        facts.accessUntilMs = expiration;
        facts.endings = [ending];
      }
      break;
    case 'SUBSCRIPTION_PAUSED':
      // Google Play: billing stops at the period end and access with it (the EXPIRATION with reason
      // SUBSCRIPTION_PAUSED follows then); until then the customer keeps access, with the downgrade scheduled.
      facts.info = infoOf(event, INFO_RANK.lifecycle);
      facts.accessUntilMs = expiration;
      facts.endings = [{ ...ending, reason: 'SUBSCRIPTION_PAUSED' }];
      break;
    case 'BILLING_ISSUE':
      facts.info = infoOf(event, INFO_RANK.incidental);
      facts.billingIssue = stamp;
      break;
    case 'NON_RENEWING_PURCHASE':
      // A one-time unlock, or access granted from the provider's dashboard (store PROMOTIONAL): entitles until
      // its expiration, for good when it has none, and adds no MRR.
      facts.info = { ...infoOf(event, INFO_RANK.purchase), nonRenewing: true };
      facts.accessUntilMs = expiration ?? NO_END_MS;
      facts.repurchasedAtMs = event.purchased_at_ms ?? stamp.atMs;
      if (rules === 'v3') facts.paid = facts.info;
      break;
    case 'SUBSCRIPTION_EXTENDED':
      // The store pushed the period's end back (a goodwill extension, a store outage): access lasts to the new
      // end, and a cancelled subscription's downgrade moves with it. What was paid, and so MRR, is unchanged.
      if (expiration === null) return null;
      facts.info = fallbackInfo(event);
      facts.accessUntilMs = expiration;
      break;
    case 'TEMPORARY_ENTITLEMENT_GRANT':
      // Access the provider grants while a store cannot confirm a purchase: the entitlements it names, until its
      // expiration. One with no expiration or no entitlement would grant for good or grant nothing: recorded only.
      if (expiration === null || (event.entitlement_ids ?? (event.entitlement_id ? [event.entitlement_id] : [])).length === 0) return null;
      facts.info = fallbackInfo(event);
      facts.accessUntilMs = expiration;
      break;
    case 'REFUND_REVERSED':
      // The refund was undone (a dispute won): access and MRR come back as the period stood.
      facts.info = fallbackInfo(event);
      facts.accessUntilMs = expiration;
      facts.refundReversedAtMs = stamp.atMs;
      break;
  }
  return facts;
}

/** The least upper bound of two records of the same subscription. */
export function joinSubscriptions(a: Subscription, b: Subscription): Subscription {
  return prune({
    key: a.key,
    info: preferredInfo(a.info, b.info),
    accessUntilMs: maxOrNull(a.accessUntilMs, b.accessUntilMs),
    renewedAtMs: maxOrNull(a.renewedAtMs, b.renewedAtMs),
    renewedUntilMs: maxOrNull(a.renewedUntilMs, b.renewedUntilMs),
    repurchasedAtMs: maxOrNull(a.repurchasedAtMs, b.repurchasedAtMs),
    lastRenewalAtMs: maxOrNull(a.lastRenewalAtMs, b.lastRenewalAtMs),
    endings: [...a.endings, ...b.endings],
    refund: newerStamp(a.refund, b.refund),
    billingIssue: newerStamp(a.billingIssue, b.billingIssue),
    ...optionalMax('refundReversedAtMs', a.refundReversedAtMs, b.refundReversedAtMs),
    ...newerPaid(a.paid, b.paid),
  });
}

// Newest by event time, then the later period end, then the larger event id: a total order. Set only when one
// side has it, like optionalMax.
function newerPaid(a: SubscriptionInfo | undefined, b: SubscriptionInfo | undefined): { paid?: SubscriptionInfo } {
  if (a === undefined || b === undefined) {
    const one = a ?? b;
    return one === undefined ? {} : { paid: one };
  }
  const order = (i: SubscriptionInfo) => [i.source.atMs, i.expirationAtMs ?? Number.MAX_SAFE_INTEGER];
  const [x, y] = [order(a), order(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return { paid: x[i]! > y[i]! ? a : b };
  return { paid: compareCodeUnits(a.source.id, b.source.id) >= 0 ? a : b };
}

/**
 * What describes the subscription's current period: under rules v3 the newest purchase or renewal (`paid`), its
 * length measured from the latest period start any purchase or renewal of the subscription stated (a Stripe RENEWAL
 * carrying an immediate upgrade states the first purchase's time, so its own span covers several periods);
 * before v3, or with nothing bought, the most authoritative description (`info`).
 */
export function currentInfo(sub: Subscription, rules: RuleSet): SubscriptionInfo | null {
  if (rules !== 'v3' || sub.paid === undefined) return sub.info;
  const paid = sub.paid;
  const start = sub.repurchasedAtMs;
  const restated =
    start !== null &&
    paid.purchasedAtMs !== null &&
    paid.expirationAtMs !== null &&
    start > paid.purchasedAtMs &&
    start < paid.expirationAtMs;
  return restated ? { ...paid, purchasedAtMs: start } : paid;
}

/**
 * Rules v3: the subscription's BILLING_ISSUE still stands as a fact: nothing was bought (a renewal, a purchase)
 * after it. Whether it is shown also depends on the subscription still being entitled (subscriber-view.ts).
 */
export function billingIssueStands(sub: Subscription): boolean {
  if (sub.billingIssue === null) return false;
  return sub.paid === undefined || sub.billingIssue.atMs > sub.paid.source.atMs;
}

// Set only when one side has it, so records that never saw the event stay as they were stored.
function optionalMax<K extends string>(key: K, a: number | undefined, b: number | undefined): Partial<Record<K, number>> {
  const max = maxOrNull(a ?? null, b ?? null);
  return max === null ? {} : ({ [key]: max } as Record<K, number>);
}

/** Joins two lists of subscriptions by key; the result is sorted by key, so equal contents compare equal. */
export function joinSubscriptionLists(a: readonly Subscription[], b: readonly Subscription[]): Subscription[] {
  const byKey = new Map<string, Subscription>();
  for (const sub of [...a, ...b]) {
    const known = byKey.get(sub.key);
    byKey.set(sub.key, known ? joinSubscriptions(known, sub) : sub);
  }
  return [...byKey.values()].sort((x, y) => compareCodeUnits(x.key, y.key));
}

/**
 * At `asOfMs`: refunded (access revoked at once), expired (the paid period is over; a cancelled one's
 * downgrade is then due), cancelled (entitled, a downgrade is scheduled at the period end) or active.
 */
export function subscriptionStatus(sub: Subscription, asOfMs: number): SubscriptionStatus {
  if (sub.refund !== null) return 'refunded';
  if (sub.accessUntilMs === null || asOfMs >= sub.accessUntilMs) return 'expired';
  return sub.endings.length > 0 ? 'cancelled' : 'active';
}

export function isEntitling(status: SubscriptionStatus): boolean {
  return status === 'active' || status === 'cancelled';
}

/** Newest by event time, then id: a total order, so the choice never depends on arrival order. */
export function newerStamp<T extends EventStamp>(a: T | null, b: T | null): T | null {
  if (a === null) return b;
  if (b === null) return a;
  if (a.atMs !== b.atMs) return a.atMs > b.atMs ? a : b;
  return compareCodeUnits(a.id, b.id) >= 0 ? a : b;
}

/**
 * Orders ids by UTF-16 code units: a total order that never changes, because it decides which record stays
 * canonical in a merge and the order of ids in stored state (src/skills/text.ts's compareText orders for readers).
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Removes what can never matter again. The renewal marks only grow, so whatever they supersede stays
// superseded, which is what makes pruning safe in any order.
function prune(sub: Subscription): Subscription {
  const renewedAt = sub.renewedAtMs ?? -Infinity;
  const renewedUntil = sub.renewedUntilMs ?? -Infinity;
  // A renewal supersedes an ending if it is newer, or if it pays beyond the period the ending closes.
  // Ties keep the ending: a stale RENEWAL of the very period being cancelled must not undo the cancellation.
  const inForce = sub.endings.filter((e) => e.atMs >= renewedAt && e.endsAtMs >= renewedUntil);
  const refundInForce =
    sub.refund !== null && sub.refund.atMs >= (sub.repurchasedAtMs ?? -Infinity) && sub.refund.atMs > (sub.refundReversedAtMs ?? -Infinity);
  const issueInForce = sub.billingIssue !== null && sub.billingIssue.atMs > (sub.lastRenewalAtMs ?? -Infinity);
  return {
    ...sub,
    endings: paretoFrontier(inForce),
    refund: refundInForce ? sub.refund : null,
    billingIssue: issueInForce ? sub.billingIssue : null,
  };
}

// An ending dominated in both time and period end is in force only when the dominating one is, and never
// decides anything the dominating one does not, so dropping it keeps the record small and canonical.
function paretoFrontier(endings: Ending[]): Ending[] {
  const sorted = [...endings].sort((x, y) => y.atMs - x.atMs || y.endsAtMs - x.endsAtMs || compareCodeUnits(y.id, x.id));
  const kept: Ending[] = [];
  for (const ending of sorted) {
    if (kept.every((k) => ending.endsAtMs > k.endsAtMs)) kept.push(ending);
  }
  return kept;
}

function preferredInfo(a: SubscriptionInfo | null, b: SubscriptionInfo | null): SubscriptionInfo | null {
  if (a === null) return b;
  if (b === null) return a;
  const order = (i: SubscriptionInfo) => [i.expirationAtMs ?? -1, i.source.rank, i.purchasedAtMs ?? -1, i.source.atMs];
  const [x, y] = [order(a), order(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i] ? a : b;
  return compareCodeUnits(a.source.id, b.source.id) >= 0 ? a : b;
}

function infoOf(event: BillingEvent, rank: number): SubscriptionInfo {
  const entitlementIds = event.entitlement_ids ?? (event.entitlement_id ? [event.entitlement_id] : []);
  return {
    productId: event.product_id ?? null,
    entitlementIds: [...new Set(entitlementIds)].sort(compareCodeUnits),
    periodType: event.period_type ?? null,
    purchasedAtMs: event.purchased_at_ms ?? null,
    expirationAtMs: event.expiration_at_ms ?? null,
    priceUsd: event.price ?? null,
    store: event.store ?? null,
    environment: event.environment ?? null,
    isFamilyShare: event.is_family_share === true,
    source: { ...stampOf(event), rank },
  };
}

// A description that loses to any other (lowest rank, no period end of its own), and states no period, so it
// never decides MRR: it only names the product and entitlements when nothing else has.
function fallbackInfo(event: BillingEvent): SubscriptionInfo {
  return { ...infoOf(event, INFO_RANK.fallback), expirationAtMs: null };
}

function endingReason(event: BillingEvent): string | null {
  return (event.type === 'EXPIRATION' ? event.expiration_reason : event.cancel_reason) ?? null;
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
