/**
 * The contract of the `billingMetrics` workflow (one per billing scope; see contract.ts): its id, the totals delta
 * signal and the totals query.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { WorkflowContract } from './contract';
import type { BillingTotals } from '../../billing/metrics';
import type { BillingScope } from '../../billing/subscriber-id';

/** A subscriber's contribution to its scope's totals changed by this much. */
export const totalsDeltaSignal = defineSignal<[BillingTotals]>('totalsDelta');
export const totalsQuery = defineQuery<{ totals: BillingTotals; seq: number }>('totals');

export interface BillingMetricsStart {
  scope: BillingScope;
  /** Set by continue-as-new: the totals so far, their sequence number, and the deltas not yet applied. */
  carried?: { totals: BillingTotals; seq: number; pending: BillingTotals[] };
}

/** The workflow's signature, for typed starts by name (importing the workflow module would bundle it). */
export type BillingMetricsWorkflow = (input: BillingMetricsStart) => Promise<void>;

export const metricsWorkflowId = (scope: BillingScope) => `billing-metrics/${scope}`;

export const billingMetricsContract = {
  name: 'billingMetrics',
  workflowId: metricsWorkflowId,
  signals: { totalsDelta: totalsDeltaSignal },
  queries: { totals: totalsQuery },
} as const satisfies WorkflowContract<[BillingScope]>;
