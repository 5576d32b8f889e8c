/**
 * Provider-shaped events that tell one subscriber's story, for trying a receiver by hand (`cli trigger`), the way
 * `stripe trigger` builds its fixtures: a purchase starts a subscription (an original transaction), each renewal
 * pays for the period that follows the last one, and a cancellation or expiration speaks about the current
 * period (its transaction, its start and end). Events are dated on the story's own clock, as the provider dates
 * them: a renewal when its period starts, an expiration when its period ends, anything else now or, when the
 * story is already ahead of now, at its latest event (each within its period, so the service orders them by
 * these times: src/billing/event-time.ts). The chain's state is kept between runs by the caller. Types that are
 * not about a subscription (TEST, TRANSFER, …) are the provider's samples (sample-events.ts). Pure.
 */
import type { BillingEvent } from './provider-events';
import { sampleEvent } from './sample-events';

const DAY = 86_400_000;

/** Product durations a chain can sell, as the provider's MRR chart rounds them (mrr.ts). */
export const CHAIN_PERIODS = { P1W: 7, P1M: 30, P2M: 61, P3M: 91, P6M: 182, P1Y: 365 } as const;
export type ChainPeriod = keyof typeof CHAIN_PERIODS;
/** A store's free trial before the first paid period. */
export const TRIAL_DAYS = 7;

export interface ChainProduct {
  productId: string;
  /** USD, as the provider's `price` states it (and MRR counts it). */
  price: number;
  currency: string;
  store: string;
  environment: 'PRODUCTION' | 'SANDBOX';
  period: ChainPeriod;
  entitlementIds: string[];
}

export interface ChainState extends ChainProduct {
  user: string;
  originalTransactionId: string;
  /** The period the subscription is in now (the last one bought). */
  transactionId: string;
  periodType: 'TRIAL' | 'NORMAL';
  purchasedAtMs: number;
  expirationAtMs: number;
  renewalNumber: number;
  /** Set by an EXPIRATION or a refund: the next RENEWAL starts a new period (now, or when the story stands). */
  expired: boolean;
  /** The time of the chain's latest event: the next one is never dated before it. */
  clockMs: number;
}

/** The types whose events speak about the chain's subscription. */
export const CHAIN_TYPES = [
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
] as const;

export interface ChainStep {
  /** In the order to send them: a RENEWAL of a subscriber with no chain is preceded by its INITIAL_PURCHASE. */
  events: BillingEvent[];
  state: ChainState | null;
}

/**
 * The next event of `type` in the chain `state` (null: none yet), and the chain after it. `product` describes a
 * new purchase; a renewal keeps the chain's product unless `overrides` change it (a price rise, say).
 */
