/** The worker's cache of whole-kind reads never serves documents older than the last upload. */
import assert from 'node:assert/strict';
import type { ProjectDocument } from '../../src/skills/documents';
import { DocumentRepository, WholeKindCache } from '../../src/store/documents';
import { connectStore, type Store } from '../../src/store/mongo';
import { testConfig } from '../support/config';

const win = (externalId: string, title: string): ProjectDocument =>
  ({
    kind: 'win',
    externalId,
    title,
    body: '',
    createdAt: '2025-01-01T00:00:00.000Z',
    customer: 'C',
    industry: 'Retail',
    date: '2025-01-01T00:00:00.000Z',
    metrics: [],
  }) as unknown as ProjectDocument;

describe('whole-kind document cache', () => {
  let store: Store;
  before(async () => {
    const config = testConfig();
    store = await connectStore(config.mongo.uri, `${config.mongo.dbName}_doccache`, 'test');
  });
  after(async () => {
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
  });

  it('serves a repeated read from memory and re-reads after any upload of that kind', async () => {
    const cached = new DocumentRepository(store.db, new WholeKindCache());
    const writer = new DocumentRepository(store.db);
    const query = { kind: 'win' as const, where: [], sort: [{ field: 'date', order: 'desc' as const }], limit: 500 };
    await writer.upsertMany('p', [win('w1', 'First')], new Date());
    const first = await cached.find('p', query);
    assert.deepEqual(
      first.map((d) => d.title),
      ['First'],
    );

    // A write behind the cache's back (not through upsertMany) is invisible: the repeat is served from memory.
    await store.db.collection('documents').updateOne({ project: 'p', externalId: 'w1' }, { $set: { title: 'Changed directly' } });
    assert.deepEqual(
      (await cached.find('p', query)).map((d) => d.title),
      ['First'],
    );

    await writer.upsertMany('p', [win('w2', 'Second')], new Date());
    const after = await cached.find('p', query);
    assert.deepEqual(after.map((d) => d.title).sort(), ['Changed directly', 'Second']);
    assert.deepEqual(await cached.find('other-project', query), []);
  });
});
