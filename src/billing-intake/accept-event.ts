import { isKnownEventType, type BillingEvent } from '../billing/provider-events';
import { resolveSubscriberIds, workflowIdFor, type BillingScope } from '../billing/subscriber-id';
import { eventKey, type WebhookEventRepository, type WebhookEventRecord } from '../store/webhook-events';
import type { EventForwarder } from './event-forwarder';

/** The inbox could not take the event: nothing was acknowledged, and the provider's retry brings it again. */
export class InboxUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the webhook inbox could not store the event', { cause });
  }
}

export interface Accepted {
  /** False for a redelivery of an event id already in the inbox. */
  fresh: boolean;
  /** Recorded with no effect: an unknown type, a TEST event, or one that names no subscriber. */
  ignored: boolean;
}

/**
 * Accepts a validated provider event into the durable inbox and hands it to the relay. Once this resolves the
 * event can no longer be lost, so the receiver may acknowledge it; a redelivery resolves with `fresh: false`.
 */
export class EventIntake {
  constructor(
    private readonly events: WebhookEventRepository,
    private readonly forwarder: EventForwarder,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async accept(scope: BillingScope, event: BillingEvent): Promise<Accepted> {
    const ids = resolveSubscriberIds(event);
    const ignored = !isKnownEventType(event.type) || event.type === 'TEST' || ids === null;
    const record: WebhookEventRecord = {
      _id: eventKey(scope, event.id),
      scope,
      eventId: event.id,
      type: event.type,
      workflowId: ignored ? null : workflowIdFor(scope, ids!.primary),
      subscriberId: ignored ? null : ids!.primary,
      eventJson: JSON.stringify(event),
      receivedAt: this.now(),
      acceptedBy: this.forwarder.instanceId,
      ignored,
      deliveries: 1,
    };
    const ticket = this.forwarder.accepting(record.receivedAt);
    try {
      const fresh = await this.events.accept(record);
      // A redelivery is forwarded again too: the first delivery may have been stored and then answered 503 (the
      // driver saw an error after the insert committed), so nothing may have relayed it. The subscriber
      // workflow applies an event id once, so a second forward has no second effect.
      if (!ignored) this.forwarder.forwardSoon(record);
      return { fresh, ignored };
    } catch (err) {
      throw new InboxUnavailableError(err);
    } finally {
      this.forwarder.accepted(ticket);
    }
  }
}
