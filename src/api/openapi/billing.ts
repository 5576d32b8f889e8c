import { ENVELOPE_SCHEMA } from '../../billing/provider-events';
import { APP_BODY_SCHEMA } from '../../contracts/bodies';
import { APP_WEBHOOK_PATH, OPERATOR_WEBHOOK_PATH } from '../../contracts/webhook-paths';
import { CUSTOMER_LIST_QUERY_SCHEMA } from '../routes/billing-dashboard';
import { authErrors, bearer, json, jsonBody, pathParam, problemRef, queryParam, type Paths } from './common';

/** The customer list's filters, sort and search, described by the schema the route validates them with. */
function customerListParams(names: (keyof typeof CUSTOMER_LIST_QUERY_SCHEMA.properties)[]) {
  return names.map((name) => {
    const { description, ...schema } = CUSTOMER_LIST_QUERY_SCHEMA.properties[name] as { description: string };
    return queryParam(name, description, schema);
  });
}

const ack = json('Durably accepted (exactly 200)', {
  type: 'object',
  required: ['received', 'eventId', 'duplicate', 'ignored'],
  properties: {
    received: { const: true },
    eventId: { type: 'string' },
    duplicate: { type: 'boolean' },
    ignored: { type: 'boolean' },
    ignoredReason: {
      enum: ['unknown_type', 'test_event', 'no_subscriber'],
      description: 'With ignored: true, why the event has no effect: a type this service does not know (acknowledged so the provider does not retry it), a TEST event, or an event that names no subscriber',
    },
    conflict: {
      const: true,
      description: 'Present on a redelivered event id whose body differs from the first one accepted: the first stands, this body is parked as an intake dead letter and never applied',
    },
  },
});

const webhookResponses = {
  200: ack,
  400: problemRef('Malformed JSON, or no event.id / event.type'),
  401: problemRef('Missing or wrong Authorization (no hint which)'),
  413: problemRef('Body over 256 KiB'),
  415: problemRef('Body is not application/json'),
  503: problemRef('Could not be stored; the provider retries'),
};

export const billingPaths: Paths = {
  [APP_WEBHOOK_PATH]: {
    post: {
      summary: "Billing-provider webhook for a customer app's subscribers",
      tags: ['billing'],
      security: [{ webhookAuthorization: [] }],
      parameters: [queryParam('app', 'The app slug', { type: 'string' }, true)],
      requestBody: jsonBody(ENVELOPE_SCHEMA),
      responses: webhookResponses,
    },
  },
  [OPERATOR_WEBHOOK_PATH]: {
    post: {
      summary: "Billing-provider webhook for the operator's own subscriptions (orgs and projects)",
      tags: ['billing'],
      security: [{ webhookAuthorization: [] }],
      requestBody: jsonBody(ENVELOPE_SCHEMA),
      responses: webhookResponses,
    },
  },
  '/v1/apps': {
    post: {
      summary: 'Connect a customer app; the webhook authorization value is shown this once (admin)',
      tags: ['billing'],
      security: bearer,
      requestBody: jsonBody(APP_BODY_SCHEMA),
      responses: { 201: json('The app, its webhookUrl and authorization'), 400: problemRef('Invalid body'), ...authErrors, 409: problemRef('Slug taken (app_exists), or kept by a deleted app whose billing records remain under it (app_slug_retired)') },
    },
    get: { summary: 'Connected apps (admin)', tags: ['billing'], security: bearer, responses: { 200: json('The apps'), ...authErrors } },
  },
  '/v1/apps/{slug}': {
    get: {
      summary: 'One app (admin)',
      tags: ['billing'],
      security: bearer,
      parameters: [pathParam('slug', 'App slug')],
      responses: { 200: json('The app'), ...authErrors, 404: problemRef('Unknown app') },
    },
    delete: {
      summary: 'Disconnect an app: its webhook stops authorizing (admin)',
      tags: ['billing'],
      security: bearer,
      parameters: [pathParam('slug', 'App slug')],
      responses: { 204: { description: 'Removed' }, ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/apps/{slug}/webhook-authorization/rotate': {
    post: {
      summary:
        'New webhook authorization value (admin). The value rotated out keeps working until previousValidUntil, and values earlier rotations left in grace keep theirs (at most 5); revokePrevious=true revokes them all at once',
      tags: ['billing'],
      security: bearer,
      parameters: [
        pathParam('slug', 'App slug'),
        queryParam('revokePrevious', 'true: no grace for any earlier value (one that leaked); previousValidUntil is then now', { type: 'string', enum: ['true', 'false'] }),
      ],
      responses: { 200: json('The new value (shown once) and previousValidUntil'), 400: problemRef('revokePrevious is not true or false'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/billing/metrics': {
    get: {
      summary: 'MRR and counts of a scope (no app = operator scope, admins only)',
      tags: ['billing'],
      security: bearer,
      parameters: [queryParam('app', 'App slug; omit for the operator scope')],
      responses: { 200: json('The totals'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/billing/customers': {
    get: {
      summary: 'Customers of a scope',
      tags: ['billing'],
      security: bearer,
      parameters: [
        queryParam('app', 'App slug; omit for the operator scope'),
        ...customerListParams(['status', 'flagged', 'store', 'environment', 'sort', 'q']),
        queryParam('limit', '1-200 (default 50)', { type: 'integer' }),
        queryParam('cursor', 'nextCursor of the previous page (of the same sort)'),
      ],
      responses: { 200: json('A page of customers'), 400: problemRef('Bad filter'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/billing/customers/{id}': {
    get: {
      summary: 'One customer; any alias resolves to the merged customer',
      tags: ['billing'],
      security: bearer,
      parameters: [pathParam('id', 'Any app user id or alias'), queryParam('app', 'App slug; omit for the operator scope')],
      responses: { 200: json('The customer'), ...authErrors, 404: problemRef('Unknown app or customer') },
    },
  },
  '/v1/billing/dead-letters': {
    get: {
      summary: 'Billing work parked after failing for good (a redelivery whose body conflicts with the first under its id, an event Temporal refused, an event the reducer could not apply, an effect that kept failing), newest first',
      tags: ['billing'],
      security: bearer,
      parameters: [
        queryParam('app', 'App slug; omit for the operator scope'),
        queryParam('status', 'parked (default) | retried | all', { enum: ['parked', 'retried', 'all'] }),
        queryParam('limit', '1-200 (default 50)', { type: 'integer' }),
        queryParam('cursor', 'nextCursor of the previous page'),
      ],
      responses: { 200: json('A page of dead letters: { scope, deadLetters: [{ id, stage, status, eventId, type, subscriberId, reason, parkedAt, attempts, retriedAt, workflowId, workflowUrl }], nextCursor }'), 400: problemRef('Bad filter or cursor'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/billing/dead-letters/{id}/retry': {
    post: {
      summary: 'Hand a dead letter back to its subscriber workflow (admin): the event again, or the effect to carry out again',
      tags: ['billing'],
      security: bearer,
      parameters: [pathParam('id', 'The dead letter id (dl_…)')],
      responses: {
        202: json('Handed back; status is now retried (failing again parks it again)'),
        ...authErrors,
        404: problemRef('Unknown dead letter'),
        409: problemRef('Already retried (dead_letter_not_parked)'),
        422: problemRef('Refused (retry_refused): Temporal refused it again, or it is an intake conflict, which is never applied; it stays parked'),
        503: problemRef('Temporal unreachable; nothing was done'),
      },
    },
  },
};
