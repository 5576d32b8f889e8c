/**
 * The contract of the `outboundDelivery` workflow (one per delivery; see contract.ts): its id, its input, what
 * an attempt comes to, and the values of its status search attribute. No signals or queries.
 */
import type { WorkflowContract } from './contract';

/** When a failed delivery is tried again (src/workflows/retry-schedule.ts reads it): delays grow from `baseMs` to `capMs` while they add up to less than `windowMs`. */
export interface RetrySchedule {
  baseMs: number;
  capMs: number;
  windowMs: number;
}

export interface OutboundDeliveryInput {
  app: string;
  endpointId: string;
  deliveryId: string;
  /** Passed in (not read from config) so a workflow keeps the schedule it started with. */
  schedule: RetrySchedule;
  /** How long one attempt may take before Temporal runs it again elsewhere (the HTTP timeout plus store writes). */
  attemptTimeoutMs: number;
}

/** What one attempt came to (see the attemptOutboundDelivery activity). */
export type AttemptOutcome =
  | { kind: 'sent'; status: number }
  | { kind: 'failed'; status: number | null; error: string | null }
  /** The receiver answered 410 Gone: the endpoint is disabled and nothing is retried. */
  | { kind: 'gone' }
  /** The endpoint is disabled or deleted (by its owner, or automatically): nothing more to send. */
  | { kind: 'endpoint_off' };

export const outboundDeliveryWorkflowId = (app: string, endpointId: string, deliveryId: string) =>
  `outbound/${app}/${endpointId}/${deliveryId}`;

/** The workflow's signature, for typed starts by name. */
export type OutboundDeliveryWorkflow = (input: OutboundDeliveryInput) => Promise<OutboundStatus>;

export const outboundDeliveryContract = {
  name: 'outboundDelivery',
  workflowId: outboundDeliveryWorkflowId,
  signals: {},
  queries: {},
} as const satisfies WorkflowContract<[string, string, string]>;

/** Values of the OutboundStatus search attribute. */
export type OutboundStatus = 'delivering' | 'retrying' | 'succeeded' | 'failed';
