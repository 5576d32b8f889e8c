/**
 * What one provider event says about money and the customer, as the console's timeline, customer page and
 * charts read it: price, store, product, environment, country, transaction ids, and what kind of moment it is
 * (a purchase, a refund, a trial start or conversion, an expiration). Taken from the event as delivered, by the
 * provider's documented members; the reducer's state is not involved. Pure.
 */
import { isRefund, type BillingEvent } from './provider-events';

export interface EventFacts {
  /** The provider's `price` in USD (negative on a refund); null when absent. */
  priceUsd: number | null;
  currency: string | null;
  priceInPurchasedCurrency: number | null;
  store: string | null;
  productId: string | null;
  environment: string | null;
  /** ISO 3166 alpha-2, as the provider sends `country_code`. */
  country: string | null;
  periodType: string | null;
  transactionId: string | null;
  originalTransactionId: string | null;
  purchasedAtMs: number | null;
  expirationAtMs: number | null;
  /** CANCELLATION's cancel_reason or EXPIRATION's expiration_reason. */
  endReason: string | null;
  kind: EventKind;
}

/**
 * `purchase`: INITIAL_PURCHASE; `renewal`: RENEWAL (`conversion` when it ends a trial); `one_time`:
 * NON_RENEWING_PURCHASE; `refund`: a CANCELLATION or EXPIRATION that is a refund; `expiration`: any other
 * EXPIRATION; `other`: the rest.
 */
export type EventKind = 'purchase' | 'renewal' | 'conversion' | 'one_time' | 'refund' | 'expiration' | 'other';

const str = (v: unknown, max = 200): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, max) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function eventFacts(event: BillingEvent): EventFacts {
  return {
    priceUsd: num(event.price),
    currency: str(event.currency, 8),
    priceInPurchasedCurrency: num(event.price_in_purchased_currency),
    store: str(event.store, 32),
    productId: str(event.product_id),
    environment: str(event.environment, 16),
    country: str(event.country_code, 8),
    periodType: str(event.period_type, 16),
    transactionId: str(event.transaction_id, 512),
    originalTransactionId: str(event.original_transaction_id, 512),
    purchasedAtMs: num(event.purchased_at_ms),
    expirationAtMs: num(event.expiration_at_ms),
    endReason: str(event.type === 'CANCELLATION' ? event.cancel_reason : event.type === 'EXPIRATION' ? event.expiration_reason : null, 64),
    kind: kindOf(event),
  };
}

function kindOf(event: BillingEvent): EventKind {
  if (isRefund(event)) return 'refund';
  switch (event.type) {
    case 'INITIAL_PURCHASE':
      return 'purchase';
    case 'RENEWAL':
      return event.is_trial_conversion === true ? 'conversion' : 'renewal';
    case 'NON_RENEWING_PURCHASE':
      return 'one_time';
    case 'EXPIRATION':
      return 'expiration';
    default:
      return 'other';
  }
}

/** Money in: a purchase, renewal or one-time purchase at a positive price. Micro-dollars. */
export function revenueMicros(f: EventFacts): number {
  const paid = f.kind === 'purchase' || f.kind === 'renewal' || f.kind === 'conversion' || f.kind === 'one_time';
  return paid && f.priceUsd !== null && f.priceUsd > 0 ? Math.round(f.priceUsd * 1e6) : 0;
}

/** Money back: a refund's amount (the provider sends it as a negative price). Micro-dollars. */
export function refundMicros(f: EventFacts): number {
  return f.kind === 'refund' && f.priceUsd !== null ? Math.round(Math.abs(f.priceUsd) * 1e6) : 0;
}

/** A purchase of the customer's first trial period. */
export const isTrialStart = (f: EventFacts) => f.kind === 'purchase' && f.periodType === 'TRIAL';
