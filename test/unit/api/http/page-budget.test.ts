import assert from 'node:assert/strict';
import { PAGE_BYTE_BUDGET, withinBudget } from '../../../../src/api/http/page-budget';

describe('page byte budget', () => {
  const rows = Array.from({ length: 10 }, (_, i) => ({ i, text: 'x'.repeat(300_000) }));

  it('ends a page before it passes the budget, in order', () => {
    const { items, taken } = withinBudget(rows, (r) => r);
    assert.equal(taken, 3);
    assert.deepEqual(
      items.map((r) => r.i),
      [0, 1, 2],
    );
    assert.ok(Buffer.byteLength(JSON.stringify(items)) <= PAGE_BYTE_BUDGET + 100);
  });

  it('always holds one item, however large, so paging moves on', () => {
    const { taken } = withinBudget([{ text: 'y'.repeat(2 * PAGE_BYTE_BUDGET) }, { text: 'z' }], (r) => r);
    assert.equal(taken, 1);
  });

  it('holds every row when they fit', () => {
    assert.equal(withinBudget(rows.slice(0, 2), (r) => r).taken, 2);
    assert.equal(withinBudget([], (r) => r).taken, 0);
  });
});
