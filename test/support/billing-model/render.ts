/**
 * A world's histories as the provider's webhook events: the members, conventions and flows of RevenueCat's
 * published docs and sample payloads (docs/integrations/webhooks/event-types-and-fields.mdx, event-flows.md,
 * code_blocks/integrations/webhooks/*.json): ms timestamps, `$RCAnonymousID:` ids, `aliases`, store percentages,
 * `subscriber_attributes`, `experiments`, USD `price` beside `price_in_purchased_currency`, price 0 on lifecycle
 * notices, negative on refunds, no `app_id` on PROMOTIONAL, a TRANSFER with no app_user_id, product and price.
 */
import type { BillingEvent } from '../../../src/billing/provider-events';
import { LIFETIME, MINUTE, PROMO, productById, type Product, type Store } from './catalog';
import { ownerAt } from './model';
import type { CustomerHistory, Grant, Phase, PeriodPhase, SubscriptionHistory, World } from './history';

const APP_ID = 'app1a2b3c4d5';
const PERCENTAGES: Record<Store, { takehome_percentage: number; commission_percentage: number }> = {
  APP_STORE: { takehome_percentage: 0.7, commission_percentage: 0.3 },
  PLAY_STORE: { takehome_percentage: 0.85, commission_percentage: 0.15 },
  STRIPE: { takehome_percentage: 0.97, commission_percentage: 0.029 },
  RC_BILLING: { takehome_percentage: 0.95, commission_percentage: 0.05 },
  PROMOTIONAL: { takehome_percentage: 1, commission_percentage: 0 },
};

/** Every event of the world, each once, in no particular order; `event_timestamp_ms` is when it was generated. */
export function renderWorld(world: World, runId: string): BillingEvent[] {
  let n = 0;
  const id = (label: string) => `${runId}-${label}-${(n++).toString(36).padStart(4, '0')}`;
  const events: BillingEvent[] = [];
  // A phase at the horizon may be told by a few events a millisecond apart: they all belong to it.
  const push = (e: BillingEvent) => void (Number(e.event_timestamp_ms) <= world.horizonMs + 10 && events.push(e));
  for (const c of world.customers) {
    const names = (at: number) => namesAt(world.customers[ownerAt(c, at)]!, at);
    for (const sub of c.subscriptions) for (const e of renderSubscription(sub, c, names, id)) push(e);
    const own = (at: number) => namesAt(c, at);
    for (const g of c.grants) for (const e of renderGrant(g, c, own, id)) push(e);
    for (const at of c.enrollments) push(enrollment(id('enroll'), at, own(at)));
    if (c.login && c.login.style !== 'silent') {
      const at = c.login.at;
      push(
        c.login.style === 'alias'
          ? { ...own(at), id: id('alias'), type: 'SUBSCRIBER_ALIAS', event_timestamp_ms: at, app_id: APP_ID, environment: env(c) }
          : enrollment(id('enroll'), at, own(at)),
      );
    }
    if (c.transfer) {
      const to = world.customers[c.transfer.to]!;
      const at = c.transfer.at;
      push({
        id: id('transfer'),
        type: 'TRANSFER',
        app_id: APP_ID,
        event_timestamp_ms: at,
        store: c.subscriptions[0]?.store ?? 'APP_STORE',
        environment: env(c),
        // Every id of each side, as the service assumes (src/billing/subscriber-id.ts); RevenueCat's sample names one each.
        transferred_from: namesAt(c, at).aliases,
        transferred_to: namesAt(to, at).aliases,
      });
    }
  }
  for (const at of world.tests) push({ id: id('test'), type: 'TEST', app_id: APP_ID, event_timestamp_ms: at, app_user_id: 'test_user' });
  return events;
}

interface Names {
  app_user_id: string;
  original_app_user_id: string;
  aliases: string[];
}

/** Who the provider says the customer is at `at`: the original (anonymous) id, the one in use, every one used. */
export function namesAt(c: CustomerHistory, at: number): Names {
  if (c.identified) return { app_user_id: c.userId, original_app_user_id: c.userId, aliases: [c.userId] };
  if (c.login && c.login.at <= at)
    return { app_user_id: c.userId, original_app_user_id: c.anonymousId, aliases: [c.anonymousId, c.userId] };
  return { app_user_id: c.anonymousId, original_app_user_id: c.anonymousId, aliases: [c.anonymousId] };
}

function env(c: CustomerHistory): 'SANDBOX' | 'PRODUCTION' {
  return c.sandbox ? 'SANDBOX' : 'PRODUCTION';
}

