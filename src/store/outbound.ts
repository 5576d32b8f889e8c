import type { Db, IndexDescription } from 'mongodb';
import { COLLECTIONS } from './collections';

/** Endpoints an app registered for outbound webhooks (private preview). */
export interface EndpointRecord {
  _id: string;
  app: string;
  url: string;
  /** Null: every type. */
  eventTypes: string[] | null;
  description: string;
  disabled: boolean;
  /** Why it is disabled: `user`, `gone` (the receiver answered 410) or `failing` (every delivery failed for days). */
  disabledReason: 'user' | 'gone' | 'failing' | null;
  /** The signing secret (needed to sign, so stored as is) and, during a rotation's overlap, the previous one. */
  secret: string;
  previousSecret: string | null;
  previousSecretValidUntil: Date | null;
  /** First failed attempt since the last success; null while deliveries succeed. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AttemptRecord {
  attempt: number;
  at: Date;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  nextRetryAt: Date | null;
  /** The first MAX_RESPONSE_BODY_KEPT bytes of what the receiver answered, as text (absent: attempts logged before it was kept; null: no answer). */
  responseBody?: string | null;
  /** The receiver answered more than responseBody holds. */
  responseBodyTruncated?: boolean;
}

/** How much of a receiver's answer each attempt keeps: enough to read an error page, bounded per attempt. */
export const MAX_RESPONSE_BODY_KEPT = 4096;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRecord {
  /** The `webhook-id` (see signing.ts messageIdFor). */
  _id: string;
  app: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: DeliveryStatus;
  /** Most recent last; at most MAX_ATTEMPTS_KEPT. */
  attempts: AttemptRecord[];
  nextRetryAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A delivery not yet attempted, as a dispatch and a test event store it before starting its workflow. */
export function pendingDelivery(
  d: Pick<DeliveryRecord, '_id' | 'app' | 'endpointId' | 'eventId' | 'eventType' | 'body'>,
  at: Date,
): DeliveryRecord {
  return { ...d, status: 'pending', attempts: [], nextRetryAt: null, createdAt: at, updatedAt: at };
}

export const MAX_ENDPOINTS_PER_APP = 10;
export const MAX_ATTEMPTS_KEPT = 50;

export const OUTBOUND_ENDPOINT_INDEXES: IndexDescription[] = [{ key: { app: 1, createdAt: 1 }, name: 'by_app' }];
/** Deliveries (and their attempt log) are kept this long after their last change, then removed by a TTL index. */
export const DELIVERY_RETENTION_DAYS = 30;

export const OUTBOUND_DELIVERY_INDEXES: IndexDescription[] = [
  { key: { endpointId: 1, createdAt: -1, _id: -1 }, name: 'by_endpoint_newest' },
  { key: { endpointId: 1, status: 1, createdAt: 1 }, name: 'by_endpoint_status' },
  { key: { updatedAt: 1 }, name: 'ttl_updated', expireAfterSeconds: DELIVERY_RETENTION_DAYS * 86_400 },
];

export class EndpointRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<EndpointRecord>(COLLECTIONS.outboundEndpoints);
  }

  async insert(record: EndpointRecord): Promise<void> {
    await this.coll.insertOne(record);
  }

  count(app: string): Promise<number> {
    return this.coll.countDocuments({ app });
  }

  list(app: string): Promise<EndpointRecord[]> {
    return this.coll
      .find({ app })
      .sort({ createdAt: 1 })
      .limit(MAX_ENDPOINTS_PER_APP * 2)
      .toArray();
  }

  get(app: string, id: string): Promise<EndpointRecord | null> {
    return this.coll.findOne({ _id: id, app });
  }

  async update(app: string, id: string, set: Partial<EndpointRecord>): Promise<EndpointRecord | null> {
    return this.coll.findOneAndUpdate({ _id: id, app }, { $set: set }, { returnDocument: 'after' });
  }

  async remove(app: string, id: string): Promise<boolean> {
    return (await this.coll.deleteOne({ _id: id, app })).deletedCount > 0;
  }

  /** Disables unless already disabled; true when this call did it (so the caller counts and mails once). */
  async disable(id: string, reason: 'gone' | 'failing', now: Date): Promise<boolean> {
    const res = await this.coll.updateOne(
      { _id: id, disabled: false },
      { $set: { disabled: true, disabledReason: reason, updatedAt: now } },
    );
    return res.modifiedCount > 0;
  }

  async markSuccess(id: string): Promise<void> {
    await this.coll.updateOne({ _id: id, failingSince: { $ne: null } }, { $set: { failingSince: null } });
  }

  /** Records a failure; returns since when the endpoint has been failing. */
  async markFailure(id: string, now: Date): Promise<Date | null> {
    await this.coll.updateOne({ _id: id, failingSince: null }, { $set: { failingSince: now } });
    return (await this.coll.findOne({ _id: id }, { projection: { failingSince: 1 } }))?.failingSince ?? null;
  }
}

