import assert from 'node:assert/strict';
import { listPage } from '../../../../src/api/http/pagination';
import { PAGE_BYTE_BUDGET } from '../../../../src/api/http/page-budget';

/** A listing of `n` numbered rows read the way a store reads them: after `after`, at most `rows` of them. */
const store = (n: number) => (after: number) => async (rows: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, text: 'x' }))
    .filter((r) => r.id > after)
    .slice(0, rows);

async function walk(n: number, limit: number, budgetBytes?: number) {
  const pages: number[][] = [];
  let after = 0;
  for (;;) {
    const { items, nextCursor } = await listPage({
      limit,
      read: store(n)(after),
      present: (r) => r,
      cursorOf: (r) => String(r.id),
      budgetBytes,
    });
    pages.push(items.map((r) => r.id));
    if (nextCursor === null) return pages;
    after = Number(nextCursor);
  }
}

describe('pagination: one rule for every list handler', () => {
  it('hands no cursor on a last page that is exactly full', async () => {
    assert.deepEqual(await walk(4, 2), [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(await walk(2, 2), [[1, 2]]);
    assert.deepEqual(await walk(0, 2), [[]]);
  });

  it('hands a cursor when rows follow, the last page partly full', async () => {
    assert.deepEqual(await walk(5, 2), [[1, 2], [3, 4], [5]]);
  });

  it('continues after the last row the byte budget let in', async () => {
    const big = { id: 1, text: 'y'.repeat(PAGE_BYTE_BUDGET) };
    const { items, nextCursor } = await listPage({
      limit: 3,
      read: async () => [big, { id: 2, text: 'z' }],
      present: (r) => r,
      cursorOf: (r) => String(r.id),
    });
    assert.deepEqual(
      items.map((r) => r.id),
      [1],
    );
    assert.equal(nextCursor, '1');
  });

  it('a row with no cursor ends the listing', async () => {
    const { nextCursor } = await listPage({ limit: 1, read: async () => [1, 2], present: (r) => r, cursorOf: () => null });
    assert.equal(nextCursor, null);
  });
});