function renderSubscription(
  sub: SubscriptionHistory,
  c: CustomerHistory,
  names: (at: number) => Names,
  id: (label: string) => string,
): BillingEvent[] {
  const out: BillingEvent[] = [];
  let current: PeriodPhase | null = null;
  let renewals = 0;
  let tx = 0;
  const base = (
    type: string,
    at: number,
    period: { statedStart: number; end: number },
    product: Product,
    price: number,
    extra: Partial<BillingEvent> = {},
  ) => {
    const local = Math.round(price * c.money.perUsd * 100) / 100;
    const promo = sub.store === 'PROMOTIONAL';
    const event: BillingEvent = {
      event_timestamp_ms: at,
      product_id: product.id,
      period_type: current?.periodType ?? 'NORMAL',
      purchased_at_ms: period.statedStart,
      expiration_at_ms: period.end,
      environment: env(c),
      entitlement_id: null,
      entitlement_ids: product.entitlements,
      presented_offering_id: 'default',
      transaction_id: `${sub.key}${String(tx).padStart(3, '0')}`,
      original_transaction_id: sub.key,
      is_family_share: sub.familyShare,
      country_code: c.money.country,
      ...names(at),
      currency: c.money.currency,
      price,
      price_in_purchased_currency: local,
      subscriber_attributes: { $email: { updated_at_ms: at - MINUTE, value: `${c.userId.replace(/@.*/, '')}@example.com` } },
      store: sub.store,
      ...PERCENTAGES[sub.store],
      tax_percentage: c.money.currency === 'EUR' ? 0.19 : 0,
      offer_code: null,
      renewal_number: renewals,
      experiments: [{ experiment_id: 'prexp123', experiment_variant: 'b', enrolled_at_ms: at - 30 * MINUTE }],
      type,
      id: id(type.toLowerCase()),
      ...(promo ? {} : { app_id: APP_ID }),
      ...extra,
    };
    return event;
  };
  for (const phase of sub.phases) {
    const p = phase as Phase;
    if (p.kind === 'period') {
      tx++;
      renewals = p.event === 'INITIAL_PURCHASE' ? 1 : renewals + 1;
      if (p.changedFrom && current) out.push(base('PRODUCT_CHANGE', p.at - 1, current, p.changedFrom, 0, { new_product_id: p.product.id }));
      current = p;
      if (sub.store === 'RC_BILLING')
        out.push(base('INVOICE_ISSUANCE', p.at - MINUTE, p, p.product, 0, { price: null, expiration_at_ms: null, period_type: null }));
      out.push(base(p.event, p.at, p, p.product, p.usd, p.event === 'RENEWAL' ? { is_trial_conversion: p.conversion } : {}));
      if (p.product.credits) out.push(virtualCurrency(id('vc'), p, c, names(p.at + 1)));
      continue;
    }
    if (current === null) continue;
    const cur: PeriodPhase = current;
    switch (p.kind) {
      case 'cancel':
        out.push(base('CANCELLATION', p.at, cur, cur.product, 0, { cancel_reason: p.reason }));
        break;
      case 'uncancel':
        out.push(base('UNCANCELLATION', p.at, cur, cur.product, 0));
        break;
      case 'pause':
        out.push(base('SUBSCRIPTION_PAUSED', p.at, cur, cur.product, 0, { auto_resume_at_ms: p.resumeAt }));
        break;
      case 'billingIssue': {
        const period = { statedStart: cur.statedStart, end: p.periodEnd };
        // RevenueCat's billing-issue flow: BILLING_ISSUE and, from the app stores, a CANCELLATION with reason
        // BILLING_ERROR whose expiration is the grace period's end; without a grace period an EXPIRATION too.
        out.push(base('BILLING_ISSUE', p.at, period, cur.product, 0, { grace_period_expiration_at_ms: p.graceEnd }));
        if (sub.store === 'APP_STORE' || sub.store === 'PLAY_STORE') {
          const until = { statedStart: cur.statedStart, end: p.graceEnd ?? p.periodEnd };
          out.push(base('CANCELLATION', p.at + 1, until, cur.product, 0, { cancel_reason: 'BILLING_ERROR' }));
        }
        if (p.graceEnd === null) out.push(base('EXPIRATION', p.at + 2, period, cur.product, 0, { expiration_reason: 'BILLING_ERROR' }));
        break;
      }
      case 'expire':
        out.push(base('EXPIRATION', p.at, { statedStart: cur.statedStart, end: p.end }, cur.product, 0, { expiration_reason: p.reason }));
        break;
      case 'refund':
        out.push(
          base('CANCELLATION', p.at, cur, cur.product, -cur.usd, {
            cancel_reason: 'CUSTOMER_SUPPORT',
            price_in_purchased_currency: -Math.round(cur.usd * c.money.perUsd * 100) / 100,
          }),
        );
        break;
      case 'refundReversed':
        out.push(base('REFUND_REVERSED', p.at, cur, cur.product, cur.usd));
        break;
      case 'extend':
        out.push(base('SUBSCRIPTION_EXTENDED', p.at, { statedStart: cur.statedStart, end: p.end }, cur.product, 0));
        current = { ...cur, end: p.end };
        break;
      case 'deferredChange':
        out.push(base('PRODUCT_CHANGE', p.at, cur, cur.product, 0, { new_product_id: p.to.id }));
        break;
    }
  }
  return out;
}

