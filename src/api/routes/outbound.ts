import Router from '@koa/router';
import type { Context } from 'koa';
import type { Registry } from 'prom-client';
import { Counter } from 'prom-client';
import { ulid } from 'ulid';
import { bodyOf, WEBHOOK_TEST } from '../../outbound/payload';
import { generateEndpointSecret, messageIdFor, signingSecrets } from '../../outbound/signing';
import { startDelivery } from '../../temporal/clients/outbound-delivery';
import { checkUrl, MAX_URL_LENGTH, resolveSafely, UnsafeUrlError } from '../../outbound/url-guard';
import type { AppRecord } from '../../store/apps';
import { MAX_ENDPOINTS_PER_APP, MAX_RESPONSE_BODY_KEPT, pendingDelivery, type AttemptRecord, type DeliveryRecord, type EndpointRecord, type OutboundCounters } from '../../store/outbound';
import { canReadApp } from '../auth';
import { decodeCursor, encodeCursor, parseLimit } from '../cursor';
import type { AppDeps } from '../deps';
import { checkId } from '../ids';
import { API_BODY_LIMIT } from '../limits';
import { authenticate, principalOf, requireAdmin } from '../middleware/authenticate';
import { jsonBody } from '../middleware/json-body';
import { badRequest, conflict, forbidden, HttpProblem, notFound, unprocessable } from '../problem';
import { validate } from '../validation';
import { RateLimiter } from '../../invocations/rate-limit';

const EVENT_TYPE = { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$' } as const;

export const OUTBOUND_ACCESS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: {
    enabled: { type: 'boolean' },
    contactEmail: { type: ['string', 'null'], format: 'email', maxLength: 254, description: 'Emailed when an endpoint is disabled automatically' },
  },
} as const;

const ENDPOINT_PROPERTIES = {
  url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH },
  eventTypes: { type: ['array', 'null'], items: EVENT_TYPE, minItems: 1, maxItems: 32, uniqueItems: true, description: 'Only these types (null or absent: every type)' },
  description: { type: 'string', maxLength: 500 },
  disabled: { type: 'boolean' },
} as const;

export const ENDPOINT_CREATE_SCHEMA = { type: 'object', additionalProperties: false, required: ['url'], properties: ENDPOINT_PROPERTIES } as const;
export const ENDPOINT_PATCH_SCHEMA = { type: 'object', additionalProperties: false, minProperties: 1, properties: ENDPOINT_PROPERTIES } as const;
export const REDELIVER_FAILED_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['since'],
  properties: { since: { type: 'string', format: 'date-time', maxLength: 40 } },
} as const;

const ENDPOINT_ID = /^ep_[0-9A-Z]{26}$/;
const DELIVERY_ID = /^msg_[A-Za-z0-9_-]{1,64}$/;
/** How many failed deliveries one redeliver-failed call starts again; call again with a later `since` for more. */
export const MAX_REDELIVER_BATCH = 500;

type EndpointBody = { url?: string; eventTypes?: string[] | null; description?: string; disabled?: boolean };

