/**
 * The fault suite's provider traffic: seeded, so a run (and a failure) can be reproduced with FAULTS_SEED.
 * Histories per subscriber, for one customer app and for the operator's orgs, then every delivery shuffled
 * with some events delivered two or three times. Payloads depend only on the seed and the names passed in.
 */
import type { BillingEvent } from '../../src/billing/provider-events';
import { seeded, type Rng } from '../../bench/lib/random';

export const DAY = 86_400_000;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;
/** Periods that end decades from now: no downgrade timer fires while the suite runs. */
const FUTURE_MS = Date.UTC(2099, 0, 4, 9, 0, 0);
/** Periods long over: their downgrades apply as soon as the events arrive. */
const PAST_MS = Date.UTC(2021, 2, 1, 9, 0, 0);
/**
 * Aliases and transfers name no period, so their times must be plausible as receipt times (src/billing/event-time.ts:
 * no more than 48 h ahead): they are dated in the recent past, in the order they were generated.
 */
const MERGES_FROM_MS = Date.UTC(2025, 0, 1, 9, 0, 0);

export interface Delivery {
  scope: 'app' | 'operator';
  event: BillingEvent;
  /** 1 for the first delivery of an event, 2 and 3 for redeliveries. */
  copy: number;
}

export interface Traffic {
  /** Every distinct event, by scope. */
  events: { app: BillingEvent[]; operator: BillingEvent[] };
  /** Shuffled, with redeliveries. */
  deliveries: Delivery[];
  /** Operator BILLING_ISSUE ids: each must send exactly one email (see `billingIssue` below for why it always flags). */
  operatorBillingIssues: string[];
  figures: {
    appSubscribers: number;
    anonymousPairs: number;
    transferPairs: number;
    aliasGraphs: number;
    orgs: number;
    pastSubscribers: number;
  };
}

interface Product {
  id: string;
  price: number;
  lengthMs: number;
  entitlement: string;
}

const APP_MONTHLY: Product = { id: 'com.acme.pro.monthly', price: 9.99, lengthMs: MONTH, entitlement: 'pro' };
const APP_YEARLY: Product = { id: 'com.acme.team.yearly', price: 99.99, lengthMs: YEAR, entitlement: 'team' };
const OP_MONTHLY: Product = { id: 'service.pro.monthly', price: 49, lengthMs: MONTH, entitlement: 'pro' };
const OP_YEARLY: Product = { id: 'service.team.yearly', price: 490, lengthMs: YEAR, entitlement: 'team' };

/** Who an event names, as the provider does: the original id, the id in use, and every alias. */
interface Names {
  original: string;
  current: string;
  aliases: string[];
}

