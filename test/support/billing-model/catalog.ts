/**
 * The simulated app's price list, per store, as a developer would set it up in the provider's dashboard: product
 * ids in each store's format (App Store reverse-DNS, Play Store `<subscription>:<base plan>`, Stripe `prod_…`),
 * each product's own period and USD price, and the entitlement it unlocks. The reference model reads periods
 * from here, never from an event's span. Written for the model; nothing in src/ reads it.
 */
export type Store = 'APP_STORE' | 'PLAY_STORE' | 'STRIPE' | 'RC_BILLING' | 'PROMOTIONAL';
export type ProductPeriod = 'P1W' | 'P1M' | 'P3M' | 'P1Y';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** Lengths the simulated stores bill by (a month is 30 days here, a quarter 91, a year 365). */
export const PERIOD_MS: Record<ProductPeriod, number> = { P1W: 7 * DAY, P1M: 30 * DAY, P3M: 91 * DAY, P1Y: 365 * DAY };

/** docs/billing.md's MRR normalisation (RevenueCat's chart definitions): monthly = price × numerator / denominator. */
export const PER_MONTH: Record<ProductPeriod, readonly [number, number]> = { P1W: [4, 1], P1M: [1, 1], P3M: [1, 3], P1Y: [1, 12] };

export interface Product {
  id: string;
  store: Store;
  period: ProductPeriod;
  usd: number;
  entitlements: string[];
  tier: 'basic' | 'pro';
  /** Credits granted with each charge (a VIRTUAL_CURRENCY_TRANSACTION follows the purchase or renewal). */
  credits?: number;
  /** A first period at an introductory price (period_type INTRO). */
  introUsd?: number;
}

export const RENEWING: readonly Product[] = [
  { id: 'com.acme.basic.monthly', store: 'APP_STORE', period: 'P1M', usd: 4.99, entitlements: ['basic'], tier: 'basic' },
  { id: 'com.acme.pro.monthly', store: 'APP_STORE', period: 'P1M', usd: 9.99, entitlements: ['pro'], tier: 'pro', introUsd: 0.99 },
  { id: 'com.acme.pro.weekly', store: 'APP_STORE', period: 'P1W', usd: 2.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'com.acme.pro.yearly', store: 'APP_STORE', period: 'P1Y', usd: 79.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'com.acme.credits.monthly', store: 'APP_STORE', period: 'P1M', usd: 6.99, entitlements: ['pro'], tier: 'pro', credits: 100 },
  { id: 'acme_basic:monthly', store: 'PLAY_STORE', period: 'P1M', usd: 4.99, entitlements: ['basic'], tier: 'basic' },
  { id: 'acme_pro:monthly', store: 'PLAY_STORE', period: 'P1M', usd: 9.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'acme_pro:quarterly', store: 'PLAY_STORE', period: 'P3M', usd: 24.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'acme_pro:annual', store: 'PLAY_STORE', period: 'P1Y', usd: 79.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'prod_Qb4S1cMonthly', store: 'STRIPE', period: 'P1M', usd: 4.99, entitlements: ['basic'], tier: 'basic' },
  { id: 'prod_Qp9X7kMonthly', store: 'STRIPE', period: 'P1M', usd: 9.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'prod_Qp3M1Annual', store: 'STRIPE', period: 'P1Y', usd: 99.99, entitlements: ['pro'], tier: 'pro' },
  { id: 'rcb_pro_monthly', store: 'RC_BILLING', period: 'P1M', usd: 9.99, entitlements: ['pro'], tier: 'pro' },
];

/** One-time purchases: a lifetime unlock, and a month of pro granted from the provider's dashboard. */
export const LIFETIME = { id: 'com.acme.pro.lifetime', store: 'APP_STORE' as Store, usd: 49.99, entitlements: ['pro'] };
export const PROMO = { id: 'rc_promo_pro_monthly', store: 'PROMOTIONAL' as Store, lengthMs: 30 * DAY, entitlements: ['pro'] };

/** The stores a customer buys a subscription in, and the currencies and countries they pay from. */
export const SUBSCRIPTION_STORES: readonly Store[] = ['APP_STORE', 'PLAY_STORE', 'STRIPE', 'RC_BILLING'];
export const CURRENCIES = [
  { currency: 'USD', country: 'US', perUsd: 1 },
  { currency: 'EUR', country: 'DE', perUsd: 0.92 },
  { currency: 'BRL', country: 'BR', perUsd: 5.1 },
] as const;
export type Currency = (typeof CURRENCIES)[number];

export function productsOf(store: Store): Product[] {
  return RENEWING.filter((p) => p.store === store);
}

export function productById(id: string): Product {
  const product = RENEWING.find((p) => p.id === id);
  if (!product) throw new Error(`no product ${id} in the catalog`);
  return product;
}

/** The same store's product of the other tier with the same period, for upgrades and downgrades. */
export function otherTier(product: Product): Product | null {
  return RENEWING.find((p) => p.store === product.store && p.period === product.period && p.tier !== product.tier && !p.credits) ?? null;
}