export class DeliveryRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<DeliveryRecord>(COLLECTIONS.outboundDeliveries);
  }

  /** Creates the delivery unless it exists (a re-dispatched event); returns the stored one. */
  async ensure(record: DeliveryRecord): Promise<DeliveryRecord> {
    const { _id, ...rest } = record;
    await this.coll.updateOne({ _id }, { $setOnInsert: rest }, { upsert: true });
    return (await this.coll.findOne({ _id }))!;
  }

  get(endpointId: string, id: string): Promise<DeliveryRecord | null> {
    return this.coll.findOne({ _id: id, endpointId });
  }

  async recordAttempt(id: string, attempt: AttemptRecord, status: DeliveryStatus, now: Date): Promise<void> {
    await this.coll.updateOne(
      { _id: id },
      {
        $push: { attempts: { $each: [attempt], $slice: -MAX_ATTEMPTS_KEPT } },
        $set: { status, nextRetryAt: attempt.nextRetryAt, updatedAt: now },
      },
    );
  }

  async setStatus(id: string, status: DeliveryStatus, now: Date): Promise<void> {
    await this.coll.updateOne({ _id: id }, { $set: { status, nextRetryAt: null, updatedAt: now } });
  }

  /** Newest first; `before` is the last row of the previous page. */
  page(endpointId: string, limit: number, before?: { createdAt: Date; id: string }): Promise<DeliveryRecord[]> {
    const filter = before
      ? { endpointId, $or: [{ createdAt: { $lt: before.createdAt } }, { createdAt: before.createdAt, _id: { $lt: before.id } }] }
      : { endpointId };
    // The log leaves out what was sent and what was answered (up to 4 KiB an attempt): the delivery's own read has them.
    return this.coll
      .find(filter, { projection: { body: 0, 'attempts.responseBody': 0 } })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }

  /** What a redelivery needs of each failed delivery (not its body). */
  failedSince(endpointId: string, since: Date, limit: number): Promise<Pick<DeliveryRecord, '_id' | 'endpointId' | 'eventType'>[]> {
    return this.coll
      .find({ endpointId, status: 'failed', createdAt: { $gte: since } }, { projection: { _id: 1, endpointId: 1, eventType: 1 } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .toArray();
  }
}

/** Delivery outcomes across every worker, for /metrics (counters kept in the store so any process can serve them). */
export type OutboundCounter = 'sent' | 'failed' | 'retried' | 'disabled';

export class OutboundCounters {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<{ _id: string } & Partial<Record<OutboundCounter, number>>>(COLLECTIONS.outboundCounters);
  }

  async inc(counter: OutboundCounter): Promise<void> {
    await this.coll.updateOne({ _id: 'totals' }, { $inc: { [counter]: 1 } }, { upsert: true });
  }

  async read(): Promise<Record<OutboundCounter, number>> {
    const doc = await this.coll.findOne({ _id: 'totals' });
    return { sent: doc?.sent ?? 0, failed: doc?.failed ?? 0, retried: doc?.retried ?? 0, disabled: doc?.disabled ?? 0 };
  }
}
