import type { Db, IndexDescription } from 'mongodb';
import type { BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

/**
 * The durable inbox of provider deliveries. An event is acknowledged only after its insert succeeds; the
 * unique _id (scope + event id) makes redeliveries detectable and their effect nil. `forwardedAt` is the
 * outbox marker: null until the event has reached its subscriber's workflow.
 */
export interface WebhookEventRecord {
  _id: string;
  scope: BillingScope;
  eventId: string;
  type: string;
  /** Null when the event is recorded only (unknown type, no subscriber named). */
  workflowId: string | null;
  subscriberId: string | null;
  /**
   * The event exactly as received, as JSON text: provider payloads carry member names such as `$email` that
   * MongoDB-compatible stores may refuse as field names, and the original must be kept verbatim anyway.
   */
  eventJson: string;
  receivedAt: Date;
  forwardedAt: Date | null;
  ignored: boolean;
  deliveries: number;
}

export const parseStoredEvent = (record: Pick<WebhookEventRecord, 'eventJson'>): BillingEvent => JSON.parse(record.eventJson) as BillingEvent;

export const eventKey = (scope: BillingScope, eventId: string) => `${scope}|${eventId}`;

export class WebhookEventRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<WebhookEventRecord>(COLLECTIONS.webhookEvents);
  }

  /** Inserts the event; false when this (scope, event id) was already accepted. */
  async accept(record: WebhookEventRecord): Promise<boolean> {
    try {
      await this.coll.insertOne(record);
      return true;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      await this.coll.updateOne({ _id: record._id }, { $inc: { deliveries: 1 } }).catch(() => undefined);
      return false;
    }
  }

  /** By _id alone: the cheapest write any MongoDB-wire store offers (FerretDB scans on any other filter). */
  async markForwarded(id: string, now: Date): Promise<void> {
    await this.coll.updateOne({ _id: id }, { $set: { forwardedAt: now } });
  }

  /** Accepted events that have not reached their workflow and were received before `olderThan`. */
  pending(olderThan: Date, limit: number): Promise<WebhookEventRecord[]> {
    return this.coll
      .find({ forwardedAt: null, ignored: false, receivedAt: { $lt: olderThan } })
      .sort({ receivedAt: 1 })
      .limit(limit)
      .toArray();
  }

  get(scope: BillingScope, eventId: string): Promise<WebhookEventRecord | null> {
    return this.coll.findOne({ _id: eventKey(scope, eventId) });
  }
}

export const WEBHOOK_EVENT_INDEXES: IndexDescription[] = [
  { key: { forwardedAt: 1, ignored: 1, receivedAt: 1 }, name: 'outbox_pending' },
  { key: { scope: 1, subscriberId: 1, receivedAt: -1 }, name: 'by_subscriber' },
];
