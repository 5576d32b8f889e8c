import Router from '@koa/router';
import type { Context } from 'koa';
import { retryability } from '../../billing-intake/dead-letters';
import { DISCARD_SCHEMA } from '../../contracts/bodies';
import type { DeadLetterRecord, DeadLetterStatus } from '../../store/dead-letters';
import { requestedScope, workflowLinker } from '../access/billing-scope';
import { cursorCodec, parseLimit } from '../http/cursor';
import { listPage } from '../http/pagination';
import type { AppDeps } from '../deps';
import { authenticate, principalOf, requireAdmin } from '../access/authenticate';
import { jsonBody } from '../middleware/json-body';
import { API_BODY_LIMIT } from '../http/limits';
import { validate } from '../http/validation';
import { HttpProblem, badRequest, conflict, notFound } from '../http/problem';
import { TEMPORAL_CALL_TIMEOUT_MS } from '../../temporal/failures';
import { mapTemporalError } from '../http/temporal-errors';

const CURSOR = cursorCodec({ parkedAt: 'date', id: 'string' });

const STATUSES = ['parked', 'retried', 'discarded', 'all'] as const;
const DEAD_LETTER_ID = /^dl_[0-9a-f]{32}$/;

/**
 * Billing work that failed for good, parked instead of retried forever: read like the rest of the billing
 * dashboard (a token with the app, or an admin), retried by admins once the cause is fixed.
 */
export function deadLetterRoutes(deps: AppDeps): Router {
  const { apps } = deps.repos;
  const service = deps.deadLetters;
  const router = new Router();
  router.use('/v1/billing/dead-letters', authenticate(deps.config.jwt));

  /** A dead letter as this caller sees it (Temporal UI links for admins only). */
  const presenter = (ctx: Context) => {
    const workflowLink = workflowLinker(deps.config.temporal, principalOf(ctx));
    return (r: DeadLetterRecord) => ({
      id: r._id,
      scope: r.scope,
      stage: r.stage,
      status: r.status,
      eventId: r.eventId,
      type: r.type,
      subscriberId: r.subscriberId,
      reason: r.reason,
      parkedAt: r.parkedAt,
      attempts: r.attempts,
      retriedAt: r.retriedAt,
      workflowId: r.workflowId,
      workflowUrl: r.workflowId ? workflowLink(r.workflowId) : null,
      retryable: retryability(r).retryable,
      notRetryableReason: retryability(r).why,
      discardedAt: r.discardedAt ?? null,
      discardReason: r.discardReason ?? null,
      discardedBy: r.discardedBy ?? null,
    });
  };

  router.get('/v1/billing/dead-letters', async (ctx) => {
    const scope = await requestedScope(ctx, apps);
    const status = ctx.query.status ?? 'parked';
    if (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status)) {
      throw badRequest('invalid_input', `status must be one of ${STATUSES.join(', ')}`, [
        { path: '/status', message: `must be one of ${STATUSES.join(', ')}` },
      ]);
    }
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const after = CURSOR.decode(ctx.query.cursor);
    const { items, nextCursor } = await listPage({
      limit,
      read: (rows) => service.list(scope, { status: status === 'all' ? undefined : (status as DeadLetterStatus), limit: rows, after }),
      present: presenter(ctx),
      cursorOf: (last) => CURSOR.encode({ parkedAt: last.parkedAt, id: last._id }),
      budgetBytes: Infinity,
    });
    ctx.body = { scope, deadLetters: items, nextCursor };
  });

  router.post('/v1/billing/dead-letters/:id/retry', async (ctx) => {
    requireAdmin(ctx, 'Retrying a dead letter');
    const id = ctx.params.id!;
    if (!DEAD_LETTER_ID.test(id)) throw notFound('unknown_dead_letter', `No dead letter "${id.slice(0, 80)}"`);
    let result;
    try {
      result = await deps.temporal.client.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () => service.retry(id));
    } catch (err) {
      throw mapTemporalError(err, `Dead letter ${id}`);
    }
    switch (result.outcome) {
      case 'not_found':
        throw notFound('unknown_dead_letter', `No dead letter "${id}"`);
      case 'not_parked':
        throw conflict(
          'dead_letter_not_parked',
          `Dead letter ${id} was already retried at ${result.record.retriedAt?.toISOString() ?? 'an earlier time'}`,
        );
      case 'refused':
        throw new HttpProblem(422, 'retry_refused', `The retry was refused again and stays parked: ${result.reason}`);
      case 'retried':
        ctx.status = 202;
        ctx.body = presenter(ctx)(result.record);
    }
  });

  // A record no retry can help (a conflicting body, one that keeps failing for a reason that will not go away) is
  // put aside with the operator's reason: it leaves the parked list and the /metrics gauge, and stays readable.
  router.post('/v1/billing/dead-letters/:id/discard', jsonBody(API_BODY_LIMIT), async (ctx) => {
    requireAdmin(ctx, 'Discarding a dead letter');
    const id = ctx.params.id!;
    if (!DEAD_LETTER_ID.test(id)) throw notFound('unknown_dead_letter', `No dead letter "${id.slice(0, 80)}"`);
    const { reason } = validate<{ reason: string }>(DISCARD_SCHEMA, ctx.state.body ?? {});
    const result = await service.discard(id, reason.trim(), principalOf(ctx).sub);
    switch (result.outcome) {
      case 'not_found':
        throw notFound('unknown_dead_letter', `No dead letter "${id}"`);
      case 'not_parked':
        throw conflict('dead_letter_not_parked', `Dead letter ${id} is ${result.record.status}, not parked`);
      case 'discarded':
        ctx.body = presenter(ctx)(result.record);
    }
  });

  return router;
}
