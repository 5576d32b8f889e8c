import type { Db, Filter, IndexDescription } from 'mongodb';
import type { BillingScope } from '../billing/subscriber-id';
import { COLLECTIONS } from './collections';

/**
 * The event log: one entry per webhook delivery to either receiver, whatever became of it, for operators. A
 * log, not the inbox: the inbox (webhook-events.ts) holds each accepted event once and is what the service acts
 * on; this says what arrived and what the receiver answered, every time. Written in batches after the answer
 * (billing-intake/delivery-log.ts), so it costs the acknowledgement nothing and can never lose an event.
 *
 * Bounded per bucket: each bucket (a scope, or `unattributed` for deliveries no app can be named for) keeps its
 * newest entries up to its own cap (by a sequence number per bucket), so one app's flood never evicts another's
 * log, and entries older than the retention go by TTL. Refusals before authorization (401, a missing app) are
 * counted into one entry per bucket, reason and minute (naming the first app slug of its minute), so a flood of
 * them costs one write a minute.
 */
export type EventLogBucket = BillingScope | typeof UNATTRIBUTED;
export const UNATTRIBUTED = 'unattributed' as const;

export const EVENT_LOG_OUTCOMES = ['accepted', 'duplicate', 'ignored', 'conflict', 'rejected'] as const;
export type EventLogOutcome = (typeof EVENT_LOG_OUTCOMES)[number];

/** Why an accepted delivery has no effect (billing-intake/accept-event.ts's IgnoredReason). */
export const IGNORED_REASONS = ['unknown_type', 'test_event', 'no_subscriber'] as const;

