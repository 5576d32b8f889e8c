/**
 * Provider events shaped like RevenueCat's published webhook samples (same members, same conventions: ms
 * timestamps, `$RCAnonymousID:` ids, `aliases`, `subscriber_attributes`, store percentages), written for
 * these tests.
 */
import type { BillingEnvelope, BillingEvent } from '../../../src/billing/provider-events';

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
export const ANON = '$RCAnonymousID:8069238d6049ce87cc529853916d624c';
export const USER = 'user_1234';
export const OTX = '1000000000000001';

export interface Period {
  purchasedAt: number;
  expiresAt: number | null;
}

/** A subscription lifecycle event (INITIAL_PURCHASE, RENEWAL, CANCELLATION, ...) for ANON/USER. */
export function subEvent(type: string, id: string, at: number, period: Period, overrides: Partial<BillingEvent> = {}): BillingEvent {
  return {
    event_timestamp_ms: at,
    product_id: 'com.acme.pro.monthly',
    period_type: 'NORMAL',
    purchased_at_ms: period.purchasedAt,
    expiration_at_ms: period.expiresAt,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['pro'],
    presented_offering_id: 'default',
    transaction_id: `tx-${id}`,
    original_transaction_id: OTX,
    is_family_share: false,
    country_code: 'US',
    app_user_id: USER,
    aliases: [ANON, USER],
    original_app_user_id: ANON,
    currency: 'USD',
    price: 9.99,
    price_in_purchased_currency: 9.99,
    subscriber_attributes: { $email: { updated_at_ms: T0 - DAY, value: 'ada@example.com' } },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    tax_percentage: 0,
    commission_percentage: 0.3,
    offer_code: null,
    type,
    id,
    app_id: 'app1a2b3c4d5',
    ...overrides,
  };
}

/** A TRANSFER: no app_user_id, no product, no price. */
export function transferEvent(id: string, at: number, from: string[], to: string[]): BillingEvent {
  return {
    event_timestamp_ms: at,
    environment: 'PRODUCTION',
    store: 'APP_STORE',
    transferred_from: from,
    transferred_to: to,
    type: 'TRANSFER',
    id,
    app_id: 'app1a2b3c4d5',
  };
}

/** A SUBSCRIBER_ALIAS: ids only. */
export function aliasEvent(id: string, at: number, original: string, aliases: string[]): BillingEvent {
  return {
    event_timestamp_ms: at,
    app_user_id: aliases[aliases.length - 1],
    original_app_user_id: original,
    aliases,
    subscriber_attributes: {},
    environment: 'PRODUCTION',
    type: 'SUBSCRIBER_ALIAS',
    id,
    app_id: 'app1a2b3c4d5',
  };
}

export function envelope(event: BillingEvent): BillingEnvelope {
  return { api_version: '1.0', event };
}

/** Month-long periods starting at T0: period(0) is the first, period(1) the renewal after it, ... */
export function monthly(n: number): Period {
  return { purchasedAt: T0 + n * 30 * DAY, expiresAt: T0 + (n + 1) * 30 * DAY };
}
