/**
 * The console's event charts: per day of the provider's event time, what the events of that day add up to
 * (revenue, refunds, new customers, trial starts and conversions, expirations), in groups by store, product,
 * environment and country so that any filter is a sum of groups. Pure: the store keeps one day's groups
 * (store/billing-event-series.ts) and sums them per request.
 */
import { isTrialStart, refundMicros, revenueMicros, type EventFacts } from './event-facts';

export interface DayGroup {
  store: string | null;
  productId: string | null;
  environment: string | null;
  country: string | null;
  revenueMicros: number;
  refunds: number;
  refundMicros: number;
  /** Customers whose INITIAL_PURCHASE is dated that day (each counted once per day and group). */
  newCustomers: number;
  trialStarts: number;
  trialConversions: number;
  /** Subscriptions that expired (not refunds). */
  expirations: number;
}

export interface SeriesFilter {
  store?: string;
  productId?: string;
  /** Absent: everything but the sandbox (its purchases are not money); `ALL` for both. */
  environment?: string;
  country?: string;
}

export type DayTotals = Omit<DayGroup, 'store' | 'productId' | 'environment' | 'country'>;

export const ZERO_DAY: DayTotals = {
  revenueMicros: 0,
  refunds: 0,
  refundMicros: 0,
  newCustomers: 0,
  trialStarts: 0,
  trialConversions: 0,
  expirations: 0,
};

/** One day's entries, grouped. */
export function groupDay(entries: readonly { subscriberId: string; facts: EventFacts }[]): DayGroup[] {
  const groups = new Map<string, DayGroup & { buyers: Set<string> }>();
  for (const { subscriberId, facts: f } of entries) {
    const key = JSON.stringify([f.store, f.productId, f.environment, f.country]);
    let g = groups.get(key);
    if (!g) {
      g = { store: f.store, productId: f.productId, environment: f.environment, country: f.country, ...ZERO_DAY, buyers: new Set() };
      groups.set(key, g);
    }
    g.revenueMicros += revenueMicros(f);
    if (f.kind === 'refund') {
      g.refunds += 1;
      g.refundMicros += refundMicros(f);
    }
    if (f.kind === 'purchase') g.buyers.add(subscriberId);
    if (isTrialStart(f)) g.trialStarts += 1;
    if (f.kind === 'conversion') g.trialConversions += 1;
    if (f.kind === 'expiration') g.expirations += 1;
  }
  return [...groups.values()].map(({ buyers, ...g }) => ({ ...g, newCustomers: buyers.size }));
}

/** The day's totals over the groups a filter selects. */
export function sumGroups(groups: readonly DayGroup[], filter: SeriesFilter): DayTotals {
  const total = { ...ZERO_DAY };
  for (const g of groups) {
    if (filter.store !== undefined && g.store !== filter.store) continue;
    if (filter.productId !== undefined && g.productId !== filter.productId) continue;
    if (filter.country !== undefined && g.country !== filter.country) continue;
    const env = filter.environment;
    if (env === undefined ? g.environment === 'SANDBOX' : env !== 'ALL' && g.environment !== env) continue;
    for (const k of Object.keys(ZERO_DAY) as (keyof DayTotals)[]) total[k] += g[k];
  }
  return total;
}
