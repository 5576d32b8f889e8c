import type { Context, Next } from 'koa';
import type { Accepted } from '../../billing-intake/accept-event';
import type { DeliveryLog } from '../../billing-intake/delivery-log';
import type { BillingEvent } from '../../billing/provider-events';
import { resolveSubscriberIds, type BillingScope } from '../../billing/subscriber-id';
import type { Clock } from '../../config/clock';
import type { AuthorizationRefusal } from '../../auth/webhook-refusal';
import { HttpProblem } from '../http/problem';

/** What a receiver notes about a delivery as it goes, for its entry in the event log (ctx.state.delivery). */
export interface DeliveryNotes {
  /** Known once the app exists (or on the operator's receiver). */
  scope?: BillingScope;
  /** Why the Authorization value was refused (a 401). */
  refusal?: AuthorizationRefusal;
  /** The body, once read: kept (as an excerpt) only when it is refused after authorization. */
  body?: unknown;
  event?: BillingEvent;
  accepted?: Accepted;
}

/** The problem codes the receivers answer with, as event log reasons. */
const REASON_OF_CODE: Record<string, string> = {
  missing_app: 'missing_app',
  unsupported_media_type: 'unsupported_media_type',
  payload_too_large: 'too_large',
  malformed_json: 'malformed_json',
  invalid_event: 'invalid_event',
  store_unavailable: 'store_unavailable',
};

export const deliveryNotes = (ctx: Context): DeliveryNotes => (ctx.state.delivery ??= {}) as DeliveryNotes;

/**
 * Records every delivery to a webhook receiver in the event log once it is answered, whatever the answer: the
 * outcome of an accepted one, the reason of a refused one. The handler notes what it learns (`deliveryNotes`);
 * the answer to the caller is untouched (a 401 stays the one 401 of the contract), and recording only appends
 * to memory (billing-intake/delivery-log.ts).
 */
export function recordDeliveries(log: DeliveryLog, endpoint: 'app' | 'operator', now: Clock) {
  return async function recordDelivery(ctx: Context, next: Next): Promise<void> {
    const at = now();
    const app = endpoint === 'app' && typeof ctx.query.app === 'string' && ctx.query.app !== '' ? ctx.query.app : null;
    const bodyBytes = ctx.request.length ?? null;
    try {
      await next();
    } catch (err) {
      const notes = deliveryNotes(ctx);
      const problem = err instanceof HttpProblem ? err : null;
      const unauthorized = problem?.status === 401 || problem?.code === 'missing_app';
      log.record({
        endpoint,
        app,
        scope: unauthorized && notes.refusal === 'unknown_app' ? null : (notes.scope ?? null),
        at,
        status: problem?.status ?? 500,
        outcome: 'rejected',
        reason:
          problem?.status === 401 ? (notes.refusal ?? 'authorization_mismatch') : (REASON_OF_CODE[problem?.code ?? ''] ?? 'internal_error'),
        detail: problem && problem.status !== 401 ? problem.detail : null,
        unauthorized,
        eventId: eventMember(notes.body, 'id'),
        type: eventMember(notes.body, 'type'),
        bodyBytes,
        body: !unauthorized && notes.body !== undefined ? JSON.stringify(notes.body) : null,
      });
      throw err;
    }
    const { scope, event, accepted } = deliveryNotes(ctx);
    if (!scope || !event || !accepted) return;
    const ids = resolveSubscriberIds(event);
    log.record({
      endpoint,
      app,
      scope,
      at: accepted.fresh ? accepted.receivedAt : at,
      status: ctx.status,
      outcome: accepted.conflict ? 'conflict' : !accepted.fresh ? 'duplicate' : accepted.ignored ? 'ignored' : 'accepted',
      reason: accepted.ignoredReason,
      eventId: event.id,
      type: event.type,
      subscriberId: accepted.subscriberId,
      otherIds: ids ? ids.all.filter((id) => id !== accepted.subscriberId).slice(0, 3) : [],
      workflowId: accepted.workflowId,
      deadLetterId: accepted.deadLetterId,
      bodyBytes,
    });
  };
}

/** `event.id` / `event.type` of a body that may be anything. */
function eventMember(body: unknown, member: 'id' | 'type'): string | null {
  const event = body && typeof body === 'object' ? (body as { event?: unknown }).event : undefined;
  const value = event && typeof event === 'object' ? (event as Record<string, unknown>)[member] : undefined;
  return typeof value === 'string' ? value : null;
}
