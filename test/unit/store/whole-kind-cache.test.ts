import assert from 'node:assert/strict';
import type { ProjectDocument } from '../../../src/skills/documents';
import { WholeKindCache } from '../../../src/store/documents';

const docs = (n: number, prefix = 'd') =>
  Array.from({ length: n }, (_, i) => ({ kind: 'win', externalId: `${prefix}${i}` }) as unknown as ProjectDocument);

describe('WholeKindCache', () => {
  it('answers only for the revision an entry was read at', () => {
    const cache = new WholeKindCache(100);
    const rows = docs(3);
    cache.set('k', 4, rows, 'p');
    assert.equal(cache.get('k', 4), rows);
    assert.equal(cache.get('k', 5), null);
    assert.equal(cache.get('other', 4), null);
  });

  it('drops the least recently used entries to stay within its document bound', () => {
    const cache = new WholeKindCache(10);
    cache.set('a', 1, docs(4, 'a'), 'p');
    cache.set('b', 1, docs(4, 'b'), 'p');
    assert.ok(cache.get('a', 1), 'a was used last');
    cache.set('c', 1, docs(4, 'c'), 'p');
    assert.equal(cache.get('b', 1), null, 'b was the least recently used');
    assert.ok(cache.get('a', 1));
    assert.ok(cache.get('c', 1));
  });

  it('does not keep a read larger than the whole bound', () => {
    const cache = new WholeKindCache(5);
    cache.set('big', 1, docs(6), 'p');
    assert.equal(cache.get('big', 1), null);
  });

  it("one project's reads never push out a project that holds less: the largest holder gives up its oldest first", () => {
    const cache = new WholeKindCache(20);
    cache.set('calm', 1, docs(5, 'c'), 'calm');
    for (let i = 0; i < 50; i++) cache.set(`flood-${i}`, 1, docs(4, `f${i}-`), 'flood');
    assert.ok(cache.get('calm', 1), "the calm project's read stays");
    assert.equal(cache.holding('calm'), 5);
    assert.equal(cache.holding('flood'), 12, 'the flood keeps what is left of the bound');
    assert.ok(cache.get('flood-49', 1) && cache.get('flood-47', 1), 'its newest reads');
    assert.equal(cache.get('flood-46', 1), null, 'its older ones went');
  });

  it('counts an empty read as one document, so a flood of them is bounded too', () => {
    const cache = new WholeKindCache(10);
    for (let i = 0; i < 1_000; i++) cache.set(`empty-${i}`, 1, [], 'p');
    assert.equal(cache.holding('p'), 10);
    assert.ok(cache.get('empty-999', 1));
    assert.equal(cache.get('empty-989', 1), null);
  });
});
