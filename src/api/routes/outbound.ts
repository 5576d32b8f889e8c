import Router from '@koa/router';
import type { Context } from 'koa';
import type { Registry } from 'prom-client';
import { Counter } from 'prom-client';
import { OutboundRefused, type EndpointInput } from '../../outbound/service';
import { signingSecrets } from '../../outbound/signing';
import { ENDPOINT_CREATE_SCHEMA, ENDPOINT_PATCH_SCHEMA, OUTBOUND_ACCESS_SCHEMA, REDELIVER_FAILED_SCHEMA } from '../../contracts/bodies';
import type { AppRecord } from '../../store/apps';
import {
  MAX_ENDPOINTS_PER_APP,
  MAX_RESPONSE_BODY_KEPT,
  type AttemptRecord,
  type DeliveryRecord,
  type EndpointRecord,
  type OutboundCounters,
} from '../../store/outbound';
import { canReadApp } from '../access/auth';
import { cursorCodec, parseLimit } from '../http/cursor';
import { listPage } from '../http/pagination';
import type { AppDeps } from '../deps';
import { checkId } from '../http/ids';
import { API_BODY_LIMIT } from '../http/limits';
import { authenticate, principalOf, requireAdmin } from '../access/authenticate';
import { jsonBody } from '../middleware/json-body';
import { badRequest, conflict, forbidden, HttpProblem, notFound, unprocessable } from '../http/problem';
import { validate } from '../http/validation';

const DELIVERY_CURSOR = cursorCodec({ createdAt: 'date', id: 'string' });

const ENDPOINT_ID = /^ep_[0-9A-Z]{26}$/;
const DELIVERY_ID = /^msg_[A-Za-z0-9_-]{1,64}$/;

