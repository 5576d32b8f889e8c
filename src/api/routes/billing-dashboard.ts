import Router from '@koa/router';
import { customerResource } from '../../billing/customer-resource';
import type { BillingScope } from '../../billing/subscriber-id';
import { metricsWorkflowId } from '../../contracts/workflows/billing-metrics';
import type { Context } from 'koa';
import { sumGroups, type DayGroup } from '../../billing/event-series';
import { mrrAmount } from '../../billing/metrics';
import { microsToUsd } from '../../billing/mrr';
import { utcDay } from '../../store/billing-daily';
import type { SubscriberRecord } from '../../store/subscribers';
import { requestedScope, workflowLinker } from '../access/billing-scope';
import { cursorCodec, parseLimit } from '../http/cursor';
import type { AppDeps } from '../deps';
import { authenticate, principalOf } from '../access/authenticate';
import { listPage } from '../http/pagination';
import { timelineEntryBody } from '../resources/timeline-entry';
import { badRequest, notFound } from '../http/problem';
import { validate } from '../http/validation';
import {
  CUSTOMER_ENVIRONMENTS,
  CUSTOMER_SORTS,
  CUSTOMER_STATUSES,
  sortOf,
  PRODUCT_MAX_LENGTH,
  STORE_PATTERN,
  type CustomerSort,
  type CustomerStatusFilter,
} from '../../store/customer-list';

/** The customer list's query parameters (limit is checked by parseLimit, app by the scope). */
export const CUSTOMER_LIST_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    status: {
      enum: CUSTOMER_STATUSES,
      description: 'active, trial (entitled by a trial period), cancelled (access until the period ends), billing_issue, expired, none',
    },
    flagged: { enum: ['true', 'false'], description: 'true: only customers with a billing issue; false: only those without' },
    store: {
      type: 'string',
      pattern: STORE_PATTERN,
      description: "A store one of the customer's subscriptions is from, as the provider spells it (APP_STORE, PLAY_STORE, STRIPE, ...)",
    },
    environment: { enum: CUSTOMER_ENVIRONMENTS, description: "An environment one of the customer's subscriptions is in" },
    product: {
      type: 'string',
      minLength: 1,
      maxLength: PRODUCT_MAX_LENGTH,
      description: "A product one of the customer's subscriptions is of (the provider's product_id)",
    },
    sort: {
      enum: CUSTOMER_SORTS,
      default: 'id',
      description:
        'id, mrr (MRR contribution) or lastEvent (provider time of the last applied event); a leading - sorts descending; ties in id order',
    },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'Customers whose id starts with this (case-sensitive), in id order (sort id or -id); the answer then also has exactMatch: the customer this names exactly (an id or any alias, through merges, in any case; or a transaction id of one of its purchases), or null, and exactMatchBy',
    },
    cursor: { type: 'string', maxLength: 500 },
  },
} as const;

interface CustomerListParams {
  status?: CustomerStatusFilter;
  flagged?: 'true' | 'false';
  store?: string;
  environment?: string;
  product?: string;
  sort?: CustomerSort;
  q?: string;
  cursor?: string;
}

/** The event charts' period and filters (billing/event-series.ts). */
export const EVENT_TRENDS_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    days: { enum: ['30', '90', '365'], default: '30', description: '30, 90 or 365 days, ending today' },
    store: { type: 'string', pattern: STORE_PATTERN, description: 'Events from this store only' },
    product: { type: 'string', minLength: 1, maxLength: PRODUCT_MAX_LENGTH, description: 'Events of this product only' },
    environment: {
      enum: ['PRODUCTION', 'SANDBOX', 'ALL'],
      description: 'Default: everything but the sandbox (its purchases are not money); ALL for both',
    },
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'Events from this country only (ISO 3166 alpha-2)' },
  },
} as const;

interface EventTrendParams {
  days?: '30' | '90' | '365';
  store?: string;
  product?: string;
  environment?: string;
  country?: string;
}

/** The customer list's cursors: the id order keeps the one it always had; the others name their sort, and the key of mrr and lastEvent. */
const CUSTOMER_CURSOR = {
  id: cursorCodec({ after: 'string' }),
  sorted: cursorCodec({ sort: 'string', id: 'string' }),
  keyed: cursorCodec({ sort: 'string', key: 'integer', id: 'string' }),
};

function customerCursor(raw: string | undefined, sort: CustomerSort): { key?: number; id: string } | undefined {
  if (sort === 'id') {
    const c = CUSTOMER_CURSOR.id.decode(raw);
    return c && { id: c.after };
  }
  const c = CUSTOMER_CURSOR.sorted.decode(raw);
  if (!c) return undefined;
  if (c.sort !== sort) throw badRequest('invalid_cursor', `cursor belongs to another sort (${c.sort}); start again without it`);
  if (sortOf(sort).field === '_id') return { id: c.id };
  const { key } = CUSTOMER_CURSOR.keyed.decode(raw)!;
  return { key, id: c.id };
}

