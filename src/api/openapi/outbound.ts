import { ENDPOINT_CREATE_SCHEMA, ENDPOINT_PATCH_SCHEMA, OUTBOUND_ACCESS_SCHEMA, REDELIVER_FAILED_SCHEMA } from '../routes/outbound';
import { authErrors, bearer, json, jsonBody, pathParam, problemRef, queryParam, type Paths } from './common';

const tags = ['outbound webhooks (private preview)'];
const slug = pathParam('slug', 'App slug');
const id = pathParam('id', 'Endpoint id (ep_…)');
const preview = {
  ...authErrors,
  403: problemRef('The token does not grant the app, or the app has no early access (code outbound_preview: private preview, says how to ask)'),
  404: problemRef('Unknown app or endpoint'),
};

export const outboundPaths: Paths = {
  '/v1/apps/{slug}/outbound-access': {
    put: {
      summary: 'Turn outbound webhooks (private preview) on or off for an app (admin)',
      tags,
      security: bearer,
      parameters: [slug],
      requestBody: jsonBody(OUTBOUND_ACCESS_SCHEMA),
      responses: { 200: json('The access now'), 400: problemRef('Invalid body'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/apps/{slug}/webhook-endpoints': {
    post: {
      summary: 'Register an endpoint; its signing secret (whsec_…) is shown this once. At most 10 per app',
      tags,
      security: bearer,
      parameters: [slug],
      requestBody: jsonBody(ENDPOINT_CREATE_SCHEMA),
      responses: {
        201: json('The endpoint and its secret'),
        400: problemRef('Invalid body'),
        ...preview,
        409: problemRef('Already 10 endpoints (too_many_endpoints)'),
        422: problemRef('URL refused (unsafe_url): not https, or a private, loopback, link-local or metadata address'),
      },
    },
    get: { summary: "The app's endpoints", tags, security: bearer, parameters: [slug], responses: { 200: json('The endpoints'), ...preview } },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}': {
    get: { summary: 'One endpoint', tags, security: bearer, parameters: [slug, id], responses: { 200: json('The endpoint'), ...preview } },
    patch: {
      summary: 'Change url, eventTypes, description, or disable / enable',
      tags,
      security: bearer,
      parameters: [slug, id],
      requestBody: jsonBody(ENDPOINT_PATCH_SCHEMA),
      responses: { 200: json('The endpoint'), 400: problemRef('Invalid body'), ...preview, 422: problemRef('URL refused (unsafe_url)') },
    },
    delete: { summary: 'Delete an endpoint', tags, security: bearer, parameters: [slug, id], responses: { 204: { description: 'Deleted' }, ...preview } },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}/secret/rotate': {
    post: {
      summary: 'New signing secret (shown once); the previous one also signs until previousSecretValidUntil',
      tags,
      security: bearer,
      parameters: [slug, id],
      responses: { 200: json('The new secret and previousSecretValidUntil'), ...preview },
    },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}/deliveries': {
    get: {
      summary: 'Delivery log, newest first: every attempt with status code, latency, error and next retry',
      tags,
      security: bearer,
      parameters: [slug, id, queryParam('limit', '1-100 (default 20)', { type: 'integer' }), queryParam('cursor', 'nextCursor of the previous page')],
      responses: { 200: json('A page of deliveries'), 400: problemRef('Bad limit or cursor'), ...preview },
    },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}/deliveries/{deliveryId}': {
    get: {
      summary: 'One delivery: the request as sent (url, headers, the body byte for byte) and each attempt with the first 4 KiB of what the receiver answered (responseBody, responseBodyTruncated)',
      tags,
      security: bearer,
      parameters: [slug, id, pathParam('deliveryId', 'Delivery id (msg_…, the webhook-id)')],
      responses: { 200: json('The delivery'), 400: problemRef('Bad id'), ...preview },
    },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}/test': {
    post: {
      summary: 'Send a test event (type WEBHOOK_TEST)',
      tags,
      security: bearer,
      parameters: [slug, id],
      responses: { 202: json('The delivery id'), ...preview, 409: problemRef('Endpoint disabled'), 429: problemRef('Over OUTBOUND_WEBHOOKS_MANUAL_PER_MINUTE for the endpoint (3x for the app); see Retry-After') },
    },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver': {
    post: {
      summary: 'Deliver one delivery again (same webhook-id)',
      tags,
      security: bearer,
      parameters: [slug, id, pathParam('deliveryId', 'Delivery id (msg_…, the webhook-id)')],
      responses: { 202: json('Started'), 400: problemRef('Bad id'), ...preview, 409: problemRef('Endpoint disabled, or the delivery is still being attempted'), 429: problemRef('Over OUTBOUND_WEBHOOKS_MANUAL_PER_MINUTE for the endpoint (3x for the app); see Retry-After') },
    },
  },
  '/v1/apps/{slug}/webhook-endpoints/{id}/redeliver-failed': {
    post: {
      summary: 'Deliver again every failed delivery created since a time (at most 500 per call)',
      tags,
      security: bearer,
      parameters: [slug, id],
      requestBody: jsonBody(REDELIVER_FAILED_SCHEMA),
      responses: { 202: json('How many were started'), 400: problemRef('Invalid body'), ...preview, 409: problemRef('Endpoint disabled'), 429: problemRef('Over OUTBOUND_WEBHOOKS_MANUAL_PER_MINUTE for the endpoint (3x for the app); see Retry-After') },
    },
  },
};