/** Outbound webhooks (private preview): HTTP for the outbound service (src/outbound/service.ts) and the delivery log. */
export function outboundRoutes(deps: AppDeps): Router {
  const { apps, outboundEndpoints: endpoints, outboundDeliveries: deliveries } = deps.repos;
  const service = deps.outbound;
  const now = deps.now;
  const cfg = deps.config.outbound;
  const auth = authenticate(deps.config.jwt);
  const body = jsonBody(API_BODY_LIMIT);
  const router = new Router();

  router.put('/v1/apps/:slug/outbound-access', auth, body, async (ctx) => {
    requireAdmin(ctx);
    const slug = checkId(ctx.params.slug!, 'slug');
    const b = validate<{ enabled: boolean; contactEmail?: string | null }>(OUTBOUND_ACCESS_SCHEMA, ctx.state.body);
    const app = await service.setAccess(slug, b.enabled, b.contactEmail);
    if (!app) throw notFound('unknown_app', `App "${slug}" does not exist`);
    ctx.body = { slug, outboundAccess: app.outboundAccess === true, contactEmail: app.outboundContactEmail ?? null };
  });

  const base = '/v1/apps/:slug/webhook-endpoints';

  router.post(base, auth, body, async (ctx) => {
    const app = await appWithAccess(ctx);
    const b = validate<EndpointInput & { url: string }>(ENDPOINT_CREATE_SCHEMA, ctx.state.body);
    const record = await refusals(() => service.createEndpoint(app._id, b));
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
    const { endpoint } = await endpointOf(ctx);
    const b = validate<EndpointInput>(ENDPOINT_PATCH_SCHEMA, ctx.state.body);
    ctx.body = present(await refusals(() => service.updateEndpoint(endpoint, b)));
  });

  router.delete(`${base}/:id`, auth, async (ctx) => {
    const { app, endpoint } = await endpointOf(ctx);
    await endpoints.remove(app._id, endpoint._id);
    ctx.status = 204;
  });

  router.post(`${base}/:id/secret/rotate`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    ctx.body = await service.rotateSecret(endpoint);
  });

  router.get(`${base}/:id/deliveries`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const limit = parseLimit(ctx.query.limit, 20, 100);
    const before = DELIVERY_CURSOR.decode(ctx.query.cursor);
    const { items, nextCursor } = await listPage({
      limit,
      read: (rows) => deliveries.page(endpoint._id, rows, before),
      present: presentDelivery,
      cursorOf: (last) => DELIVERY_CURSOR.encode({ createdAt: last.createdAt, id: last._id }),
      budgetBytes: Infinity,
    });
    ctx.body = { deliveries: items, nextCursor };
  });

  // One delivery with what was sent (the body byte for byte, as signed) and what the receiver answered each time.
  router.get(`${base}/:id/deliveries/:deliveryId`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const deliveryId = checkDeliveryId(ctx.params.deliveryId!);
    const delivery = await deliveries.get(endpoint._id, deliveryId);
    if (!delivery) throw unknownDelivery(deliveryId);
    ctx.body = {
      ...presentDelivery(delivery),
      request: { url: endpoint.url, headers: { 'content-type': 'application/json', 'webhook-id': delivery._id }, body: delivery.body },
      attempts: delivery.attempts.map((a) => ({
        ...presentAttempt(a),
        responseBody: a.responseBody ?? null,
        responseBodyTruncated: a.responseBodyTruncated ?? false,
      })),
      responseBodyLimitBytes: MAX_RESPONSE_BODY_KEPT,
    };
  });

  router.post(`${base}/:id/test`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const deliveryId = await refusals(() => service.sendTest(endpoint));
    ctx.status = 202;
    ctx.body = { deliveryId };
  });

  router.post(`${base}/:id/deliveries/:deliveryId/redeliver`, auth, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const deliveryId = checkDeliveryId(ctx.params.deliveryId!);
    if (!(await refusals(() => service.redeliver(endpoint, deliveryId)))) throw unknownDelivery(deliveryId);
    ctx.status = 202;
    ctx.body = { deliveryId };
  });

  router.post(`${base}/:id/redeliver-failed`, auth, body, async (ctx) => {
    const { endpoint } = await endpointOf(ctx);
    const b = validate<{ since: string }>(REDELIVER_FAILED_SCHEMA, ctx.state.body);
    const since = new Date(b.since);
    if (Number.isNaN(since.getTime()))
      throw badRequest('invalid_input', 'since must be an ISO 8601 date-time', [{ path: '/since', message: 'must be a date-time' }]);
    const outcome = await refusals(() => service.redeliverFailed(endpoint, since));
    ctx.status = 202;
    // inProgress: marked failed but its workflow had not closed yet (or was restarted by another call).
    ctx.body = outcome;
  });

  return router;

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

function checkDeliveryId(id: string): string {
  if (!DELIVERY_ID.test(id)) throw badRequest('invalid_id', 'deliveryId is not a delivery id');
  return id;
}

const unknownDelivery = (id: string) => notFound('unknown_delivery', `No delivery "${id}" for this endpoint`);

/** The service's refusals as the problems the API documents. */
async function refusals<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    throw problemOf(err);
  }
}

function problemOf(err: OutboundRefused): HttpProblem {
  const r = err.refusal;
  switch (r.kind) {
    case 'unsafe_url':
      return unprocessable(
        'unsafe_url',
        r.reason === 'host does not resolve'
          ? 'The endpoint URL is refused: its host does not resolve'
          : `The endpoint URL is refused: ${r.reason}`,
        [{ path: '/url', message: r.reason }],
      );
    case 'too_many_endpoints':
      return conflict('too_many_endpoints', `An app has at most ${MAX_ENDPOINTS_PER_APP} webhook endpoints; delete one first`);
    case 'endpoint_disabled':
      return conflict('endpoint_disabled', 'The endpoint is disabled; enable it first');
    case 'delivery_in_progress':
      return conflict('delivery_in_progress', 'This delivery is still being attempted');
    case 'rate_limited':
      return new HttpProblem(
        429,
        'rate_limited',
        `More than ${r.perMinute} test events or redeliveries a minute for this endpoint (${3 * r.perMinute} for the app)`,
        {
          headers: { 'Retry-After': String(r.retryAfterSeconds) },
        },
      );
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
  const read = () =>
    (latest ??= counters
      .read()
      .catch(() => null)
      .finally(() => setTimeout(() => (latest = null), 0)));
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
