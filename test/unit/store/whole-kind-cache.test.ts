import assert from 'node:assert/strict';
import type { ProjectDocument } from '../../../src/skills/documents';
import { WholeKindCache } from '../../../src/store/documents';

const docs = (n: number, prefix = 'd') =>
  Array.from({ length: n }, (_, i) => ({ kind: 'win', externalId: `${prefix}${i}` }) as unknown as ProjectDocument);

describe('WholeKindCache', () => {
  it('answers only for the revision an entry was read at', () => {
    const cache = new WholeKindCache(100);
    const rows = docs(3);
    cache.set('k', 4, rows);
    assert.equal(cache.get('k', 4), rows);
    assert.equal(cache.get('k', 5), null);
    assert.equal(cache.get('other', 4), null);
  });

  it('drops the least recently used entries to stay within its document bound', () => {
    const cache = new WholeKindCache(10);
    cache.set('a', 1, docs(4, 'a'));
    cache.set('b', 1, docs(4, 'b'));
    assert.ok(cache.get('a', 1), 'a was used last');
    cache.set('c', 1, docs(4, 'c'));
    assert.equal(cache.get('b', 1), null, 'b was the least recently used');
    assert.ok(cache.get('a', 1));
    assert.ok(cache.get('c', 1));
  });

  it('does not keep a read larger than the whole bound', () => {
    const cache = new WholeKindCache(5);
    cache.set('big', 1, docs(6));
    assert.equal(cache.get('big', 1), null);
  });
});
