import type { Db, IndexDescription } from 'mongodb';
import { withPlausibleTime } from '../billing/event-time';
import type { BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

/**
 * The durable inbox of provider deliveries. An event is acknowledged only after its insert succeeds; the
 * unique _id (scope + event id) makes redeliveries detectable and their effect nil. The relay never updates
 * a record: which ones still need relaying is known from the checkpoint (relay-checkpoints.ts) of the instance that
 * acknowledged each, so the hot path costs one insert. Only a redelivery updates one, in the same write that counts
 * it: the instance that acknowledges it owes its relay from then on (`reacceptedBy`, `reacceptedAt`).
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
  /** The API instance that accepted it and is relaying it. */
  acceptedBy: string;
  ignored: boolean;
  deliveries: number;
  /**
   * The instance that acknowledged its latest redelivery, and that delivery's receipt time by its clock (absent
   * until one comes). It owes the event's relay as the first did: the first delivery may have been stored and then
   * answered 503, so that nothing else does, and recovery reads a dead instance's records by these too. A later
   * redelivery takes them over; its instance owes the relay then (or answered other than 200, and the provider
   * delivers again).
   */
  reacceptedBy?: string;
  reacceptedAt?: Date;
}

/** One inbox event, as the timeline reads it. */
export interface EventSummary {
  type: string;
  receivedAt: Date;
  providerAt: Date | null;
  event: BillingEvent;
  orderedAtMs: number;
}

export const parseStoredEvent = (record: Pick<WebhookEventRecord, 'eventJson'>): BillingEvent =>
  JSON.parse(record.eventJson) as BillingEvent;

export const eventKey = (scope: BillingScope, eventId: string) => `${scope}|${eventId}`;

export class WebhookEventRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<WebhookEventRecord>(COLLECTIONS.webhookEvents);
  }

  /**
   * Inserts the event. For a (scope, event id) already accepted, counts the redelivery and re-accepts the record in
   * one write (`reacceptedBy` = `record.acceptedBy`, `reacceptedAt` = `record.receivedAt`), and returns it as it
   * now stands: its first body, type and receipt time.
   */
  async accept(record: WebhookEventRecord): Promise<{ fresh: true } | { fresh: false; stored: WebhookEventRecord }> {
    // Twice at most: a record found by the insert and gone by the update (its retention ran out in between) is
    // inserted again.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.coll.insertOne(record);
        return { fresh: true };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const stored = await this.coll.findOneAndUpdate(
          { _id: record._id },
          { $inc: { deliveries: 1 }, $set: { reacceptedBy: record.acceptedBy, reacceptedAt: record.receivedAt } },
          { returnDocument: 'after' },
        );
        if (stored) return { fresh: false, stored };
        if (attempt > 0) throw new Error(`inbox record ${record._id} is neither insertable nor found`);
      }
    }
  }

  /** What an instance accepted from `since` on and may not have relayed (it died): recovery re-forwards these. */
  acceptedSince(instanceId: string, since: Date, limit: number): Promise<WebhookEventRecord[]> {
    return this.owedSince('acceptedBy', 'receivedAt', instanceId, since, limit);
  }

  /** The redeliveries an instance acknowledged from `since` on (by `reacceptedAt`), as `acceptedSince` for first ones. */
  reacceptedSince(instanceId: string, since: Date, limit: number): Promise<WebhookEventRecord[]> {
    return this.owedSince('reacceptedBy', 'reacceptedAt', instanceId, since, limit);
  }

  /** The unignored records `by` names the instance in, from `since` on by `at`, oldest first (an index each). */
  private owedSince(
    by: 'acceptedBy' | 'reacceptedBy',
    at: 'receivedAt' | 'reacceptedAt',
    instanceId: string,
    since: Date,
    limit: number,
  ): Promise<WebhookEventRecord[]> {
    return this.coll
      .find({ [by]: instanceId, ignored: false, [at]: { $gte: since } })
      .sort({ [at]: 1 })
      .limit(limit)
      .toArray();
  }

  get(scope: BillingScope, eventId: string): Promise<WebhookEventRecord | null> {
    return this.coll.findOne({ _id: eventKey(scope, eventId) });
  }

  /** The records with these ids (the relay reads back what it owes but could not hold in memory). */
  getMany(ids: readonly string[]): Promise<WebhookEventRecord[]> {
    return this.coll.find({ _id: { $in: [...ids] } }).toArray();
  }

  /**
   * Type, receipt and provider time of the scope's events among `eventIds`, the event itself, and the time the
   * reducer orders it by (its provider time when plausible, else its receipt: billing/event-time.ts), in one
   * indexed read by _id.
   */
  async summaries(scope: BillingScope, eventIds: readonly string[]): Promise<Map<string, EventSummary>> {
    const rows = await this.coll
      .find(
        { _id: { $in: eventIds.map((id) => eventKey(scope, id)) } },
        { projection: { eventId: 1, type: 1, receivedAt: 1, eventJson: 1 } },
      )
      .toArray();
    return new Map(
      rows.map((r) => {
        const event = parseStoredEvent(r);
        const at = event.event_timestamp_ms;
        const ordered = withPlausibleTime(event, r.receivedAt.getTime()).event_timestamp_ms;
        return [
          r.eventId,
          {
            type: r.type,
            receivedAt: r.receivedAt,
            providerAt: typeof at === 'number' ? new Date(at) : null,
            event,
            orderedAtMs: typeof ordered === 'number' ? ordered : r.receivedAt.getTime(),
          },
        ];
      }),
    );
  }
}

export const WEBHOOK_EVENT_INDEXES: IndexDescription[] = [
  { key: { acceptedBy: 1, receivedAt: 1 }, name: 'by_relay_instance' },
  // Sparse: only redelivered records have an entry, so a first insert costs no more than before.
  { key: { reacceptedBy: 1, reacceptedAt: 1 }, name: 'by_relay_reacceptor', sparse: true },
  { key: { scope: 1, subscriberId: 1, receivedAt: -1 }, name: 'by_subscriber' },
];
