import assert from 'node:assert/strict';
import { AppCache } from '../../../../src/api/access/app-cache';
import type { AppRecord, AppRepository } from '../../../../src/store/apps';

function repo(existing: string[]) {
  const reads: string[] = [];
  const apps = {
    get: async (slug: string) => {
      reads.push(slug);
      return existing.includes(slug) ? ({ _id: slug } as AppRecord) : null;
    },
  } as unknown as AppRepository;
  return { apps, reads };
}

describe('AppCache', () => {
  it('evicts the least recently used entry past its size, not the whole cache', async () => {
    const { apps, reads } = repo(['a', 'b', 'c', 'd']);
    const cache = new AppCache(apps, () => 0, 3);
    for (const s of ['a', 'b', 'c']) await cache.get(s);
    await cache.get('a'); // a is now the most recently used
    await cache.get('d'); // b goes
    reads.length = 0;
    for (const s of ['a', 'c', 'd']) await cache.get(s);
    assert.deepEqual(reads, [], 'a, c and d are still cached');
    await cache.get('b');
    assert.deepEqual(reads, ['b']);
  });

  it('slugs without an app never push an app out', async () => {
    const { apps, reads } = repo(['real']);
    const cache = new AppCache(apps, () => 0, 3);
    await cache.get('real');
    for (let i = 0; i < 10; i++) await cache.lookup(`unknown-${i}`);
    reads.length = 0;
    assert.deepEqual(await cache.lookup('real'), { app: { _id: 'real' }, cached: true });
    assert.deepEqual(reads, []);
    assert.deepEqual(await cache.lookup('unknown-9'), { app: null, cached: true }, 'misses are cached too (bounded apart)');
    assert.deepEqual(await cache.lookup('unknown-0'), { app: null, cached: false });
  });

  it('entries expire, and forget() drops one at once', async () => {
    let now = 0;
    const { apps, reads } = repo(['a']);
    const cache = new AppCache(apps, () => now);
    await cache.get('a');
    now = 4_999;
    await cache.get('a');
    now = 5_000;
    await cache.get('a');
    cache.forget('a');
    await cache.get('a');
    assert.deepEqual(reads, ['a', 'a', 'a']);
  });
});
