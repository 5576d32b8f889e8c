/**
 * The trends' backfill: what a scope's daily points were, rebuilt from subscriber records. Each record keeps
 * the facts of its subscriptions (the latest period of each, the endings still in force), not a log, so the
 * rebuild evaluates those facts at each day's end, counting a subscription from its latest known purchase
 * on: exact for the days since, an undercount before a renewal. Pure.
 */
import { contributionOf, ZERO_TOTALS, addTotals, type BillingTotals } from './metrics';
import { rulesOf, type SubscriberState } from './subscriber-state';
import { deriveView } from './subscriber-view';

export const DAY_MS = 86_400_000;

/** A subscriber's contribution as of `atMs`, from the subscriptions it had bought by then. */
export function contributionAt(state: SubscriberState, atMs: number): BillingTotals {
  if (state.mergedInto !== null) return { ...ZERO_TOTALS };
  const bought = state.subscriptions.filter((s) => (s.info?.purchasedAtMs ?? s.renewedAtMs ?? Infinity) <= atMs);
  if (bought.length === 0) return { ...ZERO_TOTALS };
  return contributionOf({ ...state, subscriptions: bought, asOfMs: atMs, ...deriveView(bought, atMs, false, rulesOf(state)) });
}

/** Accumulates daily totals and churn (subscriptions counted one day and not the next) over the given days. */
export class DailyTrendBuilder {
  private readonly totals: BillingTotals[];
  private readonly churned: number[];

  /** `dayStartsMs`: the UTC midnights of consecutive days, oldest first. */
  constructor(private readonly dayStartsMs: number[]) {
    this.totals = dayStartsMs.map(() => ({ ...ZERO_TOTALS }));
    this.churned = dayStartsMs.map(() => 0);
  }

  add(state: SubscriberState): void {
    let previous = contributionAt(state, this.dayStartsMs[0]! - 1).activeSubscriptions;
    this.dayStartsMs.forEach((start, i) => {
      const c = contributionAt(state, start + DAY_MS - 1);
      this.totals[i] = addTotals(this.totals[i]!, c);
      if (c.activeSubscriptions < previous) this.churned[i]! += previous - c.activeSubscriptions;
      previous = c.activeSubscriptions;
    });
  }

  points(): (BillingTotals & { dayStartMs: number; churned: number })[] {
    return this.dayStartsMs.map((dayStartMs, i) => ({ dayStartMs, ...this.totals[i]!, churned: this.churned[i]! }));
  }
}
