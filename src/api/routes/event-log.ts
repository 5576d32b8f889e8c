import Router from '@koa/router';
import type { Context } from 'koa';
import type { BillingScope } from '../../billing/subscriber-id';
import {
  EVENT_LOG_OUTCOMES,
  IGNORED_REASONS,
  REFUSAL_REASONS,
  UNATTRIBUTED,
  type EventLogBucket,
  type EventLogEntry,
  type EventLogOutcome,
} from '../../store/event-log';
import { isAdmin } from '../access/auth';
import { requestedScope, workflowLinker } from '../access/billing-scope';
import { cursorCodec, parseLimit } from '../http/cursor';
import type { AppDeps } from '../deps';
import { authenticate, principalOf } from '../access/authenticate';
import { listPage } from '../http/pagination';
import { timelineEntryBody } from '../resources/timeline-entry';
import { badRequest, forbidden, notFound } from '../http/problem';
import { validate } from '../http/validation';

/** The event log's query parameters (limit is checked by parseLimit, app by the scope). */
export const EVENT_LOG_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    outcome: { enum: EVENT_LOG_OUTCOMES, description: 'accepted, duplicate, ignored, conflict or rejected' },
    reason: {
      enum: [...IGNORED_REASONS, ...REFUSAL_REASONS],
      description: 'Why it was ignored or refused (see EventLogEntry.reason)',
    },
    type: { type: 'string', minLength: 1, maxLength: 100, description: 'The event type, as sent (RENEWAL, …)' },
    subscriber: {
      type: 'string',
      minLength: 1,
      maxLength: 512,
      description: 'A customer id the event named (the record it went to, its app_user_id or original_app_user_id)',
    },
    since: { type: 'string', format: 'date-time', description: 'Deliveries from this time on' },
    until: { type: 'string', format: 'date-time', description: 'Deliveries before this time' },
    unattributed: {
      enum: ['true'],
      description: 'Admins: the deliveries no app can be named for (an unknown app, no app parameter), instead of a scope',
    },
    cursor: { type: 'string', maxLength: 500 },
  },
} as const;

interface EventLogParams {
  outcome?: EventLogOutcome;
  reason?: string;
  type?: string;
  subscriber?: string;
  since?: string;
  until?: string;
  unattributed?: 'true';
}

const CURSOR = cursorCodec({ at: 'date', id: 'string' });
/** A delivery's id (a ULID), or a counted refusal's (a digest): anything else names no entry. */
const ENTRY_ID = /^evl_(?:[0-9A-HJKMNP-TV-Z]{26}|n[0-9a-f]{26})$/;

/**
 * The event log (store/event-log.ts): every webhook delivery to a scope's receiver and what became of it,
 * newest first, read like the rest of the billing dashboard (a token with the app, or an admin; no app = the
 * operator scope; the unattributed bucket for admins).
 */
