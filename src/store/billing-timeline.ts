import type { Db, Filter, IndexDescription } from 'mongodb';
import { microsToUsd } from '../billing/mrr';
import type { BillingScope } from '../billing/subscriber-id';
import type { SubscriberState } from '../billing/subscriber-state';
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
  /** The record's version after the change; events applied in the same write share it and their before/after. */
  version: number;
  before: TimelineSnapshot | null;
  after: TimelineSnapshot;
}

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
  constructor(
    private readonly db: Db,
    private readonly events: WebhookEventRepository,
  ) {}

  private get coll() {
    return this.db.collection<TimelineRecord>(COLLECTIONS.billingTimeline);
  }

  /**
   * Appends an entry per event id `next` has applied and `previous` had not. The _id (scope, subscriber,
   * event) makes a retried activity's second append a no-op. Type and times come from the webhook inbox
   * (one indexed read by _id for all of them), else from the state's last event.
   */
  async append(previous: SubscriberState | null, next: SubscriberState, now: Date): Promise<number> {
    const seen = new Set(previous?.appliedEventIds ?? []);
    const fresh = next.appliedEventIds.filter((id) => !seen.has(id));
    if (fresh.length === 0) return 0;
    const inbox = await this.events.summaries(next.scope, fresh);
    const before = previous ? snapshotOf(previous) : null;
    const after = snapshotOf(next);
    const docs: TimelineRecord[] = fresh.map((eventId): TimelineRecord => {
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
        before,
        after,
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
    return docs.length;
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
];
