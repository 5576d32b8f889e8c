import type { BillingEvent } from '../../src/billing/provider-events';

export const DAY = 86_400_000;
let counter = 0;

/** A unique event id per call, like the provider's UUIDs. */
export const eventId = (label: string) => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/**
 * An event shaped like the provider's published samples (same members and conventions), for subscriber
 * `user`; times are explicit so tests can put period ends a few seconds ahead.
 */
export function providerEvent(
  type: string,
  user: string,
  o: {
    at: number;
    purchasedAt?: number;
    expiresAt?: number | null;
    price?: number;
    periodType?: string;
    id?: string;
  } & Partial<BillingEvent>,
): BillingEvent {
  const { at, purchasedAt, expiresAt, price, periodType, id, ...rest } = o;
  return {
    id: id ?? eventId(type.toLowerCase()),
    type,
    app_id: 'app1a2b3c4d5',
    event_timestamp_ms: at,
    app_user_id: user,
    original_app_user_id: user,
    aliases: [user],
    subscriber_attributes: { $email: { value: `${user}@example.com`, updated_at_ms: at } },
    environment: 'PRODUCTION',
    product_id: 'com.acme.pro.monthly',
    entitlement_ids: ['pro'],
    entitlement_id: null,
    period_type: periodType ?? 'NORMAL',
    purchased_at_ms: purchasedAt ?? at,
    expiration_at_ms: expiresAt === undefined ? (purchasedAt ?? at) + 30 * DAY : expiresAt,
    store: 'APP_STORE',
    price: price ?? 9.99,
    currency: 'USD',
    price_in_purchased_currency: price ?? 9.99,
    transaction_id: `tx-${counter}`,
    original_transaction_id: `otx-${user}`,
    is_family_share: false,
    country_code: 'US',
    ...rest,
  };
}

export const envelope = (event: BillingEvent) => ({ api_version: '1.0', event });
