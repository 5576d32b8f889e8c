import { SUBSCRIPTION_DOWNGRADED, WEBHOOK_TEST } from '../../outbound/payload';
import { dateTime, nullable, record, ref, type Schema } from './common';

const header = (description: string) => ({ description, required: true, schema: { type: 'string' } });

/**
 * What an app's registered endpoints receive (outbound/payload.ts, signed as Standard Webhooks): the OpenAPI
 * 3.1 `webhooks` section and its payload components.
 */
export const outboundEventSchemas: Record<string, Schema> = {
  OutboundEvent: record({
    type: {
      type: 'string',
      description: `The provider event's type, ${SUBSCRIPTION_DOWNGRADED} when a scheduled downgrade takes effect, ${WEBHOOK_TEST} for a test event`,
    },
    id: { type: 'string', description: 'The provider event id, or a derived one for downgrades and tests' },
    timestamp: { ...dateTime, description: 'When the delivery was created; the same on every retry' },
    data: record({
      subscriber: record({ id: { type: 'string' }, aliases: { type: 'array', items: { type: 'string' } } }),
      state: record({
        status: { enum: ['active', 'cancelled', 'expired', 'none'] },
        entitlements: {
          type: 'array',
          items: record({
            id: { type: 'string' },
            productId: { type: ['string', 'null'] },
            expiresAtMs: { type: ['integer', 'null'], description: 'Epoch milliseconds; null: no end' },
          }),
        },
        scheduledDowngrade: nullable(
          record({
            atMs: { type: 'integer', description: 'Epoch milliseconds' },
            reason: { type: 'string', description: 'CANCELLATION, EXPIRATION or SUBSCRIPTION_PAUSED' },
            eventId: { type: 'string' },
            subscriptionKey: { type: 'string' },
          }),
        ),
      }),
      event: { ...nullable(ref('ProviderEvent')), description: "The provider's event as received; null for a downgrade or a test" },
    }),
  }),
};

export const outboundWebhooks = {
  billingEvent: {
    post: {
      operationId: 'receiveBillingEvent',
      summary: "A subscriber's billing event, sent to an app's endpoints",
      description:
        "Sent to every enabled endpoint of the app whose eventTypes include the type, retried with backoff on failure (a 410 disables the endpoint). Verify the signature with the endpoint's whsec_ secret (Standard Webhooks).",
      // A tag of its own: openapi-generator writes one API file per tag, and under the outbound routes' tag this
      // operation replaced their file.
      tags: ['outbound webhook deliveries'],
      security: [],
      parameters: [
        { name: 'webhook-id', in: 'header', ...header('The delivery id (msg_…); the same on every retry: deduplicate on it') },
        { name: 'webhook-timestamp', in: 'header', ...header('Seconds since the epoch of this attempt') },
        {
          name: 'webhook-signature',
          in: 'header',
          ...header('v1,<base64 HMAC-SHA256> per signing secret, space-separated (two during a rotation)'),
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('OutboundEvent') } } },
      responses: {
        200: { description: 'Any 2xx: delivered' },
        410: { description: 'Gone: the endpoint is disabled, no retry' },
        default: { description: 'Any other answer (or none within the timeout): retried later' },
      },
    },
  },
};
