import { MAX_REDELIVER_BATCH } from '../../outbound/service';
import { ENDPOINT_CREATE_SCHEMA, ENDPOINT_PATCH_SCHEMA, OUTBOUND_ACCESS_SCHEMA, REDELIVER_FAILED_SCHEMA } from '../../contracts/bodies';
import {
  authErrors,
  bearer,
  bodyErrors,
  count,
  cursorParam,
  dateTime,
  headers,
  json,
  jsonBody,
  limitParam,
  nextCursor,
  nullableDateTime,
  nullableString,
  pathParam,
  problemRef,
  record,
  ref,
  type OpenApiPart,
  type Schema,
} from './common';
import { outboundEventSchemas } from './webhooks';

const tags = ['outbound webhooks (private preview)'];
const slug = pathParam('slug', 'App slug');
const id = pathParam('id', 'Endpoint id (ep_…)');
const preview = {
  400: problemRef('Not a slug (invalid_id)'),
  ...authErrors,
  403: problemRef(
    'The token does not grant the app, or the app has no early access (code outbound_preview: private preview, says how to ask)',
  ),
  404: problemRef('Unknown app or endpoint'),
};
const manualLimit = {
  ...problemRef('Over OUTBOUND_WEBHOOKS_MANUAL_PER_MINUTE for the endpoint (3x for the app)'),
  headers: headers.retryAfter,
};
const ENDPOINT: Schema = record({
  id: { type: 'string', pattern: '^ep_[0-9A-Z]{26}$' },
  url: { type: 'string', format: 'uri' },
  eventTypes: { type: ['array', 'null'], items: { type: 'string' }, description: 'Only these types; null: every type' },
  description: { type: 'string' },
  disabled: { type: 'boolean' },
  disabledReason: {
    enum: ['user', 'gone', 'failing', null],
    description: 'user, gone (the receiver answered 410) or failing (every delivery failed for days)',
  },
  failingSince: { ...nullableDateTime, description: 'First failed attempt since the last success' },
  createdAt: dateTime,
  updatedAt: dateTime,
  previousSecretValidUntil: { ...nullableDateTime, description: 'While a rotated-out secret still signs too' },
});
const secret: Schema = { type: 'string', pattern: '^whsec_', description: 'The signing secret; shown this once' };

/** What the delivery log and a delivery's own resource both say about it. */
const DELIVERY: Record<string, Schema> = {
  id: { type: 'string', description: 'msg_…, the webhook-id' },
  eventId: { type: 'string' },
  eventType: { type: 'string' },
  status: { enum: ['pending', 'succeeded', 'failed'] },
  createdAt: dateTime,
  nextRetryAt: nullableDateTime,
};

const ATTEMPT: Record<string, Schema> = {
  attempt: { type: 'integer', minimum: 1 },
  at: dateTime,
  statusCode: { type: ['integer', 'null'], description: "The receiver's status; null when no answer came" },
  latencyMs: { type: ['integer', 'null'] },
  error: { ...nullableString, description: 'Why no answer came (timeout, refused address, …)' },
  nextRetryAt: nullableDateTime,
};
const deliveryStarted = record({ deliveryId: { type: 'string', description: 'The delivery (its webhook-id, msg_…)' } });

