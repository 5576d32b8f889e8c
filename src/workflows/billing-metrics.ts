import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { addTotals, mrrAmount, ZERO_TOTALS, type BillingTotals } from '../billing/metrics';
import type { createActivities } from '../activities';
import { totalsDeltaSignal, totalsQuery, type BillingMetricsStart } from '../contracts/workflows/billing-metrics';

type Activities = ReturnType<typeof createActivities>;

const { writeBillingTotals } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});

const { loadBillingTotals } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});

/**
 * The running totals of one billing scope (`billing-metrics/{scope}`): MRR, active subscriptions, trials,
 * flagged customers, scheduled downgrades. Subscriber workflows send their contribution deltas as signals,
 * which Temporal delivers exactly once, so the totals never need a scan of the subscribers; the store copy is
 * written with a sequence number so a retried write never regresses it.
 */
export async function billingMetrics(input: BillingMetricsStart): Promise<void> {
  let totals = input.carried?.totals ?? { ...ZERO_TOTALS };
  let seq = input.carried?.seq ?? 0;
  const pending: BillingTotals[] = [...(input.carried?.pending ?? [])];
  setHandler(totalsDeltaSignal, (delta) => void pending.push(delta));
  setHandler(totalsQuery, () => ({ totals, seq }));

  // `totals-v2` counts the first batch before the local activity below (see billing-subscriber.ts, `fixed`): its
  // result can reach the workflow a task after the one that recorded it, after deltas that arrived in between,
  // where a replay hands it over before them. A v2 run asks for no earlier patch.
  const v2 = patched('totals-v2');
  let fixed: number | null = null;
  // A fresh run of a scope that has totals (an earlier run was terminated or reset) continues from them:
  // starting from zero would undercount, and its writes would lose to the stored sequence number.
  if (!input.carried && (v2 || patched('resume-from-stored-totals'))) {
    if (v2) fixed = pending.length;
    const stored = await loadBillingTotals(input.scope);
    if (stored && stored.seq > seq) {
      totals = stored.totals;
      seq = stored.seq;
    }
  }

  for (;;) {
    await condition(() => pending.length > 0 || workflowInfo().continueAsNewSuggested);
    const batch = fixed ?? pending.length;
    fixed = null;
    if (batch > 0) {
      // Every delta that arrived in this batch becomes one store write.
      totals = pending.splice(0, batch).reduce(addTotals, totals);
      seq += 1;
      await writeBillingTotals({ scope: input.scope, seq, totals });
      const mrr = mrrAmount(totals);
      setCurrentDetails(`MRR $${mrr.amount.toFixed(2)} · ${totals.activeSubscriptions} active · ${totals.flaggedCustomers} flagged`);
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof billingMetrics>({ scope: input.scope, carried: { totals, seq, pending } });
    }
  }
}
