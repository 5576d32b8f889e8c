import type { Db } from 'mongodb';
import { pickTotals, ZERO_TOTALS, type BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import type { BillingDailyRepository } from './billing-daily';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

interface TotalsRecord extends BillingTotals {
  _id: BillingScope;
  seq: number;
  updatedAt: Date;
}

/** The store copy of each scope's totals, kept by the scope's billingMetrics workflow. */
export class BillingTotalsRepository {
  constructor(
    private readonly db: Db,
    private readonly daily: BillingDailyRepository,
  ) {}

  private get coll() {
    return this.db.collection<TotalsRecord>(COLLECTIONS.billingMetrics);
  }

  /**
   * Sequence-guarded: a retried write of an older sequence number changes nothing. A write that lands also
   * becomes the day's point of the trends (billing-daily.ts), so the metrics workflow needs no change for it.
   */
  async write(scope: BillingScope, seq: number, totals: BillingTotals, now: Date): Promise<void> {
    let landed = false;
    try {
      const res = await this.coll.updateOne(
        { _id: scope, seq: { $lt: seq } },
        { $set: { ...totals, seq, updatedAt: now } },
        { upsert: true },
      );
      landed = res.modifiedCount + res.upsertedCount > 0;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // A retry of this same write (its first try landed, the day's point may not have): write the point again.
      landed = (await this.coll.findOne({ _id: scope }, { projection: { seq: 1 } }))?.seq === seq;
    }
    if (landed) await this.daily.recordTotals(scope, totals, now);
  }

  /** The stored totals, their sequence number and time (for a metrics run that starts fresh); null when none. */
  async stored(scope: BillingScope): Promise<{ totals: BillingTotals; seq: number; updatedAt: Date } | null> {
    const r = await this.coll.findOne({ _id: scope });
    if (!r) return null;
    return { totals: pickTotals(r), seq: r.seq, updatedAt: r.updatedAt };
  }

  /** The totals to show: zero before the scope's first write. */
  async get(scope: BillingScope): Promise<{ totals: BillingTotals; updatedAt: Date | null }> {
    const stored = await this.stored(scope);
    return stored ? { totals: stored.totals, updatedAt: stored.updatedAt } : { totals: { ...ZERO_TOTALS }, updatedAt: null };
  }
}