export function eventLogRoutes(deps: AppDeps): Router {
  const { apps, eventLog, webhookEvents, deadLetters, subscribers, billingTimeline } = deps.repos;
  const router = new Router();
  router.use('/v1/billing/events', authenticate(deps.config.jwt));

  async function bucketOf(ctx: Context): Promise<EventLogBucket> {
    if (ctx.query.unattributed === undefined) return requestedScope(ctx, apps);
    if (!isAdmin(principalOf(ctx))) throw forbidden('Deliveries no app can be named for are for administrators');
    if (ctx.query.app !== undefined)
      throw badRequest('invalid_input', 'unattributed and app exclude each other', [{ path: '/app', message: 'not with unattributed' }]);
    return UNATTRIBUTED;
  }

  const links = (bucket: EventLogBucket, e: EventLogEntry) => {
    if (bucket === UNATTRIBUTED) return { customer: null, timelineEntry: null, self: `/v1/billing/events/${e._id}?unattributed=true` };
    const app = bucket === 'operator' ? '' : `?app=${encodeURIComponent(bucket.slice(4))}`;
    const customer = e.subscriberId ? `/v1/billing/customers/${encodeURIComponent(e.subscriberId)}${app}` : null;
    return {
      customer,
      timelineEntry:
        e.subscriberId && e.eventId && e.outcome !== 'rejected'
          ? `/v1/billing/customers/${encodeURIComponent(e.subscriberId)}/timeline/${encodeURIComponent(e.eventId)}${app}`
          : null,
      self: `/v1/billing/events/${e._id}${app}`,
    };
  };

  /** An entry as this caller sees it (Temporal UI links for admins only). */
  const present = (ctx: Context, bucket: EventLogBucket) => {
    const workflowLink = workflowLinker(deps.config.temporal, principalOf(ctx));
    return (e: EventLogEntry) => ({
      id: e._id,
      bucket: e.bucket,
      at: e.at,
      lastAt: e.lastAt,
      count: e.count,
      outcome: e.outcome,
      status: e.status,
      reason: e.reason,
      detail: e.detail,
      endpoint: e.endpoint,
      app: e.app,
      eventId: e.eventId,
      type: e.type,
      subscriberId: e.subscriberId,
      workflowId: e.workflowId,
      workflowUrl: e.workflowId ? workflowLink(e.workflowId) : null,
      deadLetterId: e.deadLetterId,
      bodyBytes: e.bodyBytes,
      links: links(bucket, e),
    });
  };

  router.get('/v1/billing/events', async (ctx) => {
    const bucket = await bucketOf(ctx);
    const query = validate<EventLogParams>(EVENT_LOG_QUERY_SCHEMA, { ...ctx.query }, 'Query');
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const before = CURSOR.decode(ctx.query.cursor);
    const read = (rows: number) =>
      eventLog.list(bucket, {
        outcome: query.outcome,
        reason: query.reason,
        type: query.type,
        subscriber: query.subscriber,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
        limit: rows,
        before,
      });
    const { items, nextCursor } = await listPage({
      limit,
      read,
      present: present(ctx, bucket),
      cursorOf: (last) => CURSOR.encode({ at: last.at, id: last._id }),
    });
    ctx.body = { bucket, events: items, nextCursor };
  });

  router.get('/v1/billing/events/:id', async (ctx) => {
    const bucket = await bucketOf(ctx);
    const id = ctx.params.id!;
    const e = ENTRY_ID.test(id) ? await eventLog.get(bucket, id) : null;
    if (!e) throw notFound('unknown_event_log_entry', `No delivery "${id.slice(0, 80)}" in the event log of ${bucket}`);
    const scope: BillingScope | null = bucket === UNATTRIBUTED ? null : bucket;
    ctx.body = { ...present(ctx, bucket)(e), ...(await bodyOf(scope, e)), timeline: await timelineOf(scope, e) };
  });

  /** What was delivered: an accepted event's body from the inbox, a conflicting one's from its dead letter. */
  async function bodyOf(scope: BillingScope | null, e: EventLogEntry) {
    if (scope && e.eventId && ['accepted', 'duplicate', 'ignored'].includes(e.outcome)) {
      const stored = await webhookEvents.get(scope, e.eventId);
      if (stored) return { body: JSON.parse(stored.eventJson) as unknown, bodySource: 'inbox', bodyExcerpt: null };
      return { body: null, bodySource: 'expired', bodyExcerpt: null };
    }
    if (e.outcome === 'conflict' && e.deadLetterId) {
      const parked = await deadLetters.get(e.deadLetterId);
      if (parked) return { body: JSON.parse(parked.payload) as unknown, bodySource: 'dead_letter', bodyExcerpt: null };
    }
    return { body: null, bodySource: e.bodyExcerpt === null ? null : 'excerpt', bodyExcerpt: e.bodyExcerpt };
  }

  /** The entry the event made on its customer's timeline (the customer as it is now, through merges). */
  async function timelineOf(scope: BillingScope | null, e: EventLogEntry) {
    if (!scope || !e.subscriberId || !e.eventId || e.outcome === 'rejected') return null;
    const customer = await subscribers.resolve(scope, e.subscriberId);
    const entry = customer ? await billingTimeline.entry(scope, customer.subscriberId, e.eventId) : null;
    return entry && { customerId: customer!.subscriberId, entry: timelineEntryBody(entry) };
  }

  return router;
}
