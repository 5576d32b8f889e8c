/**
 * Per-scope dashboard totals, maintained by deltas: the store keeps each subscriber's last contribution and
 * adds `diffContribution(stored, contributionOf(state))`, so no event needs a scan of every subscriber, and
 * re-applying a transition (diff against the already stored contribution = zero) changes nothing. Pure.
 */
import { microsToUsd } from './mrr';
import { rulesOf, type SubscriberState } from './subscriber-state';
import { subscriptionLines } from './subscriber-view';

export interface BillingTotals {
  /** Integer micro-dollars per month: exact under addition, unlike per-subscriber cents. */
  mrrMicros: number;
  /** Entitled subscriptions counted in MRR (paid, renewing, production, not family-shared). */
  activeSubscriptions: number;
  /** Entitled production subscriptions in a TRIAL period. */
  activeTrials: number;
  /** Customers with at least one billing-issue flag. */
  flaggedCustomers: number;
  /** Customers with a downgrade scheduled. */
  scheduledDowngrades: number;
}

export const ZERO_TOTALS: Readonly<BillingTotals> = Object.freeze({
  mrrMicros: 0,
  activeSubscriptions: 0,
  activeTrials: 0,
  flaggedCustomers: 0,
  scheduledDowngrades: 0,
});

/**
 * The totals' fields of a record that stores them beside others; a field it lacks keeps `fallback`'s value
 * (zero, or the day before's in a trend).
 */
export function pickTotals(record: Partial<BillingTotals>, fallback: Readonly<BillingTotals> = ZERO_TOTALS): BillingTotals {
  const out = { ...fallback };
  for (const key of Object.keys(ZERO_TOTALS) as (keyof BillingTotals)[]) out[key] = record[key] ?? fallback[key];
  return out;
}

/** This subscriber's share of the totals; zero for a record merged into another. */
export function contributionOf(state: SubscriberState): BillingTotals {
  if (state.mergedInto !== null) return { ...ZERO_TOTALS };
  const lines = subscriptionLines(state.subscriptions, state.asOfMs, rulesOf(state));
  const counted = lines.filter((line) => line.mrr?.counted === true);
  const trials = lines.filter((line) => line.mrr !== null && line.info?.periodType === 'TRIAL' && line.info.environment !== 'SANDBOX');
  return {
    mrrMicros: state.mrrContributionMicros,
    activeSubscriptions: counted.length,
    activeTrials: trials.length,
    flaggedCustomers: state.flags.length > 0 ? 1 : 0,
    scheduledDowngrades: state.scheduledDowngrade !== null ? 1 : 0,
  };
}

/** What to add to the totals when a subscriber's contribution goes from `before` to `after`. */
export function diffContribution(before: BillingTotals, after: BillingTotals): BillingTotals {
  return combine(after, before, -1);
}

export function addTotals(a: BillingTotals, b: BillingTotals): BillingTotals {
  return combine(a, b, 1);
}

/** The dashboard's `mrr` member. */
export function mrrAmount(totals: BillingTotals): { amount: number; currency: 'USD' } {
  return { amount: microsToUsd(totals.mrrMicros), currency: 'USD' };
}

function combine(a: BillingTotals, b: BillingTotals, sign: 1 | -1): BillingTotals {
  return {
    mrrMicros: a.mrrMicros + sign * b.mrrMicros,
    activeSubscriptions: a.activeSubscriptions + sign * b.activeSubscriptions,
    activeTrials: a.activeTrials + sign * b.activeTrials,
    flaggedCustomers: a.flaggedCustomers + sign * b.flaggedCustomers,
    scheduledDowngrades: a.scheduledDowngrades + sign * b.scheduledDowngrades,
  };
}
