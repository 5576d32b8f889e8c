import { isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import type { createActivities } from '../activities';

type Activities = ReturnType<typeof createActivities>;

// The dead-letter record is retried for as long as it takes: it lives in the same store as any place a failure
// could be parked, so parking could not succeed where it fails.
const { parkDeadLetter } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});

/** What a subscriber workflow parks: a message it cannot apply (`apply`) or an effect that failed for good (`effect`). */
export type Park = (stage: 'apply' | 'effect', key: string, payload: unknown, event: BillingEvent | null, err: unknown) => Promise<void>;

/**
 * Parking for one subscriber's workflow: the failure becomes a dead letter under `key` (billing/dead-letter-key.ts)
 * that operators see and retry. A cancellation is not a failure: it is thrown on, never parked.
 */
export function subscriberParking(scope: BillingScope, subscriberId: string): Park {
  return async (stage, key, payload, event, err) => {
    if (isCancellation(err)) throw err;
    await parkDeadLetter({
      key,
      scope,
      stage,
      // Read defensively: an event the reducer choked on may not have the shape its type promises.
      eventId: typeof event?.id === 'string' ? event.id : null,
      type: typeof event?.type === 'string' ? event.type : null,
      subscriberId,
      workflowId: workflowInfo().workflowId,
      reason: failureText(err),
      payload,
    });
  };
}

/** The messages of a failure and its causes (an activity failure's own message only says which activity). */
export function failureText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e && parts.length < 5; e = (e as { cause?: unknown }).cause) {
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '' && !parts.includes(message)) parts.push(message);
  }
  return parts.join(': ') || 'unknown failure';
}
