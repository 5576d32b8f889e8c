import { ENVELOPE_SCHEMA } from '../../billing/provider-events';
import { APP_WEBHOOK_PATH, OPERATOR_WEBHOOK_PATH } from '../../contracts/webhook-paths';
import { json, jsonBody, problemRef, queryParam, ref, type OpenApiPart, type Schema } from './common';

const tags = ['billing webhooks'];
const { $schema: _dialect, ...envelope } = ENVELOPE_SCHEMA as Schema;
const envelopeMembers = envelope.properties as Record<string, Schema>;

const responses = {
  200: json('Durably accepted (exactly 200: the provider treats any other 2xx as a failure)', ref('WebhookAck')),
  400: problemRef('Malformed JSON, no event.id / event.type (invalid_event), or no ?app= (missing_app)'),
  401: problemRef('Missing or wrong Authorization (no hint which)'),
  413: problemRef('Body over 256 KiB'),
  415: problemRef('Body is not application/json'),
  503: problemRef('Could not be stored (store_unavailable); the provider retries'),
};

/** The billing provider's two receivers (routes/webhooks.ts). */
export const billingWebhookPart: OpenApiPart = {
  schemas: {
    BillingEnvelope: { ...envelope, additionalProperties: true, properties: { ...envelopeMembers, event: ref('ProviderEvent') } },
    // Unknown members are accepted (and kept): the provider adds fields without notice.
    ProviderEvent: { ...envelopeMembers.event!, additionalProperties: true },
    WebhookAck: {
      type: 'object',
      required: ['received', 'eventId', 'duplicate', 'ignored'],
      properties: {
        received: { const: true },
        eventId: { type: 'string' },
        duplicate: { type: 'boolean', description: 'The event id was accepted before: no second effect' },
        ignored: { type: 'boolean' },
        ignoredReason: {
          enum: ['unknown_type', 'test_event', 'no_subscriber'],
          description:
            'With ignored: true, why the event has no effect: a type this service does not know (acknowledged so the provider does not retry it), a TEST event, or an event that names no subscriber',
        },
        // A boolean rather than `const: true`: openapi-python-client 0.29 writes an optional const as invalid Python.
        conflict: {
          type: 'boolean',
          description:
            'Present (and true) on a redelivered event id whose body differs from the first one accepted: the first stands, this body is parked as an intake dead letter and never applied',
        },
      },
    },
  },
  paths: {
    [APP_WEBHOOK_PATH]: {
      post: {
        summary: "Billing-provider webhook for a customer app's subscribers",
        description:
          "Authorization must equal the app's generated value. Answered once the event is durably in the inbox; a redelivered id is 200 with duplicate: true.",
        tags,
        security: [{ webhookAuthorization: [] }],
        parameters: [queryParam('app', 'The app slug', { type: 'string' }, true)],
        requestBody: jsonBody(ref('BillingEnvelope')),
        responses,
      },
    },
    [OPERATOR_WEBHOOK_PATH]: {
      post: {
        summary: "Billing-provider webhook for the operator's own subscriptions",
        description:
          'The subscriptions of orgs and projects; Authorization must equal OPERATOR_WEBHOOK_AUTHORIZATION (unset: every request is 401).',
        tags,
        security: [{ webhookAuthorization: [] }],
        requestBody: jsonBody(ref('BillingEnvelope')),
        responses,
      },
    },
  },
};
