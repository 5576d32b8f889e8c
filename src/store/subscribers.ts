import type { Db, Filter, IndexDescription } from 'mongodb';
import { addTotals, contributionOf, ZERO_TOTALS, type BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import type { SubscriberState } from '../billing/subscriber-state';
import { canonicalView, type CanonicalView } from '../billing/canonical-view';
import { summary } from '../billing/summary';
import { COLLECTIONS } from './collections';
import { CUSTOMER_LIST_INDEXES, customerListKeys, customerListQuery, type CustomerListKeys, type CustomerListQuery } from './customer-list';
import { isDuplicateKeyError } from './mongo';

/** The dashboard's copy of a subscriber, written by its workflow after every change. */
export interface SubscriberRecord extends Partial<CustomerListKeys> {
  _id: string;
  scope: BillingScope;
  subscriberId: string;
  view: CanonicalView;
  /** Denormalised for filters and indexes. */
  aliases: string[];
  mergedInto: string | null;
  status: CanonicalView['status'];
  flagged: boolean;
  /** When the scheduled downgrade is due (null when none), for the console's "downgrades due" list. */
  downgradeAt?: Date | null;
  /** What this subscriber adds to the scope totals (the full recompute sums these). */
  contribution: BillingTotals;
  summary: string;
  workflowId: string;
  /** The workflow run that wrote it (absent on records written before runs were named). */
  runId?: string;
  version: number;
  updatedAt: Date;
  /** The whole state, so a run that ended abnormally (terminated, reset) resumes from it instead of from zero. */
  state?: SubscriberState;
}

/** A lookup follows at most this many merges (a merge chain is as long as the ids a customer used, at most). */
const MAX_MERGE_HOPS = 1_000;

/** Reads for the dashboard leave the full state (kept for resuming a run) in the store. */
const LEAN = { projection: { state: 0 } } as const;

export const subscriberKey = (scope: BillingScope, id: string) => `${scope}|${id}`;

export class SubscriberRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<SubscriberRecord>(COLLECTIONS.subscribers);
  }

  /**
   * Version-guarded upsert: a retried or late write of an older state is a no-op. (The upsert of a key that
   * exists with a newer version fails on the unique _id; that is the guard doing its job.)
   */
  async save(state: SubscriberState, workflowId: string, now: Date, runId?: string): Promise<void> {
    const view = canonicalView(state);
    const doc: Omit<SubscriberRecord, '_id'> = {
      scope: state.scope,
      subscriberId: state.id,
      view,
      aliases: state.aliases,
      mergedInto: state.mergedInto,
      status: state.status,
      flagged: state.flags.length > 0,
      downgradeAt: view.scheduledDowngrade ? new Date(view.scheduledDowngrade.atMs) : null,
      ...customerListKeys(view),
      contribution: contributionOf(state),
      summary: summary(state),
      workflowId,
      ...(runId ? { runId } : {}),
      version: state.version,
      updatedAt: now,
      state,
    };
    try {
      await this.coll.updateOne(
        { _id: subscriberKey(state.scope, state.id), version: { $lt: state.version } },
        { $set: doc },
        { upsert: true },
      );
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** The stored state of a subscriber's record and what it contributes to the totals, for a run that starts fresh. */
  async stored(
    scope: BillingScope,
    id: string,
  ): Promise<{ state: SubscriberState; contribution: BillingTotals; runId: string | null } | null> {
    const record = await this.coll.findOne({ _id: subscriberKey(scope, id) }, { projection: { state: 1, contribution: 1, runId: 1 } });
    return record?.state ? { state: record.state, contribution: record.contribution, runId: record.runId ?? null } : null;
  }

  /**
   * The customer an id names, by any id it was ever seen under: the canonical record holding the id (a merge
   * adds every id of the records it absorbs to the canonical record's aliases), else the record under that id
   * followed along its merges. `mergedInto` always points to a smaller id, so the chain cannot circle; it is
   * still bounded, since records written before that rule may hold one.
   */
  async resolve(scope: BillingScope, id: string): Promise<SubscriberRecord | null> {
    const holder = await this.coll.findOne({ scope, aliases: id, mergedInto: null }, LEAN);
    if (holder) return holder;
    let record = await this.coll.findOne({ _id: subscriberKey(scope, id) }, LEAN);
    const seen = new Set<string>([id]);
    while (record?.mergedInto && !seen.has(record.mergedInto) && seen.size <= MAX_MERGE_HOPS) {
      seen.add(record.mergedInto);
      const next = await this.coll.findOne({ _id: subscriberKey(scope, record.mergedInto) }, LEAN);
      if (!next) break;
      record = next;
    }
    return record;
  }

  /** The unmerged customer holding `id` as one of its ids, whatever the case (the console's search). */
  resolveIgnoringCase(scope: BillingScope, id: string): Promise<SubscriberRecord | null> {
    return this.coll.findOne({ scope, aliasesLower: id.toLowerCase(), mergedInto: null }, LEAN);
  }

  /** A page of the console's customer list: filtered, sorted and paged by an index (customer-list.ts). */
  list(scope: BillingScope, q: CustomerListQuery): Promise<SubscriberRecord[]> {
    const { filter, sort, limit } = customerListQuery<SubscriberRecord>(scope, (id) => subscriberKey(scope, id), q);
    return this.coll.find(filter, LEAN).sort(sort).limit(limit).toArray();
  }

  /** Unmerged customers whose downgrade is due before `until`, soonest first, paged by (downgradeAt, _id). */
  downgradesDue(scope: BillingScope, q: { until: Date; limit: number; after?: { at: Date; id: string } }): Promise<SubscriberRecord[]> {
    const filter: Filter<SubscriberRecord> = { scope, mergedInto: null, downgradeAt: { $ne: null, $lte: q.until } };
    if (q.after) {
      filter.$or = [{ downgradeAt: { $gt: q.after.at, $lte: q.until } }, { downgradeAt: q.after.at, _id: { $gt: q.after.id } }];
    }
    return this.coll.find(filter, LEAN).sort({ downgradeAt: 1, _id: 1 }).limit(q.limit).toArray();
  }

  /** Every unmerged record of a scope with its state, for the trends' backfill (a scan: a command, never a request). */
  async *states(scope: BillingScope): AsyncGenerator<SubscriberState> {
    for await (const r of this.coll.find({ scope, mergedInto: null }, { projection: { state: 1 } })) if (r.state) yield r.state;
  }

  /** The full recompute: sums every stored contribution of a scope. A scan, so only for checks, never per event. */
  async sumContributions(scope: BillingScope): Promise<{ totals: BillingTotals; subscribers: number }> {
    let totals: BillingTotals = { ...ZERO_TOTALS };
    let subscribers = 0;
    for await (const r of this.coll.find({ scope }, { projection: { contribution: 1 } })) {
      subscribers += 1;
      totals = addTotals(totals, r.contribution);
    }
    return { totals, subscribers };
  }
}

export const SUBSCRIBER_INDEXES: IndexDescription[] = [
  { key: { scope: 1, aliases: 1 }, name: 'by_alias' },
  { key: { scope: 1, aliasesLower: 1 }, name: 'by_alias_lower' },
  { key: { scope: 1, mergedInto: 1, downgradeAt: 1, _id: 1 }, name: 'downgrades_due' },
  ...CUSTOMER_LIST_INDEXES,
];

/** Indexes no query uses any more (the list's flagged/status filters are facets now): dropped at start-up. */
export const RETIRED_SUBSCRIBER_INDEXES = ['dashboard_filters'];

/**
 * Records written before the list kept its keys (customer-list.ts), or an earlier version of them, get them from
 * their stored view, once: the migration is recorded as done, so later start-ups skip the scan. Until it has run
 * they are not listed (or not found by the keys they lack).
 */
export async function backfillCustomerListKeys(db: Db, batch = 500): Promise<number> {
  const migrations = db.collection<{ _id: string; doneAt: Date }>(COLLECTIONS.migrations);
  if (await migrations.findOne({ _id: LIST_KEYS_MIGRATION })) return 0;
  const coll = db.collection<SubscriberRecord>(COLLECTIONS.subscribers);
  let done = 0;
  for (;;) {
    const rows = await coll
      .find({ aliasesLower: { $exists: false } }, { projection: { _id: 1, view: 1 } })
      .limit(batch)
      .toArray();
    if (rows.length === 0) break;
    await coll.bulkWrite(
      rows.map((r) => ({
        updateOne: { filter: { _id: r._id, aliasesLower: { $exists: false } }, update: { $set: customerListKeys(r.view) } },
      })),
      { ordered: false },
    );
    done += rows.length;
  }
  await migrations.updateOne({ _id: LIST_KEYS_MIGRATION }, { $set: { doneAt: new Date() } }, { upsert: true });
  return done;
}
// v2: the product and refunded facets, and every id in lower case (the search); v1 records are done again.
const LIST_KEYS_MIGRATION = 'billing_subscribers.listKeys.v2';
