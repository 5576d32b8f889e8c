/**
 * The billing-metrics workflow's client (one run per billing scope): the only code outside workflows that
 * starts it or sends it a totals delta. Subscriber workflows signal it themselves, through the same contract.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { BillingTotals } from '../../billing/metrics';
import type { BillingScope } from '../../billing/subscriber-id';
import { billingMetricsContract, type BillingMetricsStart, type BillingMetricsWorkflow } from '../../contracts/workflows/billing-metrics';
import { tenantPriority } from '../fairness';
import { SEARCH_ATTRIBUTES } from '../../contracts/workflows/search-attributes';

/** Temporal's priority key for the totals workflow and its activities (lower runs sooner; 3 is the default). */
const TOTALS_PRIORITY = 1;

const startOptions = (scope: BillingScope, taskQueue: string) => ({
  workflowId: billingMetricsContract.workflowId(scope),
  taskQueue,
  args: [{ scope }] as [BillingMetricsStart],
  typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.BillingScope, value: scope }],
  staticSummary: `Billing totals of ${scope}`,
  // Ahead of the scope's subscriber tasks (priority 1 of the server's default 1–5; they run at the default 3): in a
  // burst the totals workflow must keep taking its deltas and continuing as new, else one run reaches the server's
  // signal limit per run and deltas are refused until it catches up (billing-subscriber.ts, signalMetrics).
  priority: { ...tenantPriority(scope), priorityKey: TOTALS_PRIORITY },
});

/** Starts the scope's metrics workflow unless it runs already. */
export async function ensureMetricsWorkflow(client: Client, taskQueue: string, scope: BillingScope): Promise<void> {
  try {
    await client.workflow.start<BillingMetricsWorkflow>(billingMetricsContract.name, startOptions(scope, taskQueue));
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Adds `delta` to the scope's running totals (an operator's repair), starting the workflow if needed. */
export async function sendTotalsDelta(client: Client, taskQueue: string, scope: BillingScope, delta: BillingTotals): Promise<void> {
  await client.workflow.signalWithStart<BillingMetricsWorkflow, [BillingTotals]>(billingMetricsContract.name, {
    ...startOptions(scope, taskQueue),
    signal: billingMetricsContract.signals.totalsDelta,
    signalArgs: [delta],
  });
}
