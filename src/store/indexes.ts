import type { Db, IndexDescription } from 'mongodb';
import { COLLECTIONS } from './collections';
import { DOCUMENT_INDEXES } from './documents';
import { INVOCATION_INDEXES } from './invocations';
import { SUBSCRIBER_INDEXES } from './subscribers';
import { WEBHOOK_EVENT_INDEXES } from './webhook-events';

/**
 * Every index the service relies on, created idempotently at start-up by the worker and the API (createIndexes
 * is a no-op when they exist). Unique indexes double as idempotency guards.
 */
export const INDEXES: Record<string, IndexDescription[]> = {
  [COLLECTIONS.projects]: [{ key: { org: 1 }, name: 'by_org' }],
  [COLLECTIONS.documents]: DOCUMENT_INDEXES,
  [COLLECTIONS.invocations]: INVOCATION_INDEXES,
  [COLLECTIONS.webhookEvents]: WEBHOOK_EVENT_INDEXES,
  [COLLECTIONS.subscribers]: SUBSCRIBER_INDEXES,
};

export async function ensureIndexes(db: Db): Promise<void> {
  for (const [collection, indexes] of Object.entries(INDEXES)) {
    // Only the missing ones, by name: re-sending existing specs makes FerretDB 1.24 drop the connection (a
    // server bug), and skipping them saves a round of index comparisons on every start anyway.
    const existing = new Set(
      await db.collection(collection).listIndexes().map((i) => String(i.name)).toArray().catch(() => [] as string[]),
    );
    const missing = indexes.filter((i) => !existing.has(i.name!));
    if (missing.length > 0) await db.collection(collection).createIndexes(missing);
  }
}
