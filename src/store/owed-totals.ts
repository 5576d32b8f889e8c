import type { Db, IndexDescription } from 'mongodb';
import type { BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import { COLLECTIONS } from './collections';
import { subscriberKey } from './subscribers';

/**
 * Subscribers whose totals delta the scope's totals workflow refuses (src/workflows/billing-subscriber-totals.ts),
 * one record each while it lasts: what the totals hold of the subscriber, which a run started from the subscriber's
 * record (after a termination or reset) owes the difference to, and since when. Operators see them on /metrics
 * (`billing_totals_owed{scope}`). Small: a record exists only while its subscriber owes.
 */
export interface OwedTotalsRecord {
  /** subscriberKey(scope, id). */
  _id: string;
  scope: BillingScope;
  subscriberId: string;
  counted: BillingTotals;
  since: Date;
}

export class OwedTotalsRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<OwedTotalsRecord>(COLLECTIONS.owedTotals);
  }

  /** The subscriber owes from now (a second note while it owes keeps the first's `counted` and time). */
  async note(scope: BillingScope, subscriberId: string, counted: BillingTotals, now: Date): Promise<void> {
    await this.coll.updateOne(
      { _id: subscriberKey(scope, subscriberId) },
      { $setOnInsert: { scope, subscriberId, counted, since: now } },
      { upsert: true },
    );
  }

  /** The totals took what the subscriber owed. */
  async clear(scope: BillingScope, subscriberId: string): Promise<void> {
    await this.coll.deleteOne({ _id: subscriberKey(scope, subscriberId) });
  }

  /** What the totals hold of a subscriber that owes (null: it owes nothing). */
  async counted(scope: BillingScope, subscriberId: string): Promise<BillingTotals | null> {
    return (await this.coll.findOne({ _id: subscriberKey(scope, subscriberId) }))?.counted ?? null;
  }

  async countByScope(): Promise<Array<{ scope: string; count: number }>> {
    // In scope order, so the count walks the scope index (a refusal can leave a scope's every subscriber here).
    const rows = await this.coll
      .aggregate<{ _id: string; count: number }>([{ $sort: { scope: 1 } }, { $group: { _id: '$scope', count: { $sum: 1 } } }])
      .toArray();
    return rows.map((r) => ({ scope: r._id, count: r.count }));
  }
}

export const OWED_TOTALS_INDEXES: IndexDescription[] = [{ key: { scope: 1 }, name: 'by_scope' }];