/** Why a delivery was refused: for operators only (the caller gets the contract's one answer per status). */
export const REFUSAL_REASONS = [
  // 401, before the body is read
  'unknown_app',
  'missing_authorization',
  'bearer_prefix',
  'token_not_webhook_value',
  'rotated_out',
  'authorization_mismatch',
  'operator_not_configured',
  // 400 without an app parameter
  'missing_app',
  // after authorization
  'unsupported_media_type',
  'too_large',
  'malformed_json',
  'invalid_event',
  'store_unavailable',
  // a bug: an answer the receiver did not mean to give
  'internal_error',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface EventLogEntry {
  /** `evl_` + a ULID (time-ordered); a counted refusal's id is derived from its bucket, reason and minute. */
  _id: string;
  bucket: EventLogBucket;
  /** Position in the bucket, for its cap (1, 2, …). */
  seq: number;
  /** When the delivery arrived (a counted refusal: the first of its minute). */
  at: Date;
  outcome: EventLogOutcome;
  /** The answer's status code. */
  status: number;
  /** Why it was ignored (unknown_type, test_event, no_subscriber) or refused (REFUSAL_REASONS). */
  reason: string | null;
  /** More about the reason (the schema's errors of an invalid event, the parse error, a conflict's dead letter). */
  detail: string | null;
  endpoint: 'app' | 'operator';
  /** The `app` parameter as given (cut to 64 characters); null on the operator's receiver. */
  app: string | null;
  eventId: string | null;
  type: string | null;
  /** The record the event was routed to (the smallest id it names), and its workflow. */
  subscriberId: string | null;
  workflowId: string | null;
  /** The intake dead letter a conflicting body was parked as. */
  deadLetterId: string | null;
  /** Request body size, when known. */
  bodyBytes: number | null;
  /**
   * The first 4 KiB of a body that was authorized and then refused (malformed, invalid), to show what came.
   * An accepted body is read from the inbox instead; nothing is kept of an unauthorized one, nor of any header.
   */
  bodyExcerpt: string | null;
  /** Deliveries this entry stands for: 1, or more for a counted refusal. */
  count: number;
  lastAt: Date;
  /** Filter keys: `all`, `outcome:…`, `reason:…`, `type:…`, `subscriber:…` (see the index). */
  facets: string[];
}

/** What the recorder hands over: the entry without its position. */
export type NewEventLogEntry = Omit<EventLogEntry, 'seq'>;

export interface EventLogQuery {
  outcome?: EventLogOutcome;
  reason?: string;
  type?: string;
  subscriber?: string;
  since?: Date;
  until?: Date;
  limit: number;
  /** The last row of the previous page. */
  before?: { at: Date; id: string };
}

export const ALL_FACET = 'all';

/** The facets an entry is found by; ids and types are cut to what a filter may name. */
export function eventLogFacets(
  e: Pick<EventLogEntry, 'outcome' | 'reason' | 'type' | 'subscriberId'>,
  otherIds: readonly string[] = [],
): string[] {
  const facets = new Set([ALL_FACET, `outcome:${e.outcome}`]);
  if (e.reason) facets.add(`reason:${e.reason}`);
  if (e.type) facets.add(`type:${e.type.slice(0, 100)}`);
  for (const id of [e.subscriberId, ...otherIds]) if (id) facets.add(`subscriber:${id.slice(0, 512)}`);
  return [...facets];
}

function facetsOf(q: EventLogQuery): string[] {
  const facets: string[] = [];
  if (q.outcome) facets.push(`outcome:${q.outcome}`);
  if (q.reason) facets.push(`reason:${q.reason}`);
  if (q.type) facets.push(`type:${q.type}`);
  if (q.subscriber) facets.push(`subscriber:${q.subscriber}`);
  return facets.length > 0 ? facets : [ALL_FACET];
}

export class EventLogRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<EventLogEntry>(COLLECTIONS.eventLog);
  }

  private get counters() {
    return this.db.collection<{ _id: string; seq: number }>(COLLECTIONS.eventLogCounters);
  }

  /**
   * Writes one bucket's entries (one counter update, one bulk write) and drops what the bucket holds beyond
   * `cap`. A counted refusal adds its count to the entry of its minute, or creates it.
   */
  async write(bucket: EventLogBucket, entries: NewEventLogEntry[], cap: number): Promise<void> {
    if (entries.length === 0) return;
    const counter = await this.counters.findOneAndUpdate(
      { _id: bucket },
      { $inc: { seq: entries.length } },
      { upsert: true, returnDocument: 'after' },
    );
    const last = counter?.seq ?? entries.length;
    const first = last - entries.length + 1;
    await this.coll.bulkWrite(
      entries.map((e, i) => {
        const seq = first + i;
        if (!e._id.startsWith(COUNTED_PREFIX)) return { insertOne: { document: { ...e, seq } } };
        const { count, lastAt, ...rest } = e;
        return {
          updateOne: {
            filter: { _id: e._id },
            // Moved to the bucket's newest position: a count still growing is never trimmed as old.
            update: { $setOnInsert: rest, $set: { seq }, $inc: { count }, $max: { lastAt } },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
    // Each write trims: one indexed range delete, nothing when the bucket is under its cap.
    if (last > cap) await this.coll.deleteMany({ bucket, seq: { $lte: last - cap } });
  }

  /** Newest first, paged by (at, _id). */
  list(bucket: EventLogBucket, q: EventLogQuery): Promise<EventLogEntry[]> {
    const facets = facetsOf(q);
    const filter: Filter<EventLogEntry> = { bucket, facets: facets.length === 1 ? facets[0]! : { $all: facets } };
    const at: Record<string, Date> = {};
    if (q.since) at.$gte = q.since;
    if (q.until) at.$lt = q.until;
    if (q.before) {
      // The range seeks the index to the cursor; the $or then drops the ties already shown.
      at.$lte = q.before.at;
      filter.$or = [{ at: { $lt: q.before.at } }, { at: q.before.at, _id: { $lt: q.before.id } }];
    }
    if (Object.keys(at).length > 0) filter.at = at;
    return this.coll.find(filter).sort({ at: -1, _id: -1 }).limit(q.limit).toArray();
  }

  get(bucket: EventLogBucket, id: string): Promise<EventLogEntry | null> {
    return this.coll.findOne({ _id: id, bucket });
  }
}

/** Ids of counted refusals start so; every other entry is one delivery. */
export const COUNTED_PREFIX = 'evl_n';

export const EVENT_LOG_INDEXES: IndexDescription[] = [
  { key: { bucket: 1, facets: 1, at: -1, _id: -1 }, name: 'by_bucket_facet_newest' },
  { key: { bucket: 1, seq: 1 }, name: 'by_bucket_seq' },
];