export function generateTraffic(opts: { seed: number; targetEvents: number; runId: string; orgIds: string[] }): Traffic {
  const r = seeded(opts.seed);
  let n = 0;
  const nextId = (label: string) => `${opts.runId}-${label}-${(n++).toString(36)}`;
  const app: BillingEvent[] = [];
  const operator: BillingEvent[] = [];
  const operatorBillingIssues: string[] = [];
  const figures = { appSubscribers: 0, anonymousPairs: 0, transferPairs: 0, aliasGraphs: 0, orgs: 0, pastSubscribers: 0 };

  /** One subscription's lifecycle (purchase, renewals, maybe a billing issue, cancellation, expiration or refund). */
  function lifecycle(
    names: Names,
    product: Product,
    otx: string,
    base: number,
    o: { billingIssue: boolean; scope: 'app' | 'operator' },
  ): BillingEvent[] {
    const out: BillingEvent[] = [];
    const renewals = r.int(0, 3);
    const trial = o.scope === 'app' && r.chance(0.1);
    const periodStart = (k: number) => base + k * product.lengthMs;
    const ev = (type: string, at: number, k: number, extra: Partial<BillingEvent> = {}) =>
      event(nextId(type.toLowerCase()), type, names, product, otx, at, periodStart(k), periodStart(k) + product.lengthMs, extra);
    out.push(ev('INITIAL_PURCHASE', periodStart(0), 0, trial ? { period_type: 'TRIAL', price: 0 } : {}));
    for (let k = 1; k <= renewals; k++) out.push(ev('RENEWAL', periodStart(k), k, k === 1 && trial ? { is_trial_conversion: true } : {}));
    const last = renewals;
    // After every renewal of this subscription, so it flags whatever order the events arrive in (a renewal
    // newer than the issue would clear it, and whether the issue then raised a flag would depend on order).
    if (o.billingIssue)
      out.push(
        ev('BILLING_ISSUE', periodStart(last) + 20 * DAY + r.int(0, 1000), last, {
          price: 0,
          grace_period_expiration_at_ms: periodStart(last) + 36 * DAY,
        }),
      );
    const ending = r.next();
    if (ending < 0.2)
      out.push(
        ev('CANCELLATION', periodStart(last) + 10 * DAY, last, {
          cancel_reason: r.pick(['UNSUBSCRIBE', 'PRICE_INCREASE', 'BILLING_ERROR']),
        }),
      );
    else if (ending < 0.3)
      out.push(ev('EXPIRATION', periodStart(last) + product.lengthMs, last, { expiration_reason: 'UNSUBSCRIBE', price: 0 }));
    else if (ending < 0.35)
      out.push(ev('CANCELLATION', periodStart(last) + 2 * DAY, last, { cancel_reason: 'CUSTOMER_SUPPORT', price: -product.price }));
    // A stale EXPIRATION of an earlier period, arriving in any order: it must not revoke what a renewal paid for.
    if (last > 0 && r.chance(0.15))
      out.push(ev('EXPIRATION', periodStart(last), last - 1, { expiration_reason: 'BILLING_ERROR', price: 0 }));
    return out;
  }

  const base = () => {
    if (r.chance(0.08)) {
      figures.pastSubscribers += 1;
      return PAST_MS + r.int(0, 30) * DAY;
    }
    return FUTURE_MS + r.int(0, 300) * DAY;
  };
  const userNames = (id: string): Names => ({ original: id, current: id, aliases: [id] });

  // Operator scope first (a fixed share), then app subscribers until the target is reached.
  for (const org of opts.orgIds) {
    figures.orgs += 1;
    const b = base();
    operator.push(...lifecycle(userNames(org), OP_MONTHLY, `otx-${org}-m`, b, { billingIssue: r.chance(0.4), scope: 'operator' }));
    if (r.chance(0.3))
      operator.push(
        ...lifecycle(userNames(org), OP_YEARLY, `otx-${org}-y`, b + 3 * DAY, { billingIssue: r.chance(0.3), scope: 'operator' }),
      );
  }
  for (const e of operator) if (e.type === 'BILLING_ISSUE') operatorBillingIssues.push(e.id);

  let u = 0;
  const user = () => `${opts.runId}-u${(u++).toString(36)}`;
  while (app.length + operator.length < opts.targetEvents) {
    const kind = r.next();
    if (kind < 0.7) {
      figures.appSubscribers += 1;
      app.push(...subscriberHistory(userNames(user())));
    } else if (kind < 0.85) {
      // An anonymous id that buys, then is aliased to a signed-in id, which may have bought on another device;
      // sometimes the alias is also reported the other way round (the signed-in id first).
      figures.anonymousPairs += 1;
      figures.appSubscribers += 2;
      const anon = `$RCAnonymousID:${opts.runId}${(u++).toString(16).padStart(12, '0')}`;
      const known = user();
      const b = base();
      app.push(...lifecycle(userNames(anon), APP_MONTHLY, `otx-${anon}`, b, { billingIssue: r.chance(0.1), scope: 'app' }));
      if (r.chance(0.5))
        app.push(...lifecycle(userNames(known), APP_YEARLY, `otx-${known}-y`, b + DAY, { billingIssue: false, scope: 'app' }));
      const at = MERGES_FROM_MS + n * 60_000;
      app.push(aliasEvent(nextId('alias'), { original: anon, current: known, aliases: [anon, known] }, at));
      if (r.chance(0.4)) app.push(aliasEvent(nextId('alias'), { original: known, current: known, aliases: [known, anon] }, at + 1000));
    } else if (kind < 0.92) {
      // An alias-graph storm: 3 to 8 customers with histories of their own, joined by a cycle of aliases and
      // transfers (A→B→…→A) and a few random extra edges, all delivered in any order: they must end as one
      // customer under the smallest id.
      figures.aliasGraphs += 1;
      const members = Array.from({ length: r.int(3, 8) }, () => user());
      figures.appSubscribers += members.length;
      for (const m of members) app.push(...subscriberHistory(userNames(m)));
      const order = [...members];
      shuffle(order, r);
      const edges = order.map((m, i) => [m, order[(i + 1) % order.length]!] as const);
      for (let extra = r.int(0, 3); extra > 0; extra--) edges.push([r.pick(members), r.pick(members)] as const);
      let at = MERGES_FROM_MS + n * 60_000;
      for (const [from, to] of edges) {
        if (from === to) continue;
        at += r.int(1, 3) * 1000;
        app.push(
          r.chance(0.7)
            ? aliasEvent(nextId('alias'), { original: from, current: to, aliases: [from, to] }, at)
            : transferEvent(nextId('transfer'), [from], [to], at),
        );
      }
    } else {
      // Two customers with histories of their own; a transfer one way, and for half of them back the other way.
      figures.transferPairs += 1;
      figures.appSubscribers += 2;
      const [a, b] = [user(), user()];
      app.push(...subscriberHistory(userNames(a)), ...subscriberHistory(userNames(b)));
      const at = MERGES_FROM_MS + n * 60_000;
      app.push(transferEvent(nextId('transfer'), [a], [b], at));
      if (r.chance(0.5)) app.push(transferEvent(nextId('transfer'), [b], [a], at + r.int(1, 5) * 1000));
    }
  }

  function subscriberHistory(names: Names): BillingEvent[] {
    const b = base();
    const out = lifecycle(names, APP_MONTHLY, `otx-${names.original}-m`, b, { billingIssue: r.chance(0.15), scope: 'app' });
    if (r.chance(0.2))
      out.push(...lifecycle(names, APP_YEARLY, `otx-${names.original}-y`, b + 2 * DAY, { billingIssue: r.chance(0.1), scope: 'app' }));
    return out;
  }

  const deliveries: Delivery[] = [];
  for (const [scope, list] of [
    ['app', app],
    ['operator', operator],
  ] as const) {
    for (const e of list) {
      deliveries.push({ scope, event: e, copy: 1 });
      if (r.chance(0.12)) deliveries.push({ scope, event: e, copy: 2 });
      if (r.chance(0.02)) deliveries.push({ scope, event: e, copy: 3 });
    }
  }
  shuffle(deliveries, r);
  return { events: { app, operator }, deliveries, operatorBillingIssues, figures };
}

