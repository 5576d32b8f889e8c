/**
 * A page of a list answers at most PAGE_BYTE_BUDGET bytes of JSON, whatever `limit` asks for: a record may be
 * large (every entitlement and alias a provider sent, within the event limits), and `limit=200` of the largest
 * would turn a few uploads into hundreds of megabytes per request. The page ends early instead and its cursor
 * continues after the last item it holds. One item always fits, so paging always moves on.
 */
export const PAGE_BYTE_BUDGET = 1024 * 1024;

/** The presented items of `rows` that fit the budget, in order, and how many rows they are. */
export function withinBudget<T, R>(
  rows: readonly T[],
  present: (row: T) => R,
  budgetBytes = PAGE_BYTE_BUDGET,
): { items: R[]; taken: number } {
  if (budgetBytes === Infinity) return { items: rows.map(present), taken: rows.length };
  const items: R[] = [];
  let bytes = 0;
  for (const row of rows) {
    const item = present(row);
    const size = Buffer.byteLength(JSON.stringify(item));
    if (items.length > 0 && bytes + size > budgetBytes) break;
    items.push(item);
    bytes += size;
  }
  return { items, taken: items.length };
}