function nextCustomerCursor(last: SubscriberRecord, sort: CustomerSort): string {
  if (sort === 'id') return CUSTOMER_CURSOR.id.encode({ after: last._id });
  const { field } = sortOf(sort);
  if (field === '_id') return CUSTOMER_CURSOR.sorted.encode({ sort, id: last._id });
  return CUSTOMER_CURSOR.keyed.encode({ sort, key: Number(last[field] ?? 0), id: last._id });
}

const DOWNGRADE_CURSOR = cursorCodec({ at: 'date', id: 'string' });
const TIMELINE_CURSOR = cursorCodec({ position: 'integer', id: 'string' });

/** The billing dashboard's data: a token with the app in `apps` (or an admin); no `app` means the operator scope, admins only. */
export function billingDashboardRoutes(deps: AppDeps): Router {
  const { apps, billingTotals: totals, subscribers, billingDaily: daily, billingTimeline: timeline } = deps.repos;
  const router = new Router();
  router.use('/v1/billing', authenticate(deps.config.jwt));

  const scopeOf = (ctx: Context) => requestedScope(ctx, apps);
  const workflowLink = (ctx: Context) => workflowLinker(deps.config.temporal, principalOf(ctx));

  /** A customer as this caller sees it (Temporal UI links for admins only). */
  const presenter = (ctx: Context) => {
    const link = workflowLink(ctx);
    return (r: SubscriberRecord) => ({
      ...customerResource(r.view, r.workflowId),
      subscriptions: r.view.subscriptions,
      summary: r.summary,
      workflowUrl: link(r.workflowId),
      updatedAt: r.updatedAt,
    });
  };

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
      metricsWorkflowUrl: workflowLink(ctx)(metricsWorkflowId(scope)),
    };
  });

  router.get('/v1/billing/customers', async (ctx) => {
    const scope = await scopeOf(ctx);
    const query = validate<CustomerListParams>(CUSTOMER_LIST_QUERY_SCHEMA, { ...ctx.query }, 'Query');
    const sort = query.sort ?? 'id';
    // A prefix is a range of ids: it keeps id order. Another order would sort every match in memory.
    if (query.q !== undefined && sort !== 'id' && sort !== '-id') {
      throw badRequest('invalid_input', 'q (an id prefix) lists in id order: sort must be id or -id with it', [
        { path: '/sort', message: 'must be id or -id with q' },
      ]);
    }
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const after = customerCursor(query.cursor, sort);
    const read = (rows: number) =>
      subscribers.list(scope, {
        status: query.status,
        flagged: query.flagged === undefined ? undefined : query.flagged === 'true',
        store: query.store,
        environment: query.environment,
        product: query.product,
        idPrefix: query.q,
        sort,
        limit: rows,
        after,
      });
    const present = presenter(ctx);
    const { items, nextCursor } = await listPage({ limit, read, present, cursorOf: (last) => nextCustomerCursor(last, sort) });
    // With q: also the customer q names exactly, which a prefix of ids misses.
    const exact = query.q === undefined ? undefined : await exactMatch(scope, query.q);
    ctx.body = {
      customers: items,
      nextCursor,
      ...(exact === undefined ? {} : { exactMatch: exact && present(exact.record), exactMatchBy: exact?.by ?? null }),
    };
  });

  /**
   * The customer `q` names: an id or alias as written (through merges), else in any case, else a transaction id
   * (a purchase's own or its original) the customer's timeline holds.
   */
  async function exactMatch(scope: BillingScope, q: string): Promise<{ record: SubscriberRecord; by: 'id' | 'transaction' } | null> {
    const record = (await subscribers.resolve(scope, q)) ?? (await subscribers.resolveIgnoringCase(scope, q));
    if (record) return { record, by: 'id' };
    for (const id of await timeline.subscribersByTransaction(scope, q)) {
      const owner = await subscribers.resolve(scope, id);
      if (owner) return { record: owner, by: 'transaction' };
    }
    return null;
  }

  // The console's trends: one point per UTC day from the kept snapshots (billing-daily.ts), never a scan.
  router.get('/v1/billing/trends', async (ctx) => {
    const scope = await scopeOf(ctx);
    const days = ctx.query.days === undefined ? 30 : Number(ctx.query.days);
    if (![30, 90, 365].includes(days))
      throw badRequest('invalid_input', 'days must be 30, 90 or 365', [{ path: '/days', message: 'must be 30, 90 or 365' }]);
    const today = deps.now().getTime();
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

  // The event charts: per day of the provider's event time, from the scope's first event on (never a zero
  // before it), summed over the groups the filters select (billing-event-series.ts).
  router.get('/v1/billing/trends/events', async (ctx) => {
    const scope = await scopeOf(ctx);
    const query = validate<EventTrendParams>(EVENT_TRENDS_QUERY_SCHEMA, { ...ctx.query }, 'Query');
    const days = Number(query.days ?? '30');
    const today = deps.now().getTime();
    const from = utcDay(today - (days - 1) * 86_400_000);
    const first = await timeline.series.firstDay(scope);
    const start = first === null ? null : first > from ? first : from;
    const byDay = start === null ? new Map<string, DayGroup[]>() : await timeline.series.days(scope, start, utcDay(today));
    const filter = { store: query.store, productId: query.product, environment: query.environment, country: query.country };
    const points = [];
    for (let t = start === null ? Infinity : Date.parse(`${start}T00:00:00Z`); t <= today; t += 86_400_000) {
      const day = utcDay(t);
      const d = sumGroups(byDay.get(day) ?? [], filter);
      points.push({
        day,
        revenue: microsToUsd(d.revenueMicros),
        refunds: d.refunds,
        refundAmount: microsToUsd(d.refundMicros),
        newCustomers: d.newCustomers,
        trialStarts: d.trialStarts,
        trialConversions: d.trialConversions,
        expirations: d.expirations,
      });
    }
    // What the filters can name, from the days shown.
    const all = [...byDay.values()].flat();
    const values = (pick: (g: DayGroup) => string | null) =>
      [...new Set(all.map(pick).filter((v): v is string => v !== null))].sort().slice(0, 200);
    ctx.body = {
      scope,
      days,
      currency: 'USD',
      firstDay: first,
      points,
      options: { stores: values((g) => g.store), products: values((g) => g.productId), countries: values((g) => g.country) },
    };
  });

  // Work list: downgrades due within the next N days (soonest first; overdue ones too, they are still pending).
  router.get('/v1/billing/downgrades', async (ctx) => {
    const scope = await scopeOf(ctx);
    const days = ctx.query.days === undefined ? 7 : Number(ctx.query.days);
    if (!Number.isInteger(days) || days < 1 || days > 365)
      throw badRequest('invalid_input', 'days must be an integer from 1 to 365', [{ path: '/days', message: 'must be 1..365' }]);
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const after = DOWNGRADE_CURSOR.decode(ctx.query.cursor);
    const until = new Date(deps.now().getTime() + days * 86_400_000);
    const { items, nextCursor } = await listPage({
      limit,
      read: (rows) => subscribers.downgradesDue(scope, { until, limit: rows, after }),
      present: presenter(ctx),
      cursorOf: (last) => (last.downgradeAt ? DOWNGRADE_CURSOR.encode({ at: last.downgradeAt, id: last._id }) : null),
    });
    ctx.body = { customers: items, nextCursor };
  });

  // One customer's story, newest first: every event applied to it, with what changed (billing-timeline.ts).
  router.get('/v1/billing/customers/:id/timeline', async (ctx) => {
    const scope = await scopeOf(ctx);
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const before = TIMELINE_CURSOR.decode(ctx.query.cursor);
    const record = await subscribers.resolve(scope, ctx.params.id!);
    if (!record) throw unknownCustomer(ctx.params.id!, scope);
    const { items, nextCursor } = await listPage({
      limit,
      read: (rows) => timeline.list(scope, record.subscriberId, { limit: rows, before }),
      present: timelineEntryBody,
      cursorOf: (last) => TIMELINE_CURSOR.encode({ position: last.position, id: last._id }),
    });
    ctx.body = { scope, id: record.subscriberId, entries: items, nextCursor };
  });

  // One event's entry on the customer's timeline (the event log links to it).
  router.get('/v1/billing/customers/:id/timeline/:eventId', async (ctx) => {
    const scope = await scopeOf(ctx);
    const record = await subscribers.resolve(scope, ctx.params.id!);
    if (!record) throw notFound('unknown_customer', `No customer "${ctx.params.id}" in ${scope}`);
    const entry = await timeline.entry(scope, record.subscriberId, ctx.params.eventId!);
    if (!entry)
      throw notFound('unknown_timeline_entry', `No event "${ctx.params.eventId!.slice(0, 80)}" on the timeline of ${record.subscriberId}`);
    ctx.body = { scope, id: record.subscriberId, entry: timelineEntryBody(entry) };
  });

  router.get('/v1/billing/customers/:id', async (ctx) => {
    const scope = await scopeOf(ctx);
    const record = await subscribers.resolve(scope, ctx.params.id!);
    if (!record) throw unknownCustomer(ctx.params.id!, scope);
    // What it paid, was refunded, since when, and from where: from its timeline (billing-timeline.ts).
    ctx.body = { ...presenter(ctx)(record), facts: await timeline.customerFacts(scope, record.subscriberId) };
  });

  return router;
}

// An admin who forgot ?app= reads the operator scope: say so, since the customer is most likely an app's.
function unknownCustomer(id: string, scope: BillingScope) {
  return notFound(
    'unknown_customer',
    scope === 'operator'
      ? `No customer "${id}" in the operator scope (no app parameter given; an app's customer is read with ?app={slug})`
      : `No customer "${id}" in ${scope}`,
  );
}
