import { createHash } from 'node:crypto';
import type { Db, IndexDescription } from 'mongodb';
import type { BillingScope } from '../billing/subscriber-id';
import { COLLECTIONS } from './collections';

/**
 * Where billing work that could not be done is parked instead of being retried forever: a redelivered event id
 * whose body differs from the one accepted first (kept for inspection, never applied), an event Temporal refuses
 * to relay, an event the reducer cannot apply, or an effect (a signal to another record, an
 * entitlement write, an email) that failed for good. Operators list them (API, dashboard, /metrics) and retry
 * one once the cause is fixed. No TTL: a parked record stays until someone has looked at it.
 */
export type DeadLetterStage = 'intake' | 'relay' | 'apply' | 'effect';
export type DeadLetterStatus = 'parked' | 'retried' | 'discarded';

/** What is parked: where it failed, what it concerns, why, and what a retry re-sends. */
export interface ParkInput {
  /** What identifies the parked work (src/billing/dead-letter-key.ts); the same key parks into the same record. */
  key: string;
  scope: BillingScope;
  stage: DeadLetterStage;
  eventId: string | null;
  type: string | null;
  subscriberId: string | null;
  workflowId: string | null;
  /** Why it was parked (the last failure's message, shortened). */
  reason: string;
  /** JSON text of what a retry re-sends: the provider event (relay, apply) or the effect and its message (effect). */
  payload: string;
}

export interface DeadLetterRecord extends ParkInput {
  /** `dl_` + a digest of the key, so parking the same thing twice (an activity retry, a redelivery) is one record. */
  _id: string;
  status: DeadLetterStatus;
  parkedAt: Date;
  /** How many times it was parked (a retry that fails again parks it again). */
  attempts: number;
  retriedAt: Date | null;
  /** Put aside by an operator, with why and by whom (a record that can never be retried: a conflicting body). */
  discardedAt?: Date | null;
  discardReason?: string | null;
  discardedBy?: string | null;
}

const REASON_LIMIT = 1_000;

export const deadLetterId = (key: string) => `dl_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;

export class DeadLetterRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<DeadLetterRecord>(COLLECTIONS.deadLetters);
  }

  /** Parks (or parks again) the work under `key`; returns its id. */
  async park(input: ParkInput, now: Date): Promise<string> {
    const _id = deadLetterId(input.key);
    const reason = input.reason.length > REASON_LIMIT ? `${input.reason.slice(0, REASON_LIMIT)}…` : input.reason;
    await this.coll.updateOne(
      { _id },
      {
        $set: { ...input, reason, status: 'parked', parkedAt: now, discardedAt: null, discardReason: null, discardedBy: null },
        $inc: { attempts: 1 },
        $setOnInsert: { retriedAt: null },
      },
      { upsert: true },
    );
    return _id;
  }

  get(id: string): Promise<DeadLetterRecord | null> {
    return this.coll.findOne({ _id: id });
  }

  /** Newest first; `after` is the last row's `parkedAt|_id` from the previous page. */
  list(
    scope: BillingScope,
    opts: { status?: DeadLetterStatus; limit: number; after?: { parkedAt: Date; id: string } },
  ): Promise<DeadLetterRecord[]> {
    const filter: Record<string, unknown> = { scope };
    if (opts.status) filter.status = opts.status;
    if (opts.after) {
      filter.$or = [{ parkedAt: { $lt: opts.after.parkedAt } }, { parkedAt: opts.after.parkedAt, _id: { $lt: opts.after.id } }];
    }
    return this.coll.find(filter).sort({ parkedAt: -1, _id: -1 }).limit(opts.limit).toArray();
  }

  /** Marks a parked record as handed back; false when it is not parked (already retried, or unknown). */
  async markRetried(id: string, now: Date): Promise<boolean> {
    const res = await this.coll.updateOne({ _id: id, status: 'parked' }, { $set: { status: 'retried', retriedAt: now } });
    return res.modifiedCount === 1;
  }

  /** Puts a parked record aside for good, with the operator's reason; false when it is not parked. */
  async discard(id: string, reason: string, by: string, now: Date): Promise<boolean> {
    const res = await this.coll.updateOne(
      { _id: id, status: 'parked' },
      { $set: { status: 'discarded', discardedAt: now, discardReason: reason.slice(0, REASON_LIMIT), discardedBy: by } },
    );
    return res.modifiedCount === 1;
  }

  /** Parked records per scope, for the /metrics gauge (normally a handful: an index serves it). */
  async parkedByScope(): Promise<Array<{ scope: string; count: number }>> {
    const rows = await this.coll
      .aggregate<{ _id: string; count: number }>([{ $match: { status: 'parked' } }, { $group: { _id: '$scope', count: { $sum: 1 } } }])
      .toArray();
    return rows.map((r) => ({ scope: r._id, count: r.count }));
  }
}

export const DEAD_LETTER_INDEXES: IndexDescription[] = [
  { key: { scope: 1, parkedAt: -1, _id: -1 }, name: 'by_scope' },
  { key: { scope: 1, status: 1, parkedAt: -1, _id: -1 }, name: 'by_scope_status' },
  { key: { status: 1, scope: 1 }, name: 'parked_by_scope' },
];
