/**
 * The messages of the billing workflows, in a file of their own so the API (which sends some of them) and
 * activities do not import workflow code.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { BillingTotals } from '../billing/metrics';
import type { BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import type { SubscriberState } from '../billing/subscriber-state';

export interface BillingSubscriberStart {
  scope: BillingScope;
  subscriberId: string;
}

/** A provider event for this subscriber; events are applied one at a time in the order Temporal recorded them. */
export const providerEventSignal = defineSignal<[BillingEvent]>('providerEvent');
/** Another record is the canonical one for this subscriber: merge into it. */
export const mergeIntoSignal = defineSignal<[string]>('mergeInto');
/** A record merged into this one hands over its state. */
export const absorbSignal = defineSignal<[SubscriberState]>('absorb');
/** The subscriber's full state, for operators (Temporal UI "Queries") and tests. */
export const subscriberStateQuery = defineQuery<SubscriberState>('state');

/** A subscriber's contribution to its scope's totals changed by this much. */
export const totalsDeltaSignal = defineSignal<[BillingTotals]>('totalsDelta');
export const totalsQuery = defineQuery<{ totals: BillingTotals; seq: number }>('totals');

export const metricsWorkflowId = (scope: BillingScope) => `billing-metrics/${scope}`;
