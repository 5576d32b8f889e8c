import type { Db, IndexDescription } from 'mongodb';
import { pickTotals, ZERO_TOTALS, type BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import { COLLECTIONS } from './collections';

/**
 * One point per scope per UTC day for the console's trends: the latest totals written that day (the metrics
 * workflow's store write keeps it, see BillingTotalsRepository.write) and how many subscriptions churned that
 * day (counted when a subscriber's record is persisted). A day with no write carries the previous day's totals.
 */
export interface DailyPointRecord extends Partial<BillingTotals> {
  _id: string;
  scope: BillingScope;
  /** YYYY-MM-DD, UTC. */
  day: string;
  churned?: number;
  updatedAt: Date;
}

export interface DailyPoint extends BillingTotals {
  day: string;
  churned: number;
}

export const utcDay = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);
const dailyKey = (scope: BillingScope, day: string) => `${scope}|${day}`;

export class BillingDailyRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<DailyPointRecord>(COLLECTIONS.billingDaily);
  }

  /** The day's point takes the latest totals (one upsert; the same write again changes nothing). */
  async recordTotals(scope: BillingScope, totals: BillingTotals, now: Date): Promise<void> {
    const day = utcDay(now);
    await this.coll.updateOne(
      { _id: dailyKey(scope, day) },
      { $set: { ...pickTotals(totals), updatedAt: now }, $setOnInsert: { scope, day } },
      { upsert: true },
    );
  }

  async addChurn(scope: BillingScope, count: number, now: Date): Promise<void> {
    if (count <= 0) return;
    const day = utcDay(now);
    await this.coll.updateOne(
      { _id: dailyKey(scope, day) },
      { $inc: { churned: count }, $set: { updatedAt: now }, $setOnInsert: { scope, day } },
      { upsert: true },
    );
  }

  /** The backfill's write: the whole point, replacing what was there. */
  async replace(scope: BillingScope, point: DailyPoint, now: Date): Promise<void> {
    const { day, ...rest } = point;
    await this.coll.replaceOne({ _id: dailyKey(scope, day) }, { scope, day, ...rest, updatedAt: now }, { upsert: true });
  }

  /**
   * Every day from `fromDay` to `toDay` (inclusive, at most 400) since the scope's first point, each carrying
   * the last totals known by then: the stored points of the range plus the last one before it. Days before the
   * first point are left out, not made zero: there was no data then. Two indexed reads, whatever the scope's size.
   */
  async series(scope: BillingScope, fromDay: string, toDay: string): Promise<DailyPoint[]> {
    const [before] = await this.coll
      .find({ scope, day: { $lt: fromDay } })
      .sort({ day: -1 })
      .limit(1)
      .toArray();
    const rows = await this.coll
      .find({ scope, day: { $gte: fromDay, $lte: toDay } })
      .sort({ day: 1 })
      .limit(400)
      .toArray();
    const byDay = new Map(rows.map((r) => [r.day, r]));
    let carried = before ? pickTotals(before) : { ...ZERO_TOTALS };
    const first = before ? fromDay : rows[0]?.day;
    const out: DailyPoint[] = [];
    if (first === undefined) return out;
    for (let t = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${toDay}T00:00:00Z`); t <= end && out.length < 400; t += 86_400_000) {
      const day = utcDay(t);
      const r = byDay.get(day);
      if (r) carried = pickTotals(r, carried);
      out.push({ day, ...carried, churned: r?.churned ?? 0 });
    }
    return out;
  }
}

export const BILLING_DAILY_INDEXES: IndexDescription[] = [{ key: { scope: 1, day: 1 }, name: 'by_scope_day' }];
