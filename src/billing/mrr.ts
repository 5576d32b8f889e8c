/**
 * MRR normalisation, following RevenueCat's chart definitions: the USD price of each active, paid, unexpired
 * subscription normalised to one month (1 week ×4, 1 month ×1, 2 ×1/2, 3 ×1/3, 6 ×1/6, 1 year ×1/12). Amounts are
 * integer micro-dollars so that sums over many subscribers do not drift; they are rounded to cents only for
 * display. Pure.
 */

export type StandardPeriod = 'P1W' | 'P1M' | 'P2M' | 'P3M' | 'P6M' | 'P1Y';

const DAY_MS = 86_400_000;
// The average Gregorian month, so that 28- to 31-day months and 365/366-day years all round as expected.
const MONTH_MS = (365.2425 / 12) * DAY_MS;

interface PeriodRule {
  lengthMs: number;
  /** monthly = price × numerator / denominator */
  perMonth: readonly [number, number];
}

// The week factor is RevenueCat's 4, not 52/12: the doc fixes it so that our MRR matches theirs.
const PERIOD_RULES: Readonly<Record<StandardPeriod, PeriodRule>> = {
  P1W: { lengthMs: 7 * DAY_MS, perMonth: [4, 1] },
  P1M: { lengthMs: MONTH_MS, perMonth: [1, 1] },
  P2M: { lengthMs: 2 * MONTH_MS, perMonth: [1, 2] },
  P3M: { lengthMs: 3 * MONTH_MS, perMonth: [1, 3] },
  P6M: { lengthMs: 6 * MONTH_MS, perMonth: [1, 6] },
  P1Y: { lengthMs: 12 * MONTH_MS, perMonth: [1, 12] },
};
const SHORTEST_FIRST: readonly StandardPeriod[] = ['P1W', 'P1M', 'P2M', 'P3M', 'P6M', 'P1Y'];

export const MICROS_PER_USD = 1_000_000;

/** The standard period nearest to a duration (ties go to the shorter one); null for a non-positive duration. */
export function nearestStandardPeriod(durationMs: number): StandardPeriod | null {
  if (!(durationMs > 0)) return null;
  const distance = (period: StandardPeriod) => Math.abs(durationMs - PERIOD_RULES[period].lengthMs);
  return SHORTEST_FIRST.reduce((best, period) => (distance(period) < distance(best) ? period : best));
}

export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

export function microsToCents(micros: number): number {
  return Math.round(micros / 10_000);
}

/** USD rounded to the cent, for display (`{ amount, currency: "USD" }`). */
export function microsToUsd(micros: number): number {
  return microsToCents(micros) / 100;
}

export function monthlyMicros(priceMicros: number, period: StandardPeriod): number {
  const [numerator, denominator] = PERIOD_RULES[period].perMonth;
  return Math.round((priceMicros * numerator) / denominator);
}

/** What MRR needs to know about one subscription period (a subset of SubscriptionInfo). */
export interface MrrInput {
  periodType: string | null;
  priceUsd: number | null;
  purchasedAtMs: number | null;
  expirationAtMs: number | null;
  environment: string | null;
  isFamilyShare: boolean;
  /** A one-time purchase: never recurring revenue, whatever its price and period. */
  nonRenewing?: boolean;
}

export type MrrExclusion = 'sandbox' | 'family_share' | 'trial' | 'unpaid' | 'non_renewing' | 'unknown_period';

export type MrrResult = { counted: true; micros: number; period: StandardPeriod } | { counted: false; micros: 0; excludedBy: MrrExclusion };

/** The monthly-normalised price of one period, or the first rule that excludes it from MRR. */
export function mrrOf(input: MrrInput): MrrResult {
  const excluded = (excludedBy: MrrExclusion): MrrResult => ({ counted: false, micros: 0, excludedBy });
  if (input.environment === 'SANDBOX') return excluded('sandbox');
  if (input.isFamilyShare) return excluded('family_share');
  if (input.periodType === 'TRIAL') return excluded('trial');
  if (input.priceUsd === null || !(input.priceUsd > 0)) return excluded('unpaid');
  if (input.expirationAtMs === null || input.nonRenewing === true) return excluded('non_renewing');
  const period = input.purchasedAtMs === null ? null : nearestStandardPeriod(input.expirationAtMs - input.purchasedAtMs);
  if (period === null) return excluded('unknown_period');
  return { counted: true, micros: monthlyMicros(usdToMicros(input.priceUsd), period), period };
}
