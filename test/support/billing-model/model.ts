/**
 * The reference model: what the service must show for a world of histories (history.ts) at a point in time,
 * written from the provider's documentation (RevenueCat's event types, event flows and chart definitions,
 * /work/shared/docs/billing-provider.md), the effects table and the documented choices (docs/billing.md), and from nothing
 * in src/billing. It walks each subscription's story in time order as a customer would tell it ("I cancelled, so I
 * keep access until the period ends"; "my card failed, the store retried for a week"), with the product's own
 * period and price from the catalog, and never looks at an event. Where docs/billing.md chose differently from the
 * provider, the model follows docs/billing.md (its table "Where the service differs from the provider"):
 * - a TRANSFER makes the two customers one (union of ids and purchases), under the smallest id in code-unit order;
 * - the ids of a customer are those the provider named in its events by the horizon;
 * - MRR: production, not family-shared, paid (not a trial), renewing, entitled; the price paid for the current
 *   period, normalised by the product's period (×4 a week, ×1/3 a quarter, ×1/12 a year), in micro-dollars.
 */
import { LIFETIME, PER_MONTH, PROMO, type Product } from './catalog';
import type { CustomerHistory, Grant, PeriodType, SubscriptionHistory, World } from './history';

export type ExpectedStatus = 'active' | 'cancelled' | 'expired' | 'none';

export interface ExpectedCustomer {
  /** The canonical id: the smallest of the customer's ids. */
  id: string;
  /** Its other ids, sorted. */
  aliases: string[];
  status: ExpectedStatus;
  entitlements: { id: string; productId: string | null; expiresAtMs: number | null }[];
  /** Times of the billing issues in force, oldest first. */
  flagsSinceMs: number[];
  downgrade: { atMs: number; reason: string } | null;
  mrrMicros: number;
}

export interface ExpectedTotals {
  mrrMicros: number;
  activeSubscriptions: number;
  activeTrials: number;
  flaggedCustomers: number;
  scheduledDowngrades: number;
}

export interface Expectation {
  customers: ExpectedCustomer[];
  totals: ExpectedTotals;
}

/** One subscription (or grant) at a point in time. */
interface Standing {
  key: string;
  productId: string | null;
  entitlements: string[];
  /** Access until (exclusive); null: for good. Only meaningful while `entitled`. */
  accessEndMs: number | null;
  entitled: boolean;
  pending: { reason: string } | null;
  issueSinceMs: number | null;
  periodType: PeriodType | null;
  production: boolean;
  familyShare: boolean;
  /** Monthly-normalised price, micro-dollars; 0 when not counted. */
  mrrMicros: number;
  renewing: boolean;
  known: boolean;
}

export function expectWorld(world: World, asOfMs: number): Expectation {
  const groups = customerGroups(world);
  const customers = groups.map((group) => expectCustomer(world, group, asOfMs));
  const standings = groups.map((group) => group.flatMap((c) => standingsOf(c, world, asOfMs)));
  const totals: ExpectedTotals = {
    mrrMicros: customers.reduce((sum, c) => sum + c.mrrMicros, 0),
    activeSubscriptions: standings.flat().filter((s) => s.mrrMicros > 0).length,
    activeTrials: standings.flat().filter((s) => s.entitled && s.production && s.periodType === 'TRIAL').length,
    flaggedCustomers: customers.filter((c) => c.flagsSinceMs.length > 0).length,
    scheduledDowngrades: customers.filter((c) => c.downgrade !== null).length,
  };
  return { customers, totals };
}

/** Customers joined by a transfer, or sharing an id, are one customer (docs/billing.md: TRANSFER merges). */
function customerGroups(world: World): CustomerHistory[][] {
  const parent = world.customers.map((c) => c.index);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const c of world.customers) if (c.transfer) parent[find(c.index)] = find(c.transfer.to);
  const byRoot = new Map<number, CustomerHistory[]>();
  for (const c of world.customers) byRoot.set(find(c.index), [...(byRoot.get(find(c.index)) ?? []), c]);
  return [...byRoot.values()];
}

