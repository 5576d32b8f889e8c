import type { BillingScope } from '../../../src/billing/subscriber-id';
import type { WebhookEventRecord } from '../../../src/store/webhook-events';
import { providerEvent } from '../../support/provider-events';

/** The inbox record of event `n` of one subscriber, as the intake stores it, for the relay's unit tests. */
export function inboxRecord(scope: BillingScope, subscriber: string, n: number, type = 'RENEWAL'): WebhookEventRecord {
  const event = providerEvent(type, subscriber, { at: Date.UTC(2026, 0, 1) + n, id: `${subscriber}-${n}` });
  return {
    _id: `${scope}|${event.id}`,
    scope,
    eventId: event.id,
    type: event.type,
    workflowId: `billing/${scope}/${subscriber}`,
    subscriberId: subscriber,
    eventJson: JSON.stringify(event),
    receivedAt: new Date(Date.UTC(2026, 0, 1) + n),
    acceptedBy: 'test',
    ignored: false,
    deliveries: 1,
  };
}
