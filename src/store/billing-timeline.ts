import type { Db, Filter, IndexDescription } from 'mongodb';
import { withPlausibleTime } from '../billing/event-time';
import { eventFacts, refundMicros, revenueMicros, type EventFacts } from '../billing/event-facts';
import { microsToUsd } from '../billing/mrr';
import { reducerEvent, type BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import { applyEvent, initialState, type SubscriberState } from '../billing/subscriber-state';
import { BillingEventSeriesRepository, type FactsRow } from './billing-event-series';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';
import type { WebhookEventRepository } from './webhook-events';

/** What the console shows of a subscriber before and after an event. */
export interface TimelineSnapshot {
  status: SubscriberState['status'];
  entitlements: { id: string; expiresAt: string | null }[];
  flagged: boolean;
  scheduledDowngradeAt: string | null;
  mrrContribution: number;
}

/** One event applied to a customer: written when its record is persisted (see persistSubscriber). */
export interface TimelineRecord {
  _id: string;
  scope: BillingScope;
  subscriberId: string;
  eventId: string;
  type: string;
  providerAt: Date | null;
  receivedAt: Date | null;
  appliedAt: Date;
  /**
   * The newest-first order: the write's time in ms × 1000 plus the entry's rank in that write by provider
   * time, so events applied together (one write) still read in the order they happened.
   */
  position: number;
  /** The record's version after the write; events applied in the same write share it. */
  version: number;
  before: TimelineSnapshot | null;
  after: TimelineSnapshot;
  /**
   * The before and after are this event's own; false: they are the whole write's, shared with the other events
   * applied in it (entries written before events had their own are absent: read as false).
   */
  ownChange?: boolean;
  /** What the event says about money and the customer (absent on entries written before, or without the event). */
  facts?: EventFacts;
  /** The UTC day the event is dated by for the charts: its provider time, or its receipt when that is implausible. */
  providerDay?: string;
  /** Its transaction ids, for the customer search. */
  txIds?: string[];
}

/** A customer's money, first appearance and country, from its timeline (see customerFacts). */
export interface CustomerFacts {
  /** The earliest of its events' provider times and purchase times. */
  since: Date | null;
  /** What it paid: purchases, renewals and one-time purchases at their USD price, sandbox excluded. */
  lifetimeSpendUsd: number;
  refunds: { count: number; amountUsd: number };
  /** The newest `country_code` its events carried. */
  country: string | null;
  /** True when it has more entries than were read (the figures cover the newest ones). */
  partial: boolean;
}

/** A day's events read for the charts, at most; a customer's entries read for its figures, at most. */
const MAX_ENTRIES_PER_DAY = 200_000;
const MAX_ENTRIES_PER_CUSTOMER = 5_000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function snapshotOf(state: SubscriberState): TimelineSnapshot {
  return {
    status: state.status,
    entitlements: state.entitlements.map((e) => ({ id: e.id, expiresAt: iso(e.expiresAtMs) })),
    flagged: state.flags.length > 0,
    scheduledDowngradeAt: state.scheduledDowngrade ? iso(state.scheduledDowngrade.atMs) : null,
    mrrContribution: microsToUsd(state.mrrContributionMicros),
  };
}

export class BillingTimelineRepository {
  /** The event charts' days, kept from these entries. */
  readonly series: BillingEventSeriesRepository;

  constructor(
    private readonly db: Db,
    private readonly events: WebhookEventRepository,
  ) {
    this.series = new BillingEventSeriesRepository(db, (scope, day) => this.factsOfDay(scope, day));
  }

  private get coll() {
    return this.db.collection<TimelineRecord>(COLLECTIONS.billingTimeline);
  }

  /**
   * Appends an entry per event id `next` has applied and `previous` had not. The _id (scope, subscriber,
   * event) makes a retried activity's second append a no-op. Type, times and the event's facts come from the
   * webhook inbox (one indexed read by _id for all of them), else from the state's last event.
   *
   * Events applied in one write get their own before and after: the write's events are applied again, in the
   * order the record applied them, to the state before it (the reducer is pure), and kept only if that ends
   * exactly at the stored state; otherwise (a merge in between, an event no longer in the inbox) they share the
   * write's before and after, and say so (`ownChange: false`). The days the entries are dated are then marked
   * for the event charts.
   */
  async append(previous: SubscriberState | null, next: SubscriberState, now: Date): Promise<number> {
    const seen = new Set(previous?.appliedEventIds ?? []);
    const fresh = next.appliedEventIds.filter((id) => !seen.has(id));
    if (fresh.length === 0) return 0;
    const inbox = await this.events.summaries(next.scope, fresh);
    const before = previous ? snapshotOf(previous) : null;
    const after = snapshotOf(next);
    const own = ownChanges(
      previous,
      next,
      fresh.map((id) => inbox.get(id)),
    );
    const docs: TimelineRecord[] = fresh.map((eventId, i): TimelineRecord => {
      const r = inbox.get(eventId);
      const last = next.lastEvent?.id === eventId ? next.lastEvent : null;
      const providerAt = r ? r.providerAt : last ? new Date(last.atMs) : null;
      return {
        _id: `${next.scope}|${next.id}|${eventId}`,
        scope: next.scope,
        subscriberId: next.id,
        eventId,
        type: r?.type ?? last?.type ?? 'unknown',
        providerAt,
        receivedAt: r?.receivedAt ?? null,
        appliedAt: now,
        position: 0,
        version: next.version,
        before: own ? (i === 0 ? before : own[i - 1]!) : before,
        after: own ? own[i]! : after,
        ownChange: own !== null || fresh.length === 1,
        ...(r?.event ? factsFields(r.event, r.orderedAtMs) : {}),
      };
    });
    const providerMs = (d: TimelineRecord) => d.providerAt?.getTime() ?? 0;
    docs.sort((a, b) => providerMs(a) - providerMs(b) || (a.eventId < b.eventId ? -1 : 1));
    docs.forEach((d, i) => (d.position = now.getTime() * 1000 + Math.min(i, 999)));
    try {
      await this.coll.insertMany(docs, { ordered: false });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    // After the entries, so a chart that reads the day in between counts them and is refreshed again anyway.
    await this.series.touch(
      next.scope,
      docs.flatMap((d) => (d.providerDay ? [d.providerDay] : [])),
    );
    return docs.length;
  }

  /** A day's entries with facts, for the event charts (store/billing-event-series.ts). */
  async factsOfDay(scope: BillingScope, day: string): Promise<FactsRow[]> {
    const rows = await this.coll
      .find({ scope, providerDay: day }, { projection: { subscriberId: 1, facts: 1 } })
      .limit(MAX_ENTRIES_PER_DAY)
      .toArray();
    return rows.flatMap((r) => (r.facts ? [{ subscriberId: r.subscriberId, facts: r.facts }] : []));
  }

  /**
   * A customer's money and first appearance, from its timeline entries (at most the newest 5,000): lifetime
   * spend and refunds in USD (sandbox purchases are not money), its first event, and its latest country.
   */
  async customerFacts(scope: BillingScope, subscriberId: string): Promise<CustomerFacts> {
    const rows = await this.coll
      .find({ scope, subscriberId }, { projection: { facts: 1, providerAt: 1, receivedAt: 1 } })
      .sort({ position: -1, _id: -1 })
      .limit(MAX_ENTRIES_PER_CUSTOMER)
      .toArray();
    return customerFactsOf(rows, rows.length === MAX_ENTRIES_PER_CUSTOMER);
  }

  /** The customers a transaction id (a purchase's own, or its original) was seen on. */
  async subscribersByTransaction(scope: BillingScope, transactionId: string): Promise<string[]> {
    const rows = await this.coll
      .find({ scope, txIds: transactionId }, { projection: { subscriberId: 1 } })
      .limit(20)
      .toArray();
    return [...new Set(rows.map((r) => r.subscriberId))];
  }

  /** One event's entry on a customer's timeline (by the canonical id the customer is kept under). */
  entry(scope: BillingScope, subscriberId: string, eventId: string): Promise<TimelineRecord | null> {
    return this.coll.findOne({ _id: `${scope}|${subscriberId}|${eventId}` });
  }

  /** Newest first, paged by (position, _id). */
  list(
    scope: BillingScope,
    subscriberId: string,
    q: { limit: number; before?: { position: number; id: string } },
  ): Promise<TimelineRecord[]> {
    const filter: Filter<TimelineRecord> = { scope, subscriberId };
    if (q.before) filter.$or = [{ position: { $lt: q.before.position } }, { position: q.before.position, _id: { $lt: q.before.id } }];
    return this.coll.find(filter).sort({ position: -1, _id: -1 }).limit(q.limit).toArray();
  }
}

export const BILLING_TIMELINE_INDEXES: IndexDescription[] = [
  { key: { scope: 1, subscriberId: 1, position: -1, _id: -1 }, name: 'by_subscriber_newest' },
  { key: { scope: 1, providerDay: 1 }, name: 'by_provider_day' },
  { key: { scope: 1, txIds: 1 }, name: 'by_transaction' },
];

/** The fields an entry keeps of its event: its facts, the day it is dated by, its transaction ids. */
function factsFields(event: BillingEvent, orderedAtMs: number): Pick<TimelineRecord, 'facts' | 'providerDay' | 'txIds'> {
  const facts = eventFacts(event);
  const txIds = [...new Set([facts.transactionId, facts.originalTransactionId].filter((t): t is string => t !== null))];
  return { facts, providerDay: new Date(orderedAtMs).toISOString().slice(0, 10), ...(txIds.length > 0 ? { txIds } : {}) };
}

/**
 * Each fresh event's own after-snapshot, by applying the write's events again, in the order the record applied
 * them, to the state before it; null unless that reproduces the stored state exactly.
 */
function ownChanges(
  previous: SubscriberState | null,
  next: SubscriberState,
  events: ({ event: BillingEvent | null; orderedAtMs: number } | undefined)[],
): TimelineSnapshot[] | null {
  if (events.length < 2) return null;
  let state = previous ?? initialState(next.scope, next.id);
  const out: TimelineSnapshot[] = [];
  for (const e of events) {
    if (!e?.event) return null;
    try {
      state = applyEvent(state, withPlausibleTime(reducerEvent(e.event), e.orderedAtMs), next.asOfMs).state;
    } catch {
      return null;
    }
    out.push(snapshotOf(state));
  }
  return JSON.stringify(out[out.length - 1]) === JSON.stringify(snapshotOf(next)) ? out : null;
}

/** A customer's figures from its entries (pure). */
export function customerFactsOf(
  rows: readonly Pick<TimelineRecord, 'facts' | 'providerAt' | 'receivedAt'>[],
  partial: boolean,
): CustomerFacts {
  let since: number | null = null;
  let spend = 0;
  let refunded = 0;
  let refunds = 0;
  let country: string | null = null;
  // Newest first: the first country seen is the latest.
  for (const r of rows) {
    for (const t of [r.providerAt?.getTime() ?? r.receivedAt?.getTime(), r.facts?.purchasedAtMs]) {
      if (typeof t === 'number' && (since === null || t < since)) since = t;
    }
    const f = r.facts;
    if (!f) continue;
    country ??= f.country;
    if (f.environment === 'SANDBOX') continue;
    spend += revenueMicros(f);
    if (f.kind === 'refund') {
      refunds += 1;
      refunded += refundMicros(f);
    }
  }
  return {
    since: since === null ? null : new Date(since),
    lifetimeSpendUsd: microsToUsd(spend),
    refunds: { count: refunds, amountUsd: microsToUsd(refunded) },
    country,
    partial,
  };
}
