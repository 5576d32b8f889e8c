import Router from '@koa/router';
import type { Context } from 'koa';
import { APP_WEBHOOK_PATH, OPERATOR_WEBHOOK_PATH } from '../../contracts/webhook-paths';
import { InboxUnavailableError, type Accepted } from '../../billing-intake/accept-event';
import { ENVELOPE_SCHEMA, type BillingEnvelope } from '../../billing/provider-events';
import { appScope, type BillingScope } from '../../billing/subscriber-id';
import { appAuthorizes, digestMatches, digestOf } from '../../auth/webhook-authorization';
import { appRefusal, operatorRefusal } from '../../auth/webhook-refusal';
import type { AppDeps } from '../deps';
import { WEBHOOK_BODY_LIMIT } from '../http/limits';
import type { AppMetrics } from '../http/metrics';
import { deliveryNotes, recordDeliveries } from '../middleware/delivery-log';
import { readJsonBody } from '../middleware/json-body';
import { HttpProblem, badRequest, serviceUnavailable } from '../http/problem';
import { check } from '../../contracts/validation';
import { SLUG_RE } from '../../contracts/ids';

// One message for every authorization failure: the caller must not learn whether the slug exists.
const denied = () => new HttpProblem(401, 'unauthorized', 'The Authorization header does not authorize this webhook');

/**
 * The billing provider's two receivers. Order: which app → who is calling → the body. The answer is exactly 200
 * once the event is durably in the inbox (never lost after that), 503 if it could not be stored (the
 * provider retries), and a redelivery is 200 with duplicate: true and no second effect.
 */
export function webhookRoutes(deps: AppDeps, metrics: AppMetrics): Router {
  const { now, intake, appCache, deliveryLog } = deps;
  const operatorDigest = deps.config.webhooks.operatorAuthorization
    ? digestOf(deps.config.webhooks.operatorAuthorization).toString('hex')
    : null;
  const router = new Router();

  // Every delivery, answered however, goes to the event log (middleware/delivery-log.ts): the reason of a refusal
  // is noted here for operators, and the caller's answer stays the same.
  router.post(APP_WEBHOOK_PATH, recordDeliveries(deliveryLog, 'app', now), async (ctx) => {
    const slug = ctx.query.app;
    if (typeof slug !== 'string' || slug === '') throw badRequest('missing_app', 'The app query parameter is required: ?app={slug}');
    // A slug no app can have is refused before any lookup: unauthenticated callers cost no store read for it.
    if (!SLUG_RE.test(slug)) {
      deliveryNotes(ctx).refusal = 'unknown_app';
      throw denied();
    }
    const presented = ctx.get('Authorization');
    const found = await appCache.lookup(slug);
    let app = found.app;
    // A value a cached copy refuses may be one created or rotated a moment ago: check the store once.
    if (found.cached && !appAuthorizes(app, presented, now())) app = await appCache.get(slug, true);
    if (!appAuthorizes(app, presented, now())) {
      Object.assign(deliveryNotes(ctx), { scope: app ? appScope(slug) : undefined, refusal: appRefusal(app, presented, now()) });
      throw denied();
    }
    await receive(ctx, appScope(slug), 'app');
  });

  router.post(OPERATOR_WEBHOOK_PATH, recordDeliveries(deliveryLog, 'operator', now), async (ctx) => {
    // Unconfigured operator value: nothing authorizes (digestMatches(…, null) is false).
    if (!digestMatches(ctx.get('Authorization'), operatorDigest)) {
      Object.assign(deliveryNotes(ctx), { scope: 'operator', refusal: operatorRefusal(operatorDigest, ctx.get('Authorization')) });
      throw denied();
    }
    await receive(ctx, 'operator', 'operator');
  });

  async function receive(ctx: Context, scope: BillingScope, label: 'app' | 'operator'): Promise<void> {
    const notes = deliveryNotes(ctx);
    notes.scope = scope;
    const body = await readJsonBody(ctx, WEBHOOK_BODY_LIMIT);
    notes.body = body;
    const errors = check(ENVELOPE_SCHEMA, body);
    if (errors.length > 0) {
      metrics.webhookEvents.inc({ scope: label, outcome: 'rejected' });
      throw badRequest(
        'invalid_event',
        `Not a billing-provider event: ${errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`,
        errors,
      );
    }
    const { event } = body as BillingEnvelope;
    let accepted: Accepted;
    try {
      accepted = await intake.accept(scope, event);
    } catch (err) {
      if (!(err instanceof InboxUnavailableError)) throw err;
      ctx.state.log.error({ err: err.cause, eventId: event.id }, 'webhook event could not be stored');
      metrics.webhookEvents.inc({ scope: label, outcome: 'unavailable' });
      throw serviceUnavailable('store_unavailable', 'The event could not be stored; retry later');
    }
    Object.assign(notes, { event, accepted });
    const { fresh, ignored, ignoredReason, conflict } = accepted;
    metrics.webhookEvents.inc({ scope: label, outcome: conflict ? 'conflict' : fresh ? (ignored ? 'ignored' : 'accepted') : 'duplicate' });
    if (conflict)
      ctx.state.log.warn(
        { eventId: event.id, scope },
        'event id redelivered with a different body: parked as an intake dead letter, not applied',
      );
    // 200 for a conflict too: the event id is durably accepted (with its first body), and any other answer would
    // have the provider retry the second body for days. The member tells a sender that looks.
    ctx.status = 200;
    ctx.body = {
      received: true,
      eventId: event.id,
      duplicate: !fresh,
      ignored,
      ...(ignoredReason ? { ignoredReason } : {}),
      ...(conflict ? { conflict: true } : {}),
    };
  }

  return router;
}
