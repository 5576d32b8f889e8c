/** The outbound-delivery workflow's client: the only code that starts it. */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { Config } from '../../config/config';
import { tenantPriority } from '../fairness';
import { SEARCH_ATTRIBUTES } from '../../contracts/workflows/search-attributes';
import type { OutboundDeliveryInput } from '../../contracts/workflows/outbound-delivery';
import { outboundDeliveryContract, type OutboundDeliveryWorkflow } from '../../contracts/workflows/outbound-delivery';

/**
 * Starts the delivery workflow of a stored delivery. `first`: the dispatch of an event, which a retried activity
 * may repeat, so a workflow id that ran before is not run again. `again`: a redelivery asked for by a person,
 * which runs the same id once more after the previous run closed. Returns false when a run is still going.
 */
export async function startDelivery(
  client: Client,
  config: Config,
  d: { app: string; endpointId: string; deliveryId: string; eventType: string },
  mode: 'first' | 'again',
): Promise<boolean> {
  const input: OutboundDeliveryInput = {
    app: d.app,
    endpointId: d.endpointId,
    deliveryId: d.deliveryId,
    schedule: config.outbound.retry,
    attemptTimeoutMs: config.outbound.timeoutMs + 5_000,
  };
  try {
    await client.workflow.start<OutboundDeliveryWorkflow>(outboundDeliveryContract.name, {
      workflowId: outboundDeliveryContract.workflowId(d.app, d.endpointId, d.deliveryId),
      taskQueue: config.temporal.taskQueue,
      args: [input],
      workflowIdReusePolicy: mode === 'first' ? WorkflowIdReusePolicy.REJECT_DUPLICATE : WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTES.OutboundApp, value: d.app },
        { key: SEARCH_ATTRIBUTES.OutboundEndpoint, value: d.endpointId },
        { key: SEARCH_ATTRIBUTES.OutboundStatus, value: 'delivering' },
      ],
      staticSummary: `Webhook ${d.eventType} to endpoint ${d.endpointId} (${d.app})`,
      priority: tenantPriority(`app:${d.app}`),
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return mode === 'first';
    throw err;
  }
}