function expectCustomer(world: World, group: CustomerHistory[], asOfMs: number): ExpectedCustomer {
  const ids = [...new Set(group.flatMap((c) => knownIds(world, c)))].sort(byCodeUnits);
  const standings = group.flatMap((c) => standingsOf(c, world, asOfMs));
  const entitled = standings.filter((s) => s.entitled);
  const status: ExpectedStatus = entitled.some((s) => s.pending === null)
    ? 'active'
    : entitled.length > 0
      ? 'cancelled'
      : standings.some((s) => s.known)
        ? 'expired'
        : 'none';
  const pending = entitled
    .filter((s) => s.pending !== null)
    .map((s) => ({ atMs: s.accessEndMs!, reason: s.pending!.reason, key: s.key }))
    .sort((a, b) => a.atMs - b.atMs || byCodeUnits(a.key, b.key));
  return {
    id: ids[0]!,
    aliases: ids.slice(1),
    status,
    entitlements: entitlementsOf(entitled),
    flagsSinceMs: entitled.flatMap((s) => (s.issueSinceMs === null ? [] : [s.issueSinceMs])).sort((a, b) => a - b),
    downgrade: pending[0] ? { atMs: pending[0].atMs, reason: pending[0].reason } : null,
    mrrMicros: standings.reduce((sum, s) => sum + s.mrrMicros, 0),
  };
}

/**
 * An entitlement lasts as long as the longest entitled subscription that grants it, and names that
 * subscription's product (ties: the smaller product id).
 */
function entitlementsOf(entitled: Standing[]): ExpectedCustomer['entitlements'] {
  const best = new Map<string, { productId: string | null; until: number }>();
  for (const s of entitled) {
    const until = s.accessEndMs ?? Number.MAX_SAFE_INTEGER;
    for (const id of s.entitlements) {
      const known = best.get(id);
      if (!known || until > known.until || (until === known.until && byCodeUnits(s.productId ?? '', known.productId ?? '') < 0))
        best.set(id, { productId: s.productId, until });
    }
  }
  return [...best]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([id, { productId, until }]) => ({ id, productId, expiresAtMs: until === Number.MAX_SAFE_INTEGER ? null : until }));
}

/**
 * The ids the provider named for this customer by the horizon: the anonymous id (or the user id, when logged in
 * from the start), and the user id once an event after the login named it (RevenueCat: `aliases` lists "all app
 * user ids ever used"; its events name the current app_user_id).
 */
export function knownIds(world: World, c: CustomerHistory): string[] {
  if (c.identified) return [c.userId];
  const login = c.login;
  if (login === null || login.at > world.horizonMs) return [c.anonymousId];
  const named = login.style !== 'silent' || activityTimes(world, c).some((t) => t >= login.at && t <= world.horizonMs);
  return named ? [c.anonymousId, c.userId] : [c.anonymousId];
}

/** When an event names this customer: its own subscriptions' moments (until they move away), grants, enrollments, transfers. */
function activityTimes(world: World, c: CustomerHistory): number[] {
  const times: number[] = [...c.enrollments, ...c.grants.map((g) => g.at)];
  for (const other of world.customers) {
    for (const sub of other.subscriptions) {
      for (const p of sub.phases) if (ownerAt(other, p.at) === c.index) times.push(p.at);
    }
    if (other.transfer && (other.index === c.index || other.transfer.to === c.index)) times.push(other.transfer.at);
  }
  for (const g of c.grants) if (g.kind !== 'lifetime') times.push(g.end);
  return times;
}

/** Whose purchases a subscription's moment at `at` is told under (a transfer moves them). */
export function ownerAt(c: CustomerHistory, at: number): number {
  return c.transfer && at >= c.transfer.at ? c.transfer.to : c.index;
}

function standingsOf(c: CustomerHistory, world: World, asOfMs: number): Standing[] {
  const production = !c.sandbox;
  return [
    ...c.subscriptions.map((s) => subscriptionAt(s, production, asOfMs)),
    ...c.grants.flatMap((g) => grantAt(g, production, world.horizonMs, asOfMs)),
  ];
}