function renderGrant(g: Grant, c: CustomerHistory, names: (at: number) => Names, id: (label: string) => string): BillingEvent[] {
  const common = {
    ...names(g.at),
    environment: env(c),
    entitlement_id: null,
    is_family_share: false,
    country_code: c.money.country,
    subscriber_attributes: {},
    offer_code: null,
  };
  switch (g.kind) {
    case 'lifetime':
      return [
        {
          ...common,
          id: id('nrp'),
          type: 'NON_RENEWING_PURCHASE',
          app_id: APP_ID,
          event_timestamp_ms: g.at,
          product_id: LIFETIME.id,
          period_type: 'NORMAL',
          purchased_at_ms: g.at,
          expiration_at_ms: null,
          entitlement_ids: LIFETIME.entitlements,
          presented_offering_id: 'lifetime',
          transaction_id: g.key,
          original_transaction_id: g.key,
          currency: c.money.currency,
          price: LIFETIME.usd,
          price_in_purchased_currency: Math.round(LIFETIME.usd * c.money.perUsd * 100) / 100,
          store: 'APP_STORE',
          ...PERCENTAGES.APP_STORE,
          tax_percentage: 0,
        },
      ];
    case 'promo': {
      // Granted from the provider's dashboard: store PROMOTIONAL, period_type PROMOTIONAL, price 0, no app_id.
      const promo = {
        ...common,
        product_id: PROMO.id,
        period_type: 'PROMOTIONAL',
        purchased_at_ms: g.at,
        expiration_at_ms: g.end,
        entitlement_ids: PROMO.entitlements,
        presented_offering_id: null,
        transaction_id: g.key,
        original_transaction_id: g.key,
        currency: 'USD',
        price: 0,
        price_in_purchased_currency: 0,
        store: 'PROMOTIONAL',
        ...PERCENTAGES.PROMOTIONAL,
        tax_percentage: 0,
      };
      return [
        { ...promo, id: id('promo'), type: 'NON_RENEWING_PURCHASE', event_timestamp_ms: g.at },
        { ...promo, ...names(g.end), id: id('promo-x'), type: 'EXPIRATION', event_timestamp_ms: g.end, expiration_reason: 'UNSUBSCRIBE' },
      ];
    }
    case 'temporary': {
      const product = productById('com.acme.pro.monthly');
      // Only the members the provider guarantees on this type; if the purchase cannot be validated, an EXPIRATION
      // with the same transaction_id follows.
      const grant: BillingEvent = {
        id: id('teg'),
        type: 'TEMPORARY_ENTITLEMENT_GRANT',
        app_id: APP_ID,
        event_timestamp_ms: g.at,
        app_user_id: names(g.at).app_user_id,
        purchased_at_ms: g.at,
        expiration_at_ms: g.end,
        product_id: product.id,
        entitlement_ids: product.entitlements,
        store: 'APP_STORE',
        transaction_id: g.key,
      };
      if (g.validated) return [grant];
      return [
        grant,
        {
          ...common,
          ...names(g.end),
          id: id('teg-x'),
          type: 'EXPIRATION',
          app_id: APP_ID,
          event_timestamp_ms: g.end,
          product_id: product.id,
          period_type: 'NORMAL',
          purchased_at_ms: g.at,
          expiration_at_ms: g.end,
          entitlement_ids: product.entitlements,
          transaction_id: g.key,
          expiration_reason: 'UNKNOWN',
          currency: 'USD',
          price: 0,
          store: 'APP_STORE',
        },
      ];
    }
  }
}

function enrollment(eventId: string, at: number, names: Names): BillingEvent {
  return {
    event_timestamp_ms: at,
    ...names,
    experiment_id: 'prexpca1234abcd',
    experiment_variant: 'b',
    offering_id: 'experiment_offering_b',
    experiment_enrolled_at_ms: at,
    type: 'EXPERIMENT_ENROLLMENT',
    id: eventId,
  };
}

/** Credits granted with a charge (sample: no original_app_user_id, `purchase_environment`, `adjustments`). */
function virtualCurrency(eventId: string, p: PeriodPhase, c: CustomerHistory, names: Names): BillingEvent {
  return {
    adjustments: [{ amount: p.product.credits, currency: { code: 'CRD', description: 'The main currency unit', name: 'Credits' } }],
    aliases: names.aliases,
    app_id: APP_ID,
    app_user_id: names.app_user_id,
    country_code: c.money.country,
    event_timestamp_ms: p.at + 1,
    product_display_name: 'Monthly sub for 100 credits',
    product_id: p.product.id,
    purchase_environment: env(c),
    source: 'in_app_purchase',
    store: 'APP_STORE',
    subscriber_attributes: {},
    transaction_id: `${p.product.id}-${p.at}`,
    virtual_currency_transaction_id: `vatx${p.at}`,
    type: 'VIRTUAL_CURRENCY_TRANSACTION',
    id: eventId,
  };
}
