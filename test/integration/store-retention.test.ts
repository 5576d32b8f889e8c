/** Retention settings become TTL indexes on the real store, and a changed setting changes them in place. */
import assert from 'node:assert/strict';
import type { Db } from 'mongodb';
import { COLLECTIONS } from '../../src/store/collections';
import { ensureIndexes } from '../../src/store/indexes';
import { connectStore, type Store } from '../../src/store/mongo';
import { DEFAULT_RETENTION } from '../../src/store/retention';
import { testConfig } from '../support/config';

const DAY_S = 86_400;

async function ttlOf(db: Db, collection: string): Promise<Record<string, number>> {
  const indexes = await db
    .collection(collection)
    .listIndexes()
    .toArray()
    .catch(() => []);
  return Object.fromEntries(
    indexes.filter((i) => i.expireAfterSeconds !== undefined).map((i) => [String(i.name), Number(i.expireAfterSeconds)]),
  );
}

describe('retention: TTL indexes on the real store', () => {
  let store: Store;
  before(async () => {
    const config = testConfig();
    store = await connectStore(config.mongo.uri, `${config.mongo.dbName}_retention`, 'test');
  });
  after(async () => {
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
  });

  it('creates the defaults, adjusts changed values and drops a retention switched off', async () => {
    const db = store.db;
    await ensureIndexes(db, DEFAULT_RETENTION);
    assert.deepEqual(await ttlOf(db, COLLECTIONS.webhookEvents), { ttl_received: 30 * DAY_S });
    assert.deepEqual(await ttlOf(db, COLLECTIONS.outbox), { ttl_created: 30 * DAY_S });
    assert.deepEqual(await ttlOf(db, COLLECTIONS.invocations), {});

    await ensureIndexes(db, { webhookEventDays: 7, mailOutboxDays: 30, eventLogDays: 30, invocationDays: 90 });
    assert.deepEqual(await ttlOf(db, COLLECTIONS.webhookEvents), { ttl_received: 7 * DAY_S });
    assert.deepEqual(await ttlOf(db, COLLECTIONS.invocations), { ttl_completed: 90 * DAY_S });
    assert.deepEqual(await ttlOf(db, COLLECTIONS.invocationResults), { ttl_stored: 90 * DAY_S });

    await ensureIndexes(db, DEFAULT_RETENTION);
    assert.deepEqual(await ttlOf(db, COLLECTIONS.invocations), {});
    assert.deepEqual(await ttlOf(db, COLLECTIONS.invocationResults), {});
    assert.deepEqual(await ttlOf(db, COLLECTIONS.webhookEvents), { ttl_received: 30 * DAY_S });
  });
});
