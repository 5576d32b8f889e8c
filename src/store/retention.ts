import type { IndexDescription } from 'mongodb';
import { COLLECTIONS } from './collections';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency';

import type { Retention } from '../config/config';

export const DEFAULT_RETENTION: Retention = { webhookEventDays: 30, mailOutboxDays: 30, eventLogDays: 30, invocationDays: null };

const DAY_S = 24 * 3600;

/** Retrieval contexts are working data of a running invocation; one left behind by a crash goes after this. */
const CONTEXT_TTL_S = 7 * DAY_S;

const ttl = (field: string, seconds: number, name: string): IndexDescription => ({
  key: { [field]: 1 },
  name,
  expireAfterSeconds: seconds,
});

/**
 * The TTL indexes for a retention setting. The store's TTL monitor deletes a document once its date field is
 * that old; a document whose field is null or missing (an invocation still running) is never deleted.
 */
export function ttlIndexes(r: Retention): { create: Record<string, IndexDescription[]>; drop: [collection: string, name: string][] } {
  const create: Record<string, IndexDescription[]> = {
    [COLLECTIONS.webhookEvents]: [ttl('receivedAt', r.webhookEventDays * DAY_S, 'ttl_received')],
    [COLLECTIONS.outbox]: [ttl('createdAt', r.mailOutboxDays * DAY_S, 'ttl_created')],
    // By the last delivery an entry stands for (a counted refusal grows while its minute lasts).
    [COLLECTIONS.eventLog]: [ttl('lastAt', r.eventLogDays * DAY_S, 'ttl_last')],
    // Twice the window: a key is released by claim() once past the window anyway; this only collects them.
    [COLLECTIONS.idempotencyKeys]: [ttl('createdAt', (2 * IDEMPOTENCY_WINDOW_MS) / 1000, 'ttl_created')],
    [COLLECTIONS.invocationContexts]: [ttl('createdAt', CONTEXT_TTL_S, 'ttl_created')],
  };
  const drop: [string, string][] = [];
  if (r.invocationDays === null) {
    drop.push([COLLECTIONS.invocations, 'ttl_completed'], [COLLECTIONS.invocationResults, 'ttl_stored']);
  } else {
    create[COLLECTIONS.invocations] = [ttl('completedAt', r.invocationDays * DAY_S, 'ttl_completed')];
    create[COLLECTIONS.invocationResults] = [ttl('storedAt', r.invocationDays * DAY_S, 'ttl_stored')];
  }
  return { create, drop };
}