/** Walks a subscription's story up to `asOfMs`, as the customer lived it. */
function subscriptionAt(sub: SubscriptionHistory, production: boolean, asOfMs: number): Standing {
  let product: Product | null = null;
  let usd = 0;
  let periodType: PeriodType | null = null;
  let accessEnd = 0;
  let pending: { reason: string } | null = null;
  let refunded = false;
  let issueSince: number | null = null;
  for (const phase of sub.phases) {
    if (phase.at > asOfMs) break;
    switch (phase.kind) {
      case 'period':
        // Paid (or a trial begun): this product, at this price, until the period ends; any billing problem is over.
        product = phase.product;
        usd = phase.usd;
        periodType = phase.periodType;
        accessEnd = phase.end;
        pending = null;
        refunded = false;
        issueSince = null;
        break;
      case 'cancel':
        pending = { reason: 'CANCELLATION' };
        break;
      case 'uncancel':
        pending = null;
        break;
      case 'pause':
        pending = { reason: 'SUBSCRIPTION_PAUSED' };
        break;
      case 'billingIssue':
        issueSince = phase.at;
        // With a grace period the store keeps retrying and the customer keeps access until it ends; the provider
        // schedules that end (a CANCELLATION, reason BILLING_ERROR). Without one, access ended with the period.
        if (phase.graceEnd !== null) {
          accessEnd = Math.max(accessEnd, phase.graceEnd);
          pending = { reason: 'CANCELLATION' };
        }
        break;
      case 'expire':
        accessEnd = Math.min(accessEnd, phase.end);
        break;
      case 'refund':
        refunded = true;
        break;
      case 'refundReversed':
        refunded = false;
        break;
      case 'extend':
        accessEnd = Math.max(accessEnd, phase.end);
        break;
      case 'deferredChange':
        break;
    }
  }
  const entitled = product !== null && !refunded && asOfMs < accessEnd;
  const counted = entitled && production && !sub.familyShare && periodType !== 'TRIAL' && usd > 0;
  return {
    key: sub.key,
    productId: product?.id ?? null,
    entitlements: product?.entitlements ?? [],
    accessEndMs: accessEnd,
    entitled,
    pending: entitled ? pending : null,
    issueSinceMs: entitled ? issueSince : null,
    periodType,
    production,
    familyShare: sub.familyShare,
    mrrMicros: counted && product ? monthlyMicros(usd, product) : 0,
    renewing: true,
    known: product !== null,
  };
}

/** docs/billing.md's normalisation, in integer micro-dollars. */
export function monthlyMicros(usd: number, product: Product): number {
  const [numerator, denominator] = PER_MONTH[product.period];
  return Math.round((Math.round(usd * 1_000_000) * numerator) / denominator);
}

/** One-time purchases and grants: entitle (for good, or until their end), never MRR. */
function grantAt(grant: Grant, production: boolean, horizonMs: number, asOfMs: number): Standing[] {
  if (grant.at > horizonMs) return [];
  const base = {
    key: grant.key,
    pending: null,
    issueSinceMs: null,
    periodType: null,
    production,
    familyShare: false,
    mrrMicros: 0,
    renewing: false,
    known: true,
  };
  switch (grant.kind) {
    case 'lifetime':
      return [{ ...base, productId: LIFETIME.id, entitlements: LIFETIME.entitlements, accessEndMs: null, entitled: true }];
    case 'promo':
      return [{ ...base, productId: PROMO.id, entitlements: PROMO.entitlements, accessEndMs: grant.end, entitled: asOfMs < grant.end }];
    case 'temporary':
      // The provider's stand-in while the store is out: entitles until its end, whether or not the purchase is confirmed.
      return [{ ...base, productId: 'com.acme.pro.monthly', entitlements: ['pro'], accessEndMs: grant.end, entitled: asOfMs < grant.end }];
  }
}

export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
