/**
 * Subscription histories as the provider's customers live them, drawn from a list of numbers: what each customer
 * bought, in which store, and what happened at each period (renewals early and late, cancellations, billing
 * issues with and without a grace period, refunds, pauses, product changes, extensions, win-backs), their logins
 * and transfers, grants and sandbox testers. A history says what happened, not which events describe it
 * (render.ts) nor what the service must show (model.ts). The numbers come from fast-check (arbitrary.ts), so a
 * failing history shrinks: a smaller number picks the plainer branch, and running out of numbers picks it too.
 */
import {
  CURRENCIES,
  DAY,
  HOUR,
  LIFETIME,
  MINUTE,
  PERIOD_MS,
  PROMO,
  SUBSCRIPTION_STORES,
  otherTier,
  productById,
  productsOf,
  type Currency,
  type Product,
  type Store,
} from './catalog';

/** Draws from a list of numbers; 0 (the plainest choice) once the list runs out. */
export class Choices {
  private next = 0;
  constructor(private readonly values: readonly number[]) {}
  int(n: number): number {
    return n <= 1 ? 0 : (this.values[this.next++] ?? 0) % n;
  }
  chance(percent: number): boolean {
    return this.int(100) >= 100 - percent;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** A time in [from, to), in whole minutes. */
  between(from: number, to: number): number {
    const minutes = Math.floor((to - from) / MINUTE);
    return from + (minutes > 0 ? this.int(minutes) : 0) * MINUTE;
  }
}

export type PeriodType = 'NORMAL' | 'TRIAL' | 'INTRO';

export type Phase =
  /** A period paid (or a trial begun): what the store charged, for which product, from when to when. */
  | {
      kind: 'period';
      at: number;
      start: number;
      end: number;
      /** purchased_at_ms as the provider states it: Stripe's immediate upgrade restates the first purchase. */
      statedStart: number;
      product: Product;
      usd: number;
      periodType: PeriodType;
      event: 'INITIAL_PURCHASE' | 'RENEWAL';
      conversion: boolean;
      /** An immediate product change from this product. */
      changedFrom?: Product;
    }
  | { kind: 'cancel'; at: number; reason: 'UNSUBSCRIBE' | 'PRICE_INCREASE' }
  | { kind: 'uncancel'; at: number }
  /** The renewal failed; with a grace period access lasts to `graceEnd`. */
  | { kind: 'billingIssue'; at: number; periodEnd: number; graceEnd: number | null }
  /** Access ended at `end` (the provider says so at `at`). */
  | { kind: 'expire'; at: number; end: number; reason: 'UNSUBSCRIBE' | 'BILLING_ERROR' | 'SUBSCRIPTION_PAUSED' }
  | { kind: 'refund'; at: number }
  | { kind: 'refundReversed'; at: number }
  /** Google Play: billing pauses at the period end, to resume at `resumeAt`. */
  | { kind: 'pause'; at: number; resumeAt: number }
  | { kind: 'extend'; at: number; end: number }
  /** A change at the period end (deferred); an immediate one is a `period` phase with `changedFrom`. */
  | { kind: 'deferredChange'; at: number; to: Product };

export type PeriodPhase = Extract<Phase, { kind: 'period' }>;

export interface SubscriptionHistory {
  key: string;
  store: Store;
  familyShare: boolean;
  /** In time order. */
  phases: Phase[];
}

export type Grant =
  | { kind: 'lifetime'; key: string; at: number }
  | { kind: 'promo'; key: string; at: number; end: number }
  /** A temporary entitlement while a store could not confirm a purchase; then the purchase, or its expiration. */
  | { kind: 'temporary'; key: string; at: number; end: number; validated: boolean };

export interface Login {
  at: number;
  /** How the provider tells: SUBSCRIBER_ALIAS, an EXPERIMENT_ENROLLMENT naming both ids, or only the next event. */
  style: 'alias' | 'enrollment' | 'silent';
}

export interface CustomerHistory {
  index: number;
  anonymousId: string;
  userId: string;
  /** Logged in before the first purchase: every event names the user id only. */
  identified: boolean;
  login: Login | null;
  sandbox: boolean;
  money: Currency;
  subscriptions: SubscriptionHistory[];
  grants: Grant[];
  enrollments: number[];
  /** This customer's purchases move to another customer (restored on that account). */
  transfer: { to: number; at: number } | null;
}

export interface World {
  /** Nothing happens after this: the provider's events all lie before it. */
  horizonMs: number;
  customers: CustomerHistory[];
  /** TEST events sent from the provider's dashboard. */
  tests: number[];
}

export interface WorldDraws {
  customers: { traits: number[]; steps: number[] }[];
  world: number[];
}

/** A world of customers whose stories start in the `windowDays` before `horizonMs`. */
export function drawWorld(draws: WorldDraws, horizonMs: number, opts: { windowDays?: number; idPrefix?: string } = {}): World {
  const windowMs = (opts.windowDays ?? 45) * DAY;
  const prefix = opts.idPrefix ?? '';
  const customers = draws.customers.map((d, index) =>
    drawCustomer(new Choices(d.traits), new Choices(d.steps), index, prefix, horizonMs - windowMs, horizonMs),
  );
  const w = new Choices(draws.world);
  // Transfers: a customer restores purchases on another account of the same environment, at most one each way.
  const taken = new Set<number>();
  for (const from of customers) {
    if (!w.chance(6) || from.index === 0 || taken.has(from.index)) continue;
    const to = customers[w.int(from.index)]!;
    if (to.sandbox !== from.sandbox || taken.has(to.index)) continue;
    const at = w.between(horizonMs - windowMs / 2, horizonMs);
    from.transfer = { to: to.index, at };
    taken.add(from.index).add(to.index);
  }
  const tests = [w.between(horizonMs - windowMs, horizonMs)];
  return { horizonMs, customers, tests };
}

function drawCustomer(t: Choices, s: Choices, index: number, prefix: string, from: number, horizon: number): CustomerHistory {
  const hex = (index * 2654435761 + 0x9e3779b9).toString(16).padStart(8, '0').slice(-8);
  const customer: CustomerHistory = {
    index,
    anonymousId: `$RCAnonymousID:${prefix}${hex}${index.toString(16).padStart(4, '0')}`,
    userId: t.pick([`${prefix}user_${index}`, `${prefix}u${index}@example.com`, `${prefix}Customer-${index}`]),
    identified: t.chance(25),
    login: null,
    sandbox: t.chance(5),
    money: t.pick(CURRENCIES),
    subscriptions: [],
    grants: [],
    enrollments: [],
    transfer: null,
  };
  const start = t.between(from, horizon - HOUR);
  const kind = t.int(100);
  const key = (n: number) => `${prefix}${1_000_000 + index * 10 + n}`;
  if (kind < 76) {
    const store = t.pick(SUBSCRIPTION_STORES);
    customer.subscriptions.push(drawSubscription(s, store, key(0), start, horizon, store === 'APP_STORE' && t.chance(8)));
    if (t.chance(8)) {
      const second = t.pick(SUBSCRIPTION_STORES);
      customer.subscriptions.push(drawSubscription(s, second, key(1), t.between(start, horizon - HOUR), horizon, false));
    }
  } else if (kind < 81) {
    customer.grants.push({ kind: 'lifetime', key: key(2), at: start });
  } else if (kind < 86) {
    customer.grants.push({ kind: 'promo', key: key(3), at: start, end: start + PROMO.lengthMs });
  } else if (kind < 92) {
    const end = start + t.between(2 * HOUR, 24 * HOUR);
    const validated = t.chance(60);
    customer.grants.push({ kind: 'temporary', key: `${prefix}tmp_${index}`, at: start, end, validated });
    const confirmedAt = t.between(start + MINUTE, end);
    if (validated && confirmedAt <= horizon) {
      const product = productById('com.acme.pro.monthly');
      customer.subscriptions.push(drawSubscription(s, 'APP_STORE', key(4), confirmedAt, horizon, false, product));
    }
  }
  // else: a customer who never bought (an experiment, a login).
  if (!customer.identified && t.chance(45)) {
    const at = t.between(start, horizon);
    customer.login = { at, style: t.pick(['alias', 'enrollment', 'silent'] as const) };
  }
  if (t.chance(10) || customer.subscriptions.length + customer.grants.length === 0) customer.enrollments.push(t.between(from, horizon));
  return customer;
}

/**
 * One subscription from its first purchase to the horizon. Each period: maybe something happens inside it (a
 * cancellation, a pause, a product change, an extension, a refund), then at its end a renewal (on time, early or
 * late), a billing issue, or its expiration.
 */
function drawSubscription(
  s: Choices,
  store: Store,
  key: string,
  start: number,
  horizon: number,
  familyShare: boolean,
  fixedProduct?: Product,
): SubscriptionHistory {
  const phases: Phase[] = [];
  const add = (p: Phase) => {
    if (p.at <= horizon) phases.push(p);
    return p.at <= horizon;
  };
  let product = fixedProduct ?? s.pick(productsOf(store));
  const trial = (store === 'APP_STORE' || store === 'PLAY_STORE') && product.period !== 'P1W' && !fixedProduct && s.chance(25);
  const intro = !trial && product.introUsd !== undefined && s.chance(30);
  let periodStart = start;
  let end = start + (trial ? s.pick([3, 7, 14]) * DAY : PERIOD_MS[product.period]);
  add({
    kind: 'period',
    at: start,
    start,
    end,
    statedStart: start,
    product,
    usd: trial ? 0 : intro ? product.introUsd! : product.usd,
    periodType: trial ? 'TRIAL' : intro ? 'INTRO' : 'NORMAL',
    event: 'INITIAL_PURCHASE',
    conversion: false,
  });
  let inTrial = trial;
  let nextProduct: Product | null = null;
  const len = () => PERIOD_MS[product.period];
  const renewal = (at: number, from: number, to: number, conversion = false): PeriodPhase => ({
    kind: 'period',
    at,
    start: from,
    end: to,
    statedStart: from,
    product,
    usd: product.usd,
    periodType: 'NORMAL',
    event: 'RENEWAL',
    conversion,
  });

  for (let guard = 0; guard < 80 && periodStart <= horizon; guard++) {
    let cancelled = false;
    let paused: number | null = null;
    let refunded = false;
    let renewsAfterRefund = false;
    const mid = s.between(periodStart + HOUR, end - HOUR);
    const what = s.int(100);
    if (what >= 45 && what < 60) {
      cancelled = add({ kind: 'cancel', at: mid, reason: s.chance(20) ? 'PRICE_INCREASE' : 'UNSUBSCRIBE' });
      if (cancelled && s.chance(30) && add({ kind: 'uncancel', at: s.between(mid + MINUTE, end - MINUTE) })) cancelled = false;
    } else if (what >= 60 && what < 67 && store === 'PLAY_STORE' && !inTrial) {
      const resumeAt = end + s.pick([7, 14, 30]) * DAY;
      if (add({ kind: 'pause', at: mid, resumeAt })) paused = resumeAt;
    } else if (what >= 67 && what < 75 && product.tier === 'basic' && !inTrial && otherTier(product)) {
      const to = otherTier(product)!;
      // Immediate: App Store and Play Store start a new period now; Stripe and Web Billing keep the cycle (same interval).
      const keepsCycle = store === 'STRIPE' || store === 'RC_BILLING';
      const from = keepsCycle ? periodStart : mid;
      const until = keepsCycle ? end : mid + PERIOD_MS[to.period];
      const upgrade: Phase = {
        kind: 'period',
        at: mid,
        start: from,
        end: until,
        statedStart: keepsCycle ? start : mid,
        product: to,
        usd: to.usd,
        periodType: 'NORMAL',
        event: store === 'PLAY_STORE' ? 'INITIAL_PURCHASE' : 'RENEWAL',
        conversion: false,
        changedFrom: product,
      };
      if (add(upgrade)) {
        product = to;
        periodStart = from;
        end = until;
      }
    } else if (what >= 75 && what < 80 && product.tier === 'pro' && !inTrial && otherTier(product)) {
      if (add({ kind: 'deferredChange', at: mid, to: otherTier(product)! })) nextProduct = otherTier(product);
    } else if (what >= 80 && what < 86 && (store === 'APP_STORE' || store === 'PLAY_STORE') && !inTrial) {
      const longer = end + s.pick([3, 7, 14]) * DAY;
      if (add({ kind: 'extend', at: mid, end: longer })) end = longer;
    } else if (what >= 86 && what < 92 && !inTrial) {
      refunded = add({ kind: 'refund', at: mid });
      if (refunded && store === 'APP_STORE' && s.chance(40) && add({ kind: 'refundReversed', at: s.between(mid + HOUR, mid + 3 * DAY) }))
        refunded = false;
      // A refund need not turn auto-renewal off: the next period may still be charged.
      renewsAfterRefund = refunded && s.chance(50);
    }
    if (end > horizon) break;

    const lapse = (reason: 'UNSUBSCRIBE' | 'BILLING_ERROR' | 'SUBSCRIPTION_PAUSED', until: number) =>
      add({ kind: 'expire', at: until + s.int(60) * MINUTE, end: until, reason });
    const winBack = (after: number): boolean => {
      if (!s.chance(15)) return false;
      const at = after + s.pick([2, 5, 20]) * DAY;
      if (nextProduct) [product, nextProduct] = [nextProduct, null];
      const bought = add({ ...renewal(at, at, at + len()), event: 'INITIAL_PURCHASE' });
      if (bought) [periodStart, end] = [at, at + len()];
      return bought;
    };
    if (cancelled || paused !== null || (refunded && !renewsAfterRefund)) {
      lapse(paused !== null ? 'SUBSCRIPTION_PAUSED' : 'UNSUBSCRIBE', end);
      if (paused !== null && s.int(10) < 7) {
        if (!add(renewal(paused, paused, paused + len()))) break;
        [periodStart, end] = [paused, paused + len()];
      } else if (!winBack(end)) break;
      inTrial = false;
      continue;
    }
    if (nextProduct) [product, nextProduct] = [nextProduct, null];
    const outcome = s.int(100);
    if (outcome < 75) {
      // On time; early (the store charges up to a day before, and the next period follows on); late (access lapses
      // until the charge, and the new period starts then).
      const timing = s.int(10);
      const early = end - s.pick([1, 6, 23]) * HOUR;
      const late = end + s.pick([1, 12, 36]) * HOUR;
      const phase =
        timing < 6
          ? renewal(end, end, end + len(), inTrial)
          : timing < 8
            ? renewal(early, early, end + len(), inTrial)
            : renewal(late, late, late + len(), inTrial);
      if (!add(phase)) break;
      [periodStart, end] = [phase.start, phase.end];
    } else if (outcome < 95) {
      const grace = outcome < 88 && (store === 'APP_STORE' || store === 'PLAY_STORE');
      const at = end + s.pick([1, 2, 6]) * HOUR;
      // App Store grace periods are 3, 6 or 16 days, never longer than the subscription's period (a week: 6 at most).
      const graceEnd = grace ? end + s.pick(product.period === 'P1W' ? [3, 6] : [3, 6, 16]) * DAY : null;
      if (!add({ kind: 'billingIssue', at, periodEnd: end, graceEnd })) break;
      if (s.chance(50)) {
        const recovered = s.between(at + HOUR, (graceEnd ?? at + 5 * DAY) - HOUR);
        if (!add(renewal(recovered, recovered, recovered + len()))) break;
        [periodStart, end] = [recovered, recovered + len()];
      } else {
        lapse('BILLING_ERROR', graceEnd ?? end);
        if (!winBack(graceEnd ?? end)) break;
      }
    } else {
      lapse('UNSUBSCRIBE', end);
      if (!winBack(end)) break;
    }
    inTrial = false;
  }
  return { key, store, familyShare, phases };
}

export { DAY, HOUR, LIFETIME, MINUTE, PROMO };
