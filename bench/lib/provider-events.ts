/**
 * Billing-provider events shaped like the provider's published samples (the members test/support uses), for
 * many distinct subscribers. Event `i` of a stream depends only on (seed, i), so a stream is the same on every
 * run whatever order concurrent senders take it in.
 */
import type { BillingEvent } from '../../src/billing/provider-events';
import { seeded } from './random';

export const DAY = 86_400_000;
/** A fixed "now" for generated timestamps: deterministic bodies, and far from any real period end. */
export const EPOCH_MS = Date.UTC(2025, 5, 1, 9, 0, 0);

const TYPE_WEIGHTS: [string, number][] = [
  ['RENEWAL', 0.45],
  ['INITIAL_PURCHASE', 0.25],
  ['CANCELLATION', 0.08],
  ['PRODUCT_CHANGE', 0.06],
  ['UNCANCELLATION', 0.04],
  ['BILLING_ISSUE', 0.04],
  ['EXPIRATION', 0.04],
  ['NON_RENEWING_PURCHASE', 0.02],
  ['TEST', 0.02],
];
export const PRODUCTS = [
  { id: 'com.acme.pro.monthly', price: 9.99, days: 30 },
  { id: 'com.acme.pro.yearly', price: 79.99, days: 365 },
  { id: 'com.acme.plus.monthly', price: 4.99, days: 30 },
];
const STORES = ['APP_STORE', 'PLAY_STORE', 'STRIPE'];
const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'BR', 'IN', 'JP', 'CA'];

export interface EventStreamSpec {
  seed: number;
  /** Distinct subscribers the stream spreads over. */
  subscribers: number;
  /** Makes ids unique per run: event ids `${prefix}-e${i}`, subscribers `${prefix}-u${n}` unless `sharedUsers`. */
  prefix: string;
  sharedUsers?: string;
  /** Every event of this type instead of the realistic mix (TEST: acknowledged and recorded, never forwarded). */
  type?: string;
}

export function providerEvent(
  type: string,
  user: string,
  o: {
    id: string;
    at: number;
    purchasedAt?: number;
    expiresAt?: number | null;
    product?: (typeof PRODUCTS)[number];
    country?: string;
    store?: string;
  },
): BillingEvent {
  const product = o.product ?? PRODUCTS[0]!;
  const purchasedAt = o.purchasedAt ?? o.at;
  return {
    id: o.id,
    type,
    app_id: 'app1a2b3c4d5',
    event_timestamp_ms: o.at,
    app_user_id: user,
    original_app_user_id: user,
    aliases: [user],
    subscriber_attributes: { $email: { value: `${user}@example.com`, updated_at_ms: o.at } },
    environment: 'PRODUCTION',
    product_id: product.id,
    entitlement_ids: ['pro'],
    entitlement_id: null,
    period_type: 'NORMAL',
    purchased_at_ms: purchasedAt,
    expiration_at_ms: o.expiresAt === undefined ? purchasedAt + product.days * DAY : o.expiresAt,
    store: o.store ?? 'APP_STORE',
    price: product.price,
    currency: 'USD',
    price_in_purchased_currency: product.price,
    transaction_id: `tx-${o.id}`,
    original_transaction_id: `otx-${user}`,
    is_family_share: false,
    country_code: o.country ?? 'US',
    ...(type === 'CANCELLATION' ? { cancel_reason: 'UNSUBSCRIBE' } : {}),
    ...(type === 'EXPIRATION' ? { expiration_reason: 'UNSUBSCRIBE' } : {}),
    ...(type === 'PRODUCT_CHANGE' ? { new_product_id: PRODUCTS[1]!.id } : {}),
  };
}

export const envelope = (event: BillingEvent) => JSON.stringify({ api_version: '1.0', event });

/** The i-th event of a stream, as the JSON body the provider would post. */
export function streamEvent(spec: EventStreamSpec, i: number): string {
  const rng = seeded(spec.seed * 1_000_003 + i);
  let roll = rng.next();
  const type = spec.type ?? TYPE_WEIGHTS.find(([, w]) => (roll -= w) < 0)?.[0] ?? 'RENEWAL';
  const user = `${spec.sharedUsers ?? spec.prefix}-u${rng.int(0, spec.subscribers - 1)}`;
  const at = EPOCH_MS + i * 1000;
  return envelope(
    providerEvent(type, user, {
      id: `${spec.prefix}-e${i}`,
      at,
      purchasedAt: at - rng.int(0, 20) * DAY,
      product: rng.pick(PRODUCTS),
      country: rng.pick(COUNTRIES),
      store: rng.pick(STORES),
    }),
  );
}
