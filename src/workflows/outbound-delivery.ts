import { proxyActivities, setCurrentDetails, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { retryDelay } from './retry-schedule';
import { SEARCH_ATTRIBUTES } from '../contracts/workflows/search-attributes';
import type { OutboundDeliveryInput, OutboundStatus } from '../contracts/workflows/outbound-delivery';

type Activities = ReturnType<typeof createActivities>;

/**
 * One delivery of one event to one endpoint (`outbound/{app}/{endpointId}/{deliveryId}`): attempts on the
 * retry schedule (durable timers, so a worker restart loses nothing), until a 2xx, a 410, the endpoint being
 * disabled, or the schedule running out.
 */
export async function outboundDelivery(input: OutboundDeliveryInput): Promise<OutboundStatus> {
  // One attempt = one activity execution. Its HTTP call has its own timeout; the activity's covers a worker that
  // dies mid-call (the attempt then runs again on another worker). Temporal's retry of the activity is for
  // infrastructure errors (store down): the receiver's answers come back as outcomes, and the schedule below
  // decides the retries.
  const { attemptOutboundDelivery, finishOutboundDelivery } = proxyActivities<Activities>({
    startToCloseTimeout: input.attemptTimeoutMs,
    retry: { initialInterval: '1s', maximumInterval: '1m' },
  });
  for (let attempt = 1; ; attempt++) {
    // Computed before the attempt so the attempt record can say when the next one is due.
    const delay = retryDelay(input.schedule, attempt, Math.random());
    const outcome = await attemptOutboundDelivery({
      app: input.app,
      endpointId: input.endpointId,
      deliveryId: input.deliveryId,
      attempt,
      nextRetryInMs: delay,
    });
    if (outcome.kind === 'sent') return finish('succeeded');
    if (outcome.kind !== 'failed' || delay === null) return finish('failed');
    status('retrying', `attempt ${attempt} failed (${outcome.status ?? outcome.error ?? 'error'}); next in ${Math.round(delay / 1000)} s`);
    await sleep(delay);
  }

  async function finish(result: 'succeeded' | 'failed'): Promise<OutboundStatus> {
    await finishOutboundDelivery({ deliveryId: input.deliveryId, status: result });
    status(result, result);
    return result;
  }

  function status(value: OutboundStatus, details: string): void {
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.OutboundStatus, value }]);
    setCurrentDetails(details);
  }
}
