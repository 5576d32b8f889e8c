import Router from '@koa/router';
import { customerResource } from '../../billing/customer-resource';
import { metricsWorkflowId } from '../../workflows/contracts/billing-metrics';
import type { Context } from 'koa';
import { mrrAmount } from '../../billing/metrics';
import { utcDay } from '../../store/billing-daily';
import type { SubscriberRecord } from '../../store/subscribers';
import { requestedScope, workflowLinker } from '../billing-scope';
import { decodeCursor, encodeCursor, parseLimit } from '../cursor';
import type { AppDeps } from '../deps';
import { authenticate } from '../middleware/authenticate';
import { withinBudget } from '../page-budget';
import { badRequest, notFound } from '../problem';

/** The billing dashboard's data: a token with the app in `apps` (or an admin); no `app` means the operator scope, admins only. */
export function billingDashboardRoutes(deps: AppDeps): Router {
  const { apps, billingTotals: totals, subscribers, billingDaily: daily, billingTimeline: timeline } = deps.repos;
  const router = new Router();
  router.use('/v1/billing', authenticate(deps.config.jwt));

  const scopeOf = (ctx: Context) => requestedScope(ctx, apps);
  const workflowLink = workflowLinker(deps.config.temporal);

  const present = (r: SubscriberRecord) => ({
    ...customerResource(r.view, r.workflowId),
    subscriptions: r.view.subscriptions,
    summary: r.summary,
    workflowUrl: workflowLink(r.workflowId),
    updatedAt: r.updatedAt,
  });

  router.get('/v1/billing/metrics', async (ctx) => {
    const scope = await scopeOf(ctx);
    const { totals: t, updatedAt } = await totals.get(scope);
    ctx.body = {
      scope,
      mrr: mrrAmount(t),
      activeSubscriptions: t.activeSubscriptions,
      activeTrials: t.activeTrials,
      flaggedCustomers: t.flaggedCustomers,
      scheduledDowngrades: t.scheduledDowngrades,
      updatedAt,
      metricsWorkflowUrl: workflowLink(metricsWorkflowId(scope)),
    };
  });

  router.get('/v1/billing/customers', async (ctx) => {
    const scope = await scopeOf(ctx);
    const { flagged, status } = ctx.query;
    if (flagged !== undefined && flagged !== 'true' && flagged !== 'false') throw badRequest('invalid_input', 'flagged must be true or false');
    if (status !== undefined && !['active', 'cancelled', 'expired', 'none'].includes(String(status))) {
      throw badRequest('invalid_input', 'status must be one of active, cancelled, expired, none');
    }
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const cursor = decodeCursor(typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined, ['after'] as const);
    const rows = await subscribers.list(scope, {
      flagged: flagged === undefined ? undefined : flagged === 'true',
      status: status as string | undefined,
      limit: limit + 1,
      after: cursor?.after,
    });
    const page = rows.slice(0, limit);
    const { items, taken } = withinBudget(page, present);
    const last = page[taken - 1];
    const more = rows.length > limit || taken < page.length;
    ctx.body = { customers: items, nextCursor: more && last ? encodeCursor({ after: last._id }) : null };
  });

  // The console's trends: one point per UTC day from the kept snapshots (billing-daily.ts), never a scan.
  router.get('/v1/billing/trends', async (ctx) => {
    const scope = await scopeOf(ctx);
    const days = ctx.query.days === undefined ? 30 : Number(ctx.query.days);
    if (![30, 90, 365].includes(days)) throw badRequest('invalid_input', 'days must be 30, 90 or 365', [{ path: '/days', message: 'must be 30, 90 or 365' }]);
    const today = Date.now();
    const points = await daily.series(scope, utcDay(today - (days - 1) * 86_400_000), utcDay(today));
    ctx.body = {
      scope,
      days,
      currency: 'USD',
      points: points.map((p) => ({
        day: p.day,
        mrr: mrrAmount(p).amount,
        activeSubscriptions: p.activeSubscriptions,
        activeTrials: p.activeTrials,
        flaggedCustomers: p.flaggedCustomers,
        scheduledDowngrades: p.scheduledDowngrades,
        churned: p.churned,
      })),
    };
  });

  // Work list: downgrades due within the next N days (soonest first; overdue ones too, they are still pending).
  router.get('/v1/billing/downgrades', async (ctx) => {
    const scope = await scopeOf(ctx);
    const days = ctx.query.days === undefined ? 7 : Number(ctx.query.days);
    if (!Number.isInteger(days) || days < 1 || days > 365) throw badRequest('invalid_input', 'days must be an integer from 1 to 365', [{ path: '/days', message: 'must be 1..365' }]);
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const cursor = decodeCursor(typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined, ['at', 'id'] as const);
    const after = cursor ? { at: new Date(cursor.at), id: cursor.id } : undefined;
    if (after && Number.isNaN(after.at.getTime())) throw badRequest('invalid_cursor', 'cursor is not one this API returned');
    const rows = await subscribers.downgradesDue(scope, { until: new Date(Date.now() + days * 86_400_000), limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const { items, taken } = withinBudget(page, present);
    const last = page[taken - 1];
    const more = rows.length > limit || taken < page.length;
    ctx.body = {
      customers: items,
      nextCursor: more && last?.downgradeAt ? encodeCursor({ at: last.downgradeAt.toISOString(), id: last._id }) : null,
    };
  });

  // One customer's story, newest first: every event applied to it, with what changed (billing-timeline.ts).
  router.get('/v1/billing/customers/:id/timeline', async (ctx) => {
    const scope = await scopeOf(ctx);
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const cursor = decodeCursor(typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined, ['position', 'id'] as const);
    const before = cursor ? { position: Number(cursor.position), id: cursor.id } : undefined;
    if (before && !Number.isSafeInteger(before.position)) throw badRequest('invalid_cursor', 'cursor is not one this API returned');
    const record = await subscribers.resolve(scope, ctx.params.id!);
    if (!record) throw notFound('unknown_customer', `No customer "${ctx.params.id}" in ${scope}`);
    const rows = await timeline.list(scope, record.subscriberId, { limit: limit + 1, before });
    const page = rows.slice(0, limit);
    const { items, taken } = withinBudget(page, (e) => ({
      eventId: e.eventId,
      type: e.type,
      providerAt: e.providerAt,
      receivedAt: e.receivedAt,
      appliedAt: e.appliedAt,
      version: e.version,
      before: e.before,
      after: e.after,
    }));
    const last = page[taken - 1];
    const more = rows.length > limit || taken < page.length;
    ctx.body = {
      scope,
      id: record.subscriberId,
      entries: items,
      nextCursor: more && last ? encodeCursor({ position: String(last.position), id: last._id }) : null,
    };
  });

  router.get('/v1/billing/customers/:id', async (ctx) => {
    const scope = await scopeOf(ctx);
    const record = await subscribers.resolve(scope, ctx.params.id!);
    if (!record) throw notFound('unknown_customer', `No customer "${ctx.params.id}" in ${scope}`);
    ctx.body = present(record);
  });

  return router;
}
