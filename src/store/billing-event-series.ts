import type { Db, IndexDescription } from 'mongodb';
import { groupDay, type DayGroup } from '../billing/event-series';
import type { BillingScope } from '../billing/subscriber-id';
import type { EventFacts } from '../billing/event-facts';
import { COLLECTIONS } from './collections';

/**
 * The event charts' days, by the provider's event time: each day a scope has events on keeps its groups
 * (billing/event-series.ts), computed from that day's timeline entries when first asked for and again after
 * an entry for that day was written. Writers only bump the day's generation (`gen`); a reader recomputes a
 * day whose groups are of an older generation and keeps them only if no write came in between. So no count is
 * ever carried incrementally (a retried write cannot count twice), and a late event for an old day refreshes
 * that day alone. A day with no record has no events.
 */
interface DayRecord {
  _id: string;
  scope: BillingScope;
  /** YYYY-MM-DD, UTC, of the events' provider time. */
  day: string;
  gen: number;
  computedGen?: number;
  groups?: DayGroup[];
}

/** What a day's computation reads of a timeline entry. */
export interface FactsRow {
  subscriberId: string;
  facts: EventFacts;
}

const key = (scope: BillingScope, day: string) => `${scope}|${day}`;

export class BillingEventSeriesRepository {
  constructor(
    private readonly db: Db,
    /** A day's timeline entries with facts (the timeline repository's read). */
    private readonly entriesOfDay: (scope: BillingScope, day: string) => Promise<FactsRow[]>,
  ) {}

  private get coll() {
    return this.db.collection<DayRecord>(COLLECTIONS.billingEventDays);
  }

  /** Entries dated these days were written: their groups are out of date. Called after the entries are stored. */
  async touch(scope: BillingScope, days: readonly string[]): Promise<void> {
    const distinct = [...new Set(days)];
    if (distinct.length === 0) return;
    await this.coll.bulkWrite(
      distinct.map((day) => ({
        updateOne: { filter: { _id: key(scope, day) }, update: { $inc: { gen: 1 }, $setOnInsert: { scope, day } }, upsert: true },
      })),
      { ordered: false },
    );
  }

  /** The scope's first day with events, or null. */
  async firstDay(scope: BillingScope): Promise<string | null> {
    const [first] = await this.coll
      .find({ scope }, { projection: { day: 1 } })
      .sort({ day: 1 })
      .limit(1)
      .toArray();
    return first?.day ?? null;
  }

  /** Each day from `fromDay` to `toDay` that has events, with its groups (days out of date are computed now). */
  async days(scope: BillingScope, fromDay: string, toDay: string): Promise<Map<string, DayGroup[]>> {
    const rows = await this.coll
      .find({ scope, day: { $gte: fromDay, $lte: toDay } })
      .sort({ day: 1 })
      .limit(400)
      .toArray();
    const out = new Map<string, DayGroup[]>();
    for (const r of rows) {
      if (r.groups && r.computedGen === r.gen) {
        out.set(r.day, r.groups);
        continue;
      }
      const groups = groupDay(await this.entriesOfDay(scope, r.day));
      // Kept only if no entry for the day was written meanwhile (then the next read computes it again).
      await this.coll.updateOne({ _id: r._id, gen: r.gen }, { $set: { groups, computedGen: r.gen } });
      out.set(r.day, groups);
    }
    return out;
  }
}

export const BILLING_EVENT_DAY_INDEXES: IndexDescription[] = [{ key: { scope: 1, day: 1 }, name: 'by_scope_day' }];