export function nextInChain(
  type: string,
  user: string,
  state: ChainState | null,
  product: ChainProduct,
  opts: { nowMs: number; newId: () => string; trial?: boolean; refund?: boolean; overrides?: Partial<ChainProduct> },
): ChainStep {
  const { nowMs, newId } = opts;
  if (!(CHAIN_TYPES as readonly string[]).includes(type)) {
    return { events: [{ ...sampleEvent(type, user, nowMs, newId()), environment: product.environment }], state };
  }
  if (type === 'INITIAL_PURCHASE' || state === null) {
    const first = purchase(user, product, nowMs, newId, opts.trial === true);
    if (type === 'INITIAL_PURCHASE') return { events: [eventOf('INITIAL_PURCHASE', first, nowMs, newId())], state: first };
    const rest = nextInChain(type, user, first, product, { ...opts, trial: false });
    return { events: [eventOf('INITIAL_PURCHASE', first, nowMs, newId()), ...rest.events], state: rest.state };
  }
  const chain: ChainState = { ...state, ...opts.overrides };
  const at = Math.max(nowMs, chain.clockMs);
  const dated = (s: ChainState, atMs: number): ChainState => ({ ...s, clockMs: atMs });
  switch (type) {
    case 'RENEWAL': {
      // The next period starts where the last one ends (and the renewal is dated then); after an expiration or a
      // refund, when the customer comes back.
      const startMs = chain.expired ? at : chain.expirationAtMs;
      const next: ChainState = {
        ...chain,
        transactionId: `tx_${newId()}`,
        periodType: 'NORMAL',
        purchasedAtMs: startMs,
        expirationAtMs: startMs + CHAIN_PERIODS[chain.period] * DAY,
        renewalNumber: chain.renewalNumber + 1,
        expired: false,
        clockMs: Math.max(at, startMs),
      };
      return {
        events: [{ ...eventOf('RENEWAL', next, next.clockMs, newId()), is_trial_conversion: chain.periodType === 'TRIAL' }],
        state: next,
      };
    }
    case 'CANCELLATION':
      return opts.refund
        ? // A refund: the store gave the money back, so access ends now (the provider's CUSTOMER_SUPPORT reason).
          {
            events: [{ ...eventOf(type, chain, at, newId()), cancel_reason: 'CUSTOMER_SUPPORT', price: -paidPrice(chain) }],
            state: { ...dated(chain, at), expired: true },
          }
        : { events: [{ ...eventOf(type, chain, at, newId()), cancel_reason: 'UNSUBSCRIBE' }], state: dated(chain, at) };
    case 'EXPIRATION': {
      // It ends the current period, dated when that period ends: access lasts until then, as the provider's rules say.
      const endAt = Math.max(at, chain.expirationAtMs);
      return {
        events: [{ ...eventOf(type, chain, endAt, newId()), expiration_reason: 'UNSUBSCRIBE' }],
        state: { ...dated(chain, endAt), expired: true },
      };
    }
    case 'BILLING_ISSUE':
      return {
        events: [{ ...eventOf(type, chain, at, newId()), price: 0, grace_period_expiration_at_ms: chain.expirationAtMs + 16 * DAY }],
        state: dated(chain, at),
      };
    case 'PRODUCT_CHANGE':
      return {
        events: [{ ...eventOf(type, chain, at, newId()), new_product_id: opts.overrides?.productId ?? `${chain.productId}_yearly` }],
        state: dated(state, at),
      };
    case 'SUBSCRIPTION_EXTENDED': {
      const extended = { ...dated(chain, at), expirationAtMs: chain.expirationAtMs + 7 * DAY };
      return { events: [{ ...eventOf(type, extended, at, newId()), price: 0 }], state: extended };
    }
    default:
      return { events: [eventOf(type, chain, at, newId())], state: dated(chain, at) };
  }
}

function purchase(user: string, product: ChainProduct, nowMs: number, newId: () => string, trial: boolean): ChainState {
  return {
    ...product,
    user,
    originalTransactionId: `otx_${newId()}`,
    transactionId: `tx_${newId()}`,
    periodType: trial ? 'TRIAL' : 'NORMAL',
    purchasedAtMs: nowMs,
    expirationAtMs: nowMs + (trial ? TRIAL_DAYS : CHAIN_PERIODS[product.period]) * DAY,
    renewalNumber: 1,
    expired: false,
    clockMs: nowMs,
  };
}

// A trial's period is free: price 0, as the provider states it.
const paidPrice = (chain: ChainState) => (chain.periodType === 'TRIAL' ? 0 : chain.price);

function eventOf(type: string, chain: ChainState, nowMs: number, id: string): BillingEvent {
  return {
    id,
    type,
    app_id: 'app_sample',
    event_timestamp_ms: nowMs,
    app_user_id: chain.user,
    original_app_user_id: chain.user,
    aliases: [chain.user],
    environment: chain.environment,
    product_id: chain.productId,
    entitlement_ids: chain.entitlementIds,
    period_type: chain.periodType,
    purchased_at_ms: chain.purchasedAtMs,
    expiration_at_ms: chain.expirationAtMs,
    store: chain.store,
    price: paidPrice(chain),
    currency: chain.currency,
    price_in_purchased_currency: paidPrice(chain),
    transaction_id: chain.transactionId,
    original_transaction_id: chain.originalTransactionId,
    is_family_share: false,
    country_code: 'US',
    renewal_number: chain.renewalNumber,
  };
}
