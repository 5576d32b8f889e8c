/**
 * The contract of the outbound delivery workflow, in a module of its own so the API and activities that start
 * it do not import workflow code.
 */
import type { RetrySchedule } from '../outbound/retry-schedule';

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

export const OUTBOUND_DELIVERY_WORKFLOW = 'outboundDelivery';

export const outboundDeliveryWorkflowId = (app: string, endpointId: string, deliveryId: string) => `outbound/${app}/${endpointId}/${deliveryId}`;

/** Values of the OutboundStatus search attribute. */
export type OutboundStatus = 'delivering' | 'retrying' | 'succeeded' | 'failed';