/** Outbound webhooks (private preview): early access (admin), endpoints, delivery log and redelivery. */
export function outboundRoutes(deps: AppDeps): Router {
  const { apps, outboundEndpoints: endpoints, outboundDeliveries: deliveries } = deps.repos;
  const now = deps.now;
  const cfg = deps.config.outbound;
  const graceMs = deps.config.webhooks.rotationGraceHours * 3600 * 1000;
  const auth = authenticate(deps.config.jwt);
  const body = jsonBody(API_BODY_LIMIT);
  const router = new Router();
  // Every delivery started by hand runs a workflow that retries for up to a day: bounded per endpoint and per app.
  const perEndpoint = new RateLimiter(cfg.manualPerMinute, 60_000);
  const perApp = new RateLimiter(3 * cfg.manualPerMinute, 60_000);
  const limitManual = (app: string, endpointId: string): void => {
    const at = now().getTime();
    const wait = perEndpoint.hit(endpointId, at) ?? perApp.hit(app, at);
    if (wait !== null) {
      throw new HttpProblem(429, 'rate_limited', `More than ${cfg.manualPerMinute} test events or redeliveries a minute for this endpoint (${3 * cfg.manualPerMinute} for the app)`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
  };

  router.put('/v1/apps/:slug/outbound-access', auth, body, async (ctx) => {
    requireAdmin(ctx);
    const slug = checkId(ctx.params.slug!, 'slug');
    const b = validate<{ enabled: boolean; contactEmail?: string | null }>(OUTBOUND_ACCESS_SCHEMA, ctx.state.body);
    if (!(await apps.setOutboundAccess(slug, b.enabled, b.contactEmail))) throw notFound('unknown_app', `App "${slug}" does not exist`);
    const app = (await apps.get(slug))!;
    ctx.body = { slug, outboundAccess: app.outboundAccess === true, contactEmail: app.outboundContactEmail ?? null };
  });

  const base = '/v1/apps/:slug/webhook-endpoints';

  router.post(base, auth, body, async (ctx) => {
    const app = await appWithAccess(ctx);
    const b = validate<EndpointBody & { url: string }>(ENDPOINT_CREATE_SCHEMA, ctx.state.body);
    await checkEndpointUrl(b.url);
    if ((await endpoints.count(app._id)) >= MAX_ENDPOINTS_PER_APP) {
      throw conflict('too_many_endpoints', `An app has at most ${MAX_ENDPOINTS_PER_APP} webhook endpoints; delete one first`);
    }
    const at = now();
    const record: EndpointRecord = {
      _id: `ep_${ulid()}`,
      app: app._id,
      url: b.url,
      eventTypes: b.eventTypes ?? null,
      description: b.description ?? '',
      disabled: b.disabled ?? false,
      disabledReason: b.disabled ? 'user' : null,
      secret: generateEndpointSecret(),
      previousSecret: null,
      previousSecretValidUntil: null,
      failingSince: null,
      createdAt: at,
      updatedAt: at,
    };
    await endpoints.insert(record);
    // Two registrations racing past the count above: the later one(s) step back, so the limit holds.
    if ((await endpoints.count(app._id)) > MAX_ENDPOINTS_PER_APP) {
      await endpoints.remove(app._id, record._id);
      throw conflict('too_many_endpoints', `An app has at most ${MAX_ENDPOINTS_PER_APP} webhook endpoints; delete one first`);
    }
    ctx.status = 201;
    ctx.set('Location', `/v1/apps/${app._id}/webhook-endpoints/${record._id}`);
    // The only time the secret is shown: the receiver verifies signatures with it.
    ctx.body = { ...present(record), secret: record.secret };
  });

  router.get(base, auth, async (ctx) => {
    const app = await appWithAccess(ctx);
    ctx.body = { endpoints: (await endpoints.list(app._id)).map(present) };
  });

  router.get(`${base}/:id`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    ctx.body = present(endpoint);
  });

  router.patch(`${base}/:id`, auth, body, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    const b = validate<EndpointBody>(ENDPOINT_PATCH_SCHEMA, ctx.state.body);
    if (b.url !== undefined) await checkEndpointUrl(b.url);
    const set: Partial<EndpointRecord> = { updatedAt: now() };
    if (b.url !== undefined) set.url = b.url;
    if (b.eventTypes !== undefined) set.eventTypes = b.eventTypes;
    if (b.description !== undefined) set.description = b.description;
    if (b.disabled !== undefined && b.disabled !== endpoint.disabled) {
      set.disabled = b.disabled;
      set.disabledReason = b.disabled ? 'user' : null;
      // Enabled again: the failing streak starts over, so it is not disabled again at the next failure.
      if (!b.disabled) set.failingSince = null;
    }
    ctx.body = present((await endpoints.update(app._id, endpoint._id, set))!);
  });

  router.delete(`${base}/:id`, auth, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    await endpoints.remove(app._id, endpoint._id);
    ctx.status = 204;
  });

  router.post(`${base}/:id/secret/rotate`, auth, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    const at = now();
    const secret = generateEndpointSecret();
    const previousSecretValidUntil = new Date(at.getTime() + graceMs);
    await endpoints.update(app._id, endpoint._id, { secret, previousSecret: endpoint.secret, previousSecretValidUntil, updatedAt: at });
    ctx.body = { secret, previousSecretValidUntil };
  });

  router.get(`${base}/:id/deliveries`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const limit = parseLimit(ctx.query.limit, 20, 100);
    const raw = ctx.query.cursor;
    if (raw !== undefined && (typeof raw !== 'string' || raw.length > 200)) throw badRequest('invalid_cursor', 'cursor is not one this API returned');
    const cursor = decodeCursor(raw, ['createdAt', 'id'] as const);
    const before = cursor ? { createdAt: new Date(cursor.createdAt), id: cursor.id } : undefined;
    if (before && Number.isNaN(before.createdAt.getTime())) throw badRequest('invalid_cursor', 'cursor is not one this API returned');
    const rows = await deliveries.page(endpoint._id, limit, before);
    const last = rows.at(-1);
    ctx.body = {
      deliveries: rows.map(presentDelivery),
      nextCursor: rows.length === limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last._id }) : null,
    };
  });

  // One delivery with what was sent (the body byte for byte, as signed) and what the receiver answered each time.
  router.get(`${base}/:id/deliveries/:deliveryId`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const deliveryId = ctx.params.deliveryId!;
    if (!DELIVERY_ID.test(deliveryId)) throw badRequest('invalid_id', 'deliveryId is not a delivery id');
    const delivery = await deliveries.get(endpoint._id, deliveryId);
    if (!delivery) throw notFound('unknown_delivery', `No delivery "${deliveryId}" for this endpoint`);
    ctx.body = {
      ...presentDelivery(delivery),
      request: { url: endpoint.url, headers: { 'content-type': 'application/json', 'webhook-id': delivery._id }, body: delivery.body },
      attempts: delivery.attempts.map((a) => ({ ...presentAttempt(a), responseBody: a.responseBody ?? null, responseBodyTruncated: a.responseBodyTruncated ?? false })),
      responseBodyLimitBytes: MAX_RESPONSE_BODY_KEPT,
    };
  });

  router.post(`${base}/:id/test`, auth, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    if (endpoint.disabled) throw conflict('endpoint_disabled', 'The endpoint is disabled; enable it first');
    limitManual(app._id, endpoint._id);
    const at = now();
    const eventId = `test_${ulid()}`;
    const event = {
      type: WEBHOOK_TEST,
      id: eventId,
      data: { subscriber: { id: 'test-subscriber', aliases: ['test-subscriber'] }, state: { status: 'active' as const, entitlements: [], scheduledDowngrade: null }, event: null },
    };
    const id = messageIdFor(endpoint._id, eventId);
    await deliveries.ensure(pendingDelivery({ _id: id, app: app._id, endpointId: endpoint._id, eventId, eventType: WEBHOOK_TEST, body: bodyOf(event, at) }, at));
    await startDelivery(deps.temporal.client, deps.config, { app: app._id, endpointId: endpoint._id, deliveryId: id, eventType: WEBHOOK_TEST }, 'first');
    ctx.status = 202;
    ctx.body = { deliveryId: id };
  });

  router.post(`${base}/:id/deliveries/:deliveryId/redeliver`, auth, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    const deliveryId = ctx.params.deliveryId!;
    if (!DELIVERY_ID.test(deliveryId)) throw badRequest('invalid_id', 'deliveryId is not a delivery id');
    if (endpoint.disabled) throw conflict('endpoint_disabled', 'The endpoint is disabled; enable it first');
    const delivery = await deliveries.get(endpoint._id, deliveryId);
    if (!delivery) throw notFound('unknown_delivery', `No delivery "${deliveryId}" for this endpoint`);
    limitManual(app._id, endpoint._id);
    if (!(await redeliver(app._id, delivery))) throw conflict('delivery_in_progress', 'This delivery is still being attempted');
    ctx.status = 202;
    ctx.body = { deliveryId };
  });

  router.post(`${base}/:id/redeliver-failed`, auth, body, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    const b = validate<{ since: string }>(REDELIVER_FAILED_SCHEMA, ctx.state.body);
    const since = new Date(b.since);
    if (Number.isNaN(since.getTime())) throw badRequest('invalid_input', 'since must be an ISO 8601 date-time', [{ path: '/since', message: 'must be a date-time' }]);
    if (endpoint.disabled) throw conflict('endpoint_disabled', 'The endpoint is disabled; enable it first');
    limitManual(app._id, endpoint._id);
    const failed = await deliveries.failedSince(endpoint._id, since, MAX_REDELIVER_BATCH);
    let started = 0;
    let inProgress = 0;
    for (const f of failed) {
      if (await redeliver(app._id, f)) started++;
      else inProgress++;
    }
    ctx.status = 202;
    // inProgress: marked failed but its workflow had not closed yet (or was restarted by another call).
    ctx.body = { redelivered: started, inProgress, limit: MAX_REDELIVER_BATCH };
  });

  return router;

  async function redeliver(app: string, d: Pick<DeliveryRecord, '_id' | 'endpointId' | 'eventType'>): Promise<boolean> {
    const started = await startDelivery(deps.temporal.client, deps.config, { app, endpointId: d.endpointId, deliveryId: d._id, eventType: d.eventType }, 'again');
    if (started) await deliveries.setStatus(d._id, 'pending', now());
    return started;
  }

  /** The app named in the path, if the token grants it and it has early access; else the matching problem. */
  async function appWithAccess(ctx: Context): Promise<AppRecord> {
    const slug = checkId(ctx.params.slug!, 'slug');
    if (!canReadApp(principalOf(ctx), slug)) throw forbidden(`Your token does not grant app "${slug}"`);
    const app = await apps.get(slug);
    if (!app) throw notFound('unknown_app', `App "${slug}" does not exist`);
    if (!app.outboundAccess) {
      throw new HttpProblem(
        403,
        'outbound_preview',
        `Outbound webhooks are a private preview and are not enabled for app "${slug}". To ask for early access, contact ${cfg.accessContact}; an administrator then enables it (PUT /v1/apps/${slug}/outbound-access).`,
      );
    }
    return app;
  }

  async function endpointOf(ctx: Context): Promise<{ app: AppRecord; endpoint: EndpointRecord }> {
    const app = await appWithAccess(ctx);
    const id = ctx.params.id!;
    if (!ENDPOINT_ID.test(id)) throw notFound('unknown_endpoint', 'No such webhook endpoint');
    const endpoint = await endpoints.get(app._id, id);
    if (!endpoint) throw notFound('unknown_endpoint', `No webhook endpoint "${id}" for app "${app._id}"`);
    return { app, endpoint };
  }

  async function checkEndpointUrl(raw: string): Promise<void> {
    try {
      await resolveSafely(checkUrl(raw, cfg.allowLoopback), cfg.allowLoopback);
    } catch (err) {
      if (err instanceof UnsafeUrlError) throw unprocessable('unsafe_url', `The endpoint URL is refused: ${err.message}`, [{ path: '/url', message: err.message }]);
      // DNS failure: the name does not resolve now; the sender could not reach it either.
      throw unprocessable('unsafe_url', 'The endpoint URL is refused: its host does not resolve', [{ path: '/url', message: 'host does not resolve' }]);
    }
  }

  function present(e: EndpointRecord) {
    const at = now();
    return {
      id: e._id,
      url: e.url,
      eventTypes: e.eventTypes,
      description: e.description,
      disabled: e.disabled,
      disabledReason: e.disabledReason,
      failingSince: e.failingSince,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      previousSecretValidUntil: signingSecrets(e, at).length > 1 ? e.previousSecretValidUntil : null,
    };
  }
}

