import { createHash } from 'node:crypto';
import { isKnownEventType, type BillingEvent } from '../billing/provider-events';
import { sameEventBody } from '../billing/same-event-body';
import { deadLetterKey } from '../billing/dead-letter-key';
import { resolveSubscriberIds, workflowIdFor, type BillingScope } from '../billing/subscriber-id';
import type { DeadLetterRepository } from '../store/dead-letters';
import type { IGNORED_REASONS } from '../store/event-log';
import { eventKey, parseStoredEvent, type WebhookEventRepository, type WebhookEventRecord } from '../store/webhook-events';
import type { EventForwarder } from './event-forwarder';
import { systemClock, type Clock } from '../config/clock';

/** The inbox could not take the event: nothing was acknowledged, and the provider's retry brings it again. */
export class InboxUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the webhook inbox could not store the event', { cause });
  }
}

/** Why an event is recorded with no effect. */
export type IgnoredReason = (typeof IGNORED_REASONS)[number];

export function ignoredReasonOf(event: BillingEvent, ids = resolveSubscriberIds(event)): IgnoredReason | null {
  if (!isKnownEventType(event.type)) return 'unknown_type';
  if (event.type === 'TEST') return 'test_event';
  return ids === null ? 'no_subscriber' : null;
}

export interface Accepted {
  /** False for a redelivery of an event id already in the inbox. */
  fresh: boolean;
  /** Recorded with no effect: an unknown type, a TEST event, or one that names no subscriber. */
  ignored: boolean;
  ignoredReason: IgnoredReason | null;
  /**
   * A redelivery whose body differs from the one accepted first under its id: the first stands, this one is
   * parked as an `intake` dead letter for operators to inspect and is never applied.
   */
  conflict: boolean;
  /** The record the event (its first body, for a redelivery) is routed to, and its workflow; null when ignored. */
  subscriberId: string | null;
  workflowId: string | null;
  /** When the event id was first accepted. */
  receivedAt: Date;
  /** The intake dead letter a conflicting body was parked as. */
  deadLetterId: string | null;
}

/**
 * Accepts a validated provider event into the durable inbox and hands it to the relay. Once this resolves the
 * event can no longer be lost, so the receiver may acknowledge it; a redelivery resolves with `fresh: false`.
 */
export class EventIntake {
  constructor(
    private readonly events: WebhookEventRepository,
    private readonly forwarder: EventForwarder,
    private readonly deadLetters: DeadLetterRepository,
    private readonly now: Clock = systemClock,
  ) {}

  async accept(scope: BillingScope, event: BillingEvent): Promise<Accepted> {
    const ids = resolveSubscriberIds(event);
    const ignoredReason = ignoredReasonOf(event, ids);
    const ignored = ignoredReason !== null;
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
      const result = await this.events.accept(record);
      if (result.fresh) {
        if (!ignored) await this.owe(record, record.receivedAt);
        return { fresh: true, ignored, ignoredReason, conflict: false, ...routing(record), deadLetterId: null };
      }
      // A redelivery. The body accepted first is the event: only it is ever forwarded, so a second body under the
      // same id (another subscriber, another type) has no effect anywhere.
      const first = result.stored;
      const conflict = !sameEventBody(first.eventJson, record.eventJson);
      const deadLetterId = conflict ? await this.parkConflict(scope, event, first, record) : null;
      // Forwarded again all the same: the first delivery may have been stored and then answered 503 (the driver
      // saw an error after the insert committed), so nothing may have relayed it. The subscriber workflow applies
      // an event id once, so a second forward has no second effect. The inbox insert re-accepted the record for
      // this instance (`reacceptedBy`, at this delivery's receipt time), so should this instance die before
      // relaying it, recovery finds it by this instance's checkpoint; the forward keeps the first receipt time,
      // the event's own (event-time.ts orders by it).
      if (!first.ignored) await this.owe(first, record.receivedAt);
      return {
        fresh: false,
        ignored: first.ignored,
        ignoredReason: first.ignored ? ignoredReasonOf(parseStoredEvent(first)) : null,
        conflict,
        ...routing(first),
        deadLetterId,
      };
    } catch (err) {
      throw new InboxUnavailableError(err);
    } finally {
      this.forwarder.accepted(ticket);
    }
  }

  /**
   * Hands the stored event to the relay, owed from `owedFrom` (its receipt time by this instance), and waits until
   * this instance's checkpoint is sure to stand in the store: a peer may have taken this instance for dead while it
   * stalled and removed it, and an event acknowledged then would be found by no recovery.
   */
  private async owe(record: WebhookEventRecord, owedFrom: Date): Promise<void> {
    this.forwarder.forwardSoon(record, owedFrom);
    await this.forwarder.assureCheckpoint();
  }

  private async parkConflict(
    scope: BillingScope,
    event: BillingEvent,
    first: WebhookEventRecord,
    second: WebhookEventRecord,
  ): Promise<string> {
    const digest = createHash('sha256').update(second.eventJson).digest('hex').slice(0, 32);
    return this.deadLetters.park(
      {
        // One record per distinct second body: the same conflicting delivery again parks into it (attempts + 1).
        key: deadLetterKey({ stage: 'intake', scope, eventId: event.id, digest }),
        scope,
        stage: 'intake',
        eventId: event.id,
        type: typeof event.type === 'string' ? event.type : null,
        subscriberId: first.subscriberId,
        workflowId: first.workflowId,
        reason:
          `Event ${event.id} was delivered again with a different body (type ${second.type}, first accepted as ${first.type} ` +
          `at ${first.receivedAt.toISOString()}). The first body stands; this one is kept here for inspection and is never applied.`,
        payload: second.eventJson,
      },
      this.now(),
    );
  }
}

const routing = (r: WebhookEventRecord) => ({ subscriberId: r.subscriberId, workflowId: r.workflowId, receivedAt: r.receivedAt });
