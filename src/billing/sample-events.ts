/**
 * Provider-shaped sample events of every documented type, for trying a receiver by hand (`cli trigger`): the
 * members and conventions of the provider's published samples, with a fresh id and times around `nowMs`. Pure.
 */
import { KNOWN_EVENT_TYPES, type BillingEvent } from './provider-events';

const DAY = 86_400_000;

export function sampleEvent(type: string, user: string, nowMs: number, id: string): BillingEvent {
  const period = { purchased_at_ms: nowMs, expiration_at_ms: nowMs + 30 * DAY };
  const base: BillingEvent = {
    id,
    type,
    app_id: 'app_sample',
    event_timestamp_ms: nowMs,
    app_user_id: user,
    original_app_user_id: user,
    aliases: [user],
    environment: 'SANDBOX',
    product_id: 'pro_monthly',
    entitlement_ids: ['pro'],
    period_type: 'NORMAL',
    ...period,
    store: 'APP_STORE',
    price: 9.99,
    currency: 'USD',
    price_in_purchased_currency: 9.99,
    transaction_id: `tx_${id}`,
    original_transaction_id: `otx_${user}`,
    is_family_share: false,
    country_code: 'US',
  };
  switch (type) {
    case 'CANCELLATION':
      return { ...base, cancel_reason: 'UNSUBSCRIBE' };
    case 'EXPIRATION':
      return { ...base, expiration_reason: 'UNSUBSCRIBE', expiration_at_ms: nowMs };
    case 'BILLING_ISSUE':
      return { ...base, price: 0, grace_period_expiration_at_ms: nowMs + 16 * DAY };
    case 'PRODUCT_CHANGE':
      return { ...base, new_product_id: 'pro_yearly' };
    case 'SUBSCRIPTION_EXTENDED':
      return { ...base, expiration_at_ms: nowMs + 37 * DAY, price: 0 };
    case 'NON_RENEWING_PURCHASE':
      return {
        ...base,
        store: 'PROMOTIONAL',
        period_type: 'PROMOTIONAL',
        product_id: 'rc_promo_pro_lifetime',
        expiration_at_ms: null,
        price: 0,
      };
    case 'TEMPORARY_ENTITLEMENT_GRANT':
      return { ...base, expiration_at_ms: nowMs + DAY, price: 0 };
    case 'SUBSCRIBER_ALIAS':
      return { ...base, aliases: [user, `${user}_device`] };
    case 'TRANSFER':
      return {
        id,
        type,
        app_id: 'app_sample',
        event_timestamp_ms: nowMs,
        environment: 'SANDBOX',
        store: 'APP_STORE',
        transferred_from: [`${user}_old`],
        transferred_to: [user],
      };
    default:
      return base;
  }
}

export const SAMPLE_TYPES: readonly string[] = KNOWN_EVENT_TYPES;