function presentDelivery(d: Omit<DeliveryRecord, 'body'>) {
  return {
    id: d._id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    createdAt: d.createdAt,
    nextRetryAt: d.nextRetryAt,
    attempts: d.attempts.map(presentAttempt),
  };
}

/** An attempt in the log; what the receiver answered is in the delivery's own resource (GET …/deliveries/{id}). */
function presentAttempt(a: AttemptRecord) {
  return { attempt: a.attempt, at: a.at, statusCode: a.statusCode, latencyMs: a.latencyMs, error: a.error, nextRetryAt: a.nextRetryAt };
}

/** `/metrics` counters of outbound delivery, read from the store at scrape time (workers run in other processes). */
export function registerOutboundMetrics(registry: Registry, counters: OutboundCounters): void {
  let latest: Promise<Awaited<ReturnType<OutboundCounters['read']>> | null> | null = null;
  // One store read per scrape, shared by both metrics.
  const read = () => (latest ??= counters.read().catch(() => null).finally(() => setTimeout(() => (latest = null), 0)));
  new Counter({
    name: 'outbound_webhook_deliveries_total',
    help: 'Outbound webhook delivery attempts by outcome (sent: 2xx; retried: failed, another attempt scheduled; failed: failed for good)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    async collect() {
      const t = await read();
      if (!t) return;
      this.reset();
      for (const outcome of ['sent', 'failed', 'retried'] as const) this.inc({ outcome }, t[outcome]);
    },
  });
  new Counter({
    name: 'outbound_webhook_endpoints_disabled_total',
    help: 'Outbound webhook endpoints disabled automatically (410 Gone, or failing for days)',
    registers: [registry],
    async collect() {
      const t = await read();
      if (!t) return;
      this.reset();
      this.inc(t.disabled);
    },
  });
}