function shuffle<T>(items: T[], r: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

/** Shaped like the provider's samples (same members as test/support/provider-events.ts). */
function event(
  id: string,
  type: string,
  names: Names,
  product: Product,
  otx: string,
  at: number,
  purchasedAt: number,
  expiresAt: number,
  extra: Partial<BillingEvent>,
): BillingEvent {
  return {
    id,
    type,
    app_id: 'app1a2b3c4d5',
    event_timestamp_ms: at,
    app_user_id: names.current,
    original_app_user_id: names.original,
    aliases: names.aliases,
    subscriber_attributes: { $email: { value: 'someone@example.com', updated_at_ms: at } },
    environment: 'PRODUCTION',
    product_id: product.id,
    entitlement_ids: [product.entitlement],
    entitlement_id: null,
    period_type: 'NORMAL',
    purchased_at_ms: purchasedAt,
    expiration_at_ms: expiresAt,
    store: 'APP_STORE',
    price: product.price,
    currency: 'USD',
    price_in_purchased_currency: product.price,
    transaction_id: `tx-${id}`,
    original_transaction_id: otx,
    is_family_share: false,
    country_code: 'US',
    ...extra,
  };
}

function aliasEvent(id: string, names: Names, at: number): BillingEvent {
  return {
    id,
    type: 'SUBSCRIBER_ALIAS',
    app_id: 'app1a2b3c4d5',
    event_timestamp_ms: at,
    app_user_id: names.current,
    original_app_user_id: names.original,
    aliases: names.aliases,
    environment: 'PRODUCTION',
  };
}

function transferEvent(id: string, from: string[], to: string[], at: number): BillingEvent {
  return {
    id,
    type: 'TRANSFER',
    app_id: 'app1a2b3c4d5',
    event_timestamp_ms: at,
    transferred_from: from,
    transferred_to: to,
    environment: 'PRODUCTION',
    store: 'APP_STORE',
  };
}