/** Outbound webhooks (routes/outbound.ts): early access, endpoints, the delivery log and redelivery. */
export const outboundPart: OpenApiPart = {
  schemas: {
    ...outboundEventSchemas,
    OutboundAccess: record({ slug: { type: 'string' }, outboundAccess: { type: 'boolean' }, contactEmail: nullableString }),
    Endpoint: ENDPOINT,
    EndpointCreated: {
      ...ENDPOINT,
      required: [...(ENDPOINT.required as string[]), 'secret'],
      properties: { ...(ENDPOINT.properties as Record<string, Schema>), secret },
    },
    EndpointList: record({ endpoints: { type: 'array', items: ref('Endpoint') } }),
    SecretRotated: record({ secret, previousSecretValidUntil: { ...dateTime, description: 'The previous secret also signs until then' } }),
    DeliveryAttempt: record(ATTEMPT),
    DeliveryAttemptWithAnswer: record({
      ...ATTEMPT,
      responseBody: {
        ...nullableString,
        description:
          'The first responseBodyLimitBytes of the answer, whole characters; null: no answer, or logged before answers were kept',
      },
      responseBodyTruncated: { type: 'boolean', description: 'The answer was longer' },
    }),
    Delivery: record({
      ...DELIVERY,
      attempts: { type: 'array', items: ref('DeliveryAttempt'), description: 'Most recent last; at most 50' },
    }),
    DeliveryPage: record({ deliveries: { type: 'array', items: ref('Delivery') }, nextCursor }),
    DeliveryDetail: record({
      ...DELIVERY,
      request: record({
        url: { type: 'string', description: "The endpoint's URL now" },
        headers: record({ 'content-type': { const: 'application/json' }, 'webhook-id': { type: 'string' } }),
        body: { type: 'string', description: 'The payload byte for byte as sent and signed (JSON text)' },
      }),
      attempts: { type: 'array', items: ref('DeliveryAttemptWithAnswer'), description: 'Most recent last; at most 50' },
      responseBodyLimitBytes: { type: 'integer', description: 'How much of each answer is kept (4096)' },
    }),
    DeliveryStarted: deliveryStarted,
    RedeliveryStarted: record({
      redelivered: { ...count, description: 'Deliveries started again' },
      inProgress: { ...count, description: 'Failed ones whose previous run had not closed yet' },
      limit: { const: MAX_REDELIVER_BATCH, description: 'At most this many per call; call again with a later since for more' },
    }),
  },
  paths: {
    '/v1/apps/{slug}/outbound-access': {
      put: {
        summary: 'Outbound webhooks on or off for an app (admin)',
        tags,
        security: bearer,
        parameters: [slug],
        requestBody: jsonBody(OUTBOUND_ACCESS_SCHEMA),
        responses: {
          200: json('The access now', ref('OutboundAccess')),
          400: problemRef('Invalid body or slug'),
          ...authErrors,
          404: problemRef('Unknown app'),
          ...bodyErrors,
        },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints': {
      post: {
        summary: 'Register an endpoint',
        description: 'Its signing secret (whsec_…) is shown this once. At most 10 per app.',
        tags,
        security: bearer,
        parameters: [slug],
        requestBody: jsonBody(ENDPOINT_CREATE_SCHEMA),
        responses: {
          201: json('The endpoint and its secret', ref('EndpointCreated'), headers.location),
          ...preview,
          400: problemRef('Invalid body or slug'),
          409: problemRef('Already 10 endpoints (too_many_endpoints)'),
          ...bodyErrors,
          422: problemRef('URL refused (unsafe_url): not https, or a private, loopback, link-local or metadata address'),
        },
      },
      get: {
        summary: "The app's endpoints",
        tags,
        security: bearer,
        parameters: [slug],
        responses: { 200: json('The endpoints', ref('EndpointList')), ...preview },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}': {
      get: {
        summary: 'One endpoint',
        tags,
        security: bearer,
        parameters: [slug, id],
        responses: { 200: json('The endpoint', ref('Endpoint')), ...preview },
      },
      patch: {
        summary: 'Change an endpoint',
        description: 'url, eventTypes, description, or disabled (enabling again starts the failing streak over).',
        tags,
        security: bearer,
        parameters: [slug, id],
        requestBody: jsonBody(ENDPOINT_PATCH_SCHEMA),
        responses: {
          200: json('The endpoint', ref('Endpoint')),
          ...preview,
          400: problemRef('Invalid body or slug'),
          ...bodyErrors,
          422: problemRef('URL refused (unsafe_url)'),
        },
      },
      delete: {
        summary: 'Delete an endpoint',
        tags,
        security: bearer,
        parameters: [slug, id],
        responses: { 204: { description: 'Deleted' }, ...preview },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}/secret/rotate': {
      post: {
        summary: 'New signing secret',
        description: 'Shown once; the previous one also signs until previousSecretValidUntil.',
        tags,
        security: bearer,
        parameters: [slug, id],
        responses: { 200: json('The new secret and previousSecretValidUntil', ref('SecretRotated')), ...preview },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}/deliveries': {
      get: {
        summary: 'Delivery log, newest first',
        description: 'Every delivery with its attempts: status code, latency, error and next retry.',
        tags,
        security: bearer,
        parameters: [slug, id, limitParam(100, 20), cursorParam],
        responses: { 200: json('A page of deliveries', ref('DeliveryPage')), ...preview, 400: problemRef('Bad limit, cursor or slug') },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}/deliveries/{deliveryId}': {
      get: {
        summary: 'One delivery, with what was sent and what came back',
        description: 'The request as sent (URL, webhook-id, the body byte for byte) and each attempt with the first 4 KiB of the answer.',
        tags,
        security: bearer,
        parameters: [slug, id, pathParam('deliveryId', 'Delivery id (msg_…, the webhook-id)')],
        responses: {
          200: json('The delivery', ref('DeliveryDetail')),
          ...preview,
          400: problemRef('Not a delivery id, or not a slug'),
          404: problemRef('Unknown app, endpoint or delivery'),
        },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}/test': {
      post: {
        summary: 'Send a test event',
        description: `An event of type WEBHOOK_TEST to this endpoint.`,
        tags,
        security: bearer,
        parameters: [slug, id],
        responses: {
          202: json('The delivery started', ref('DeliveryStarted')),
          ...preview,
          409: problemRef('Endpoint disabled'),
          429: manualLimit,
        },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver': {
      post: {
        summary: 'Deliver one delivery again',
        description: 'The same webhook-id, so receivers deduplicate it.',
        tags,
        security: bearer,
        parameters: [slug, id, pathParam('deliveryId', 'Delivery id (msg_…, the webhook-id)')],
        responses: {
          202: json('Started', ref('DeliveryStarted')),
          ...preview,
          400: problemRef('Not a delivery id, or not a slug'),
          409: problemRef('Endpoint disabled, or the delivery is still being attempted'),
          429: manualLimit,
        },
      },
    },
    '/v1/apps/{slug}/webhook-endpoints/{id}/redeliver-failed': {
      post: {
        summary: 'Deliver failed deliveries again',
        description: `Every failed delivery created since a time, at most ${MAX_REDELIVER_BATCH} per call.`,
        tags,
        security: bearer,
        parameters: [slug, id],
        requestBody: jsonBody(REDELIVER_FAILED_SCHEMA),
        responses: {
          202: json('How many were started', ref('RedeliveryStarted')),
          ...preview,
          400: problemRef('Invalid body or slug'),
          409: problemRef('Endpoint disabled'),
          ...bodyErrors,
          429: manualLimit,
        },
      },
    },
  },
};
