import type { Db, IndexDescription } from 'mongodb';
import { BILLING_DAILY_INDEXES } from './billing-daily';
import { BILLING_EVENT_DAY_INDEXES } from './billing-event-series';
import { BILLING_TIMELINE_INDEXES } from './billing-timeline';
import { COLLECTIONS } from './collections';
import { DEAD_LETTER_INDEXES } from './dead-letters';
import { OWED_TOTALS_INDEXES } from './owed-totals';
import { EVENT_LOG_INDEXES } from './event-log';
import { backfillFirstContributions, backfillSearchTerms, DOCUMENT_INDEXES, FIRST_CONTRIBUTION_INDEXES } from './documents';
import { INVOCATION_INDEXES } from './invocations';
import { OUTBOUND_DELIVERY_INDEXES, OUTBOUND_ENDPOINT_INDEXES } from './outbound';
import { backfillCustomerListKeys, RETIRED_SUBSCRIBER_INDEXES, SUBSCRIBER_INDEXES } from './subscribers';
import { WEBHOOK_EVENT_INDEXES } from './webhook-events';
import type { Retention } from '../config/config';
import { ttlIndexes, DEFAULT_RETENTION } from './retention';

/**
 * Every index the service relies on, created idempotently at start-up by the worker and the API. Unique
 * indexes double as idempotency guards; TTL indexes bound what grows with use (see retention.ts). Each query
 * the service makes is served by one of these: test/integration/query-plans.test.ts runs `explain` on every
 * query shape the integration suite issues and fails on a collection scan.
 */
export const INDEXES: Record<string, IndexDescription[]> = {
  [COLLECTIONS.projects]: [{ key: { org: 1 }, name: 'by_org' }],
  [COLLECTIONS.documents]: DOCUMENT_INDEXES,
  [COLLECTIONS.firstContributions]: FIRST_CONTRIBUTION_INDEXES,
  [COLLECTIONS.invocations]: INVOCATION_INDEXES,
  [COLLECTIONS.webhookEvents]: WEBHOOK_EVENT_INDEXES,
  [COLLECTIONS.subscribers]: SUBSCRIBER_INDEXES,
  [COLLECTIONS.billingDaily]: BILLING_DAILY_INDEXES,
  [COLLECTIONS.billingTimeline]: BILLING_TIMELINE_INDEXES,
  [COLLECTIONS.billingEventDays]: BILLING_EVENT_DAY_INDEXES,
  [COLLECTIONS.eventLog]: EVENT_LOG_INDEXES,
  [COLLECTIONS.outbox]: [{ key: { createdAt: -1 }, name: 'newest' }],
  [COLLECTIONS.deadLetters]: DEAD_LETTER_INDEXES,
  [COLLECTIONS.owedTotals]: OWED_TOTALS_INDEXES,
  [COLLECTIONS.outboundEndpoints]: OUTBOUND_ENDPOINT_INDEXES,
  [COLLECTIONS.outboundDeliveries]: OUTBOUND_DELIVERY_INDEXES,
};

const RETIRED_INDEXES: [string, string[]][] = [
  [COLLECTIONS.subscribers, RETIRED_SUBSCRIBER_INDEXES],
  // The per-author lookups of earlier contributions, replaced by the first-contribution index; the version index,
  // which by_version_newest extends to serve the unreleased changes newest first.
  [COLLECTIONS.documents, ['by_author_version', 'by_version']],
];

export async function ensureIndexes(db: Db, retention: Retention = DEFAULT_RETENTION): Promise<void> {
  const wanted: Record<string, IndexDescription[]> = { ...INDEXES };
  const ttl = ttlIndexes(retention);
  for (const [collection, specs] of Object.entries(ttl.create)) wanted[collection] = [...(wanted[collection] ?? []), ...specs];
  for (const [collection, indexes] of Object.entries(wanted)) {
    const existing = new Map(
      (
        await db
          .collection(collection)
          .listIndexes()
          .toArray()
          .catch(() => [])
      ).map((i) => [String(i.name), i]),
    );
    for (const spec of indexes) {
      const current = existing.get(spec.name!);
      // A changed retention changes a TTL index's expireAfterSeconds: collMod adjusts it in place.
      if (current && spec.expireAfterSeconds !== undefined && current.expireAfterSeconds !== spec.expireAfterSeconds) {
        await db.command({ collMod: collection, index: { name: spec.name, expireAfterSeconds: spec.expireAfterSeconds } });
      }
    }
    const missing = indexes.filter((i) => !existing.has(i.name!));
    if (missing.length > 0) await db.collection(collection).createIndexes(missing);
  }
  // Retention switched off (keep forever): its TTL index goes.
  for (const [collection, name] of ttl.drop) {
    if ((await indexNames(db, collection)).includes(name)) await db.collection(collection).dropIndex(name);
  }
  // Indexes no query uses any more cost every write: gone.
  for (const [collection, names] of RETIRED_INDEXES) {
    const present = await indexNames(db, collection);
    for (const name of names) {
      // The API and the worker start together: the other one may have dropped it a moment ago.
      if (present.includes(name))
        await db
          .collection(collection)
          .dropIndex(name)
          .catch((err: unknown) => {
            if (!isIndexNotFound(err)) throw err;
          });
    }
  }
  // Documents stored before the listing's search had its index get their words.
  await backfillSearchTerms(db);
  // Commits and pull requests stored before the first-contribution index get their place in it.
  await backfillFirstContributions(db);
  // Subscriber records stored before the console's customer list kept its filter and sort keys get them.
  await backfillCustomerListKeys(db);
}

function isIndexNotFound(err: unknown): boolean {
  const e = err as { code?: number; codeName?: string; message?: string } | null;
  return e?.code === 27 || e?.codeName === 'IndexNotFound' || /index not found/i.test(String(e?.message ?? ''));
}

/** The names of a collection's indexes; none for a collection not created yet. */
async function indexNames(db: Db, collection: string): Promise<string[]> {
  const indexes = await db
    .collection(collection)
    .listIndexes()
    .toArray()
    .catch(() => []);
  return indexes.map((i) => String(i.name));
}
