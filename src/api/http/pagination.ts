import { withinBudget } from './page-budget';

/**
 * One page of a listing, by the same rule in every list handler: the store is asked for one row more than `limit`
 * (`read`), the page holds at most `limit` of them within the byte budget (page-budget.ts; `budgetBytes: Infinity`
 * for listings whose rows are small and bounded), and `nextCursor` is set only when a row follows the last one on
 * the page (a row past `limit`, or one the budget left for the next page). So the last page, however full, hands
 * out no cursor to an empty one.
 */
export async function listPage<T, R>(opts: {
  limit: number;
  read: (rows: number) => Promise<T[]>;
  present: (row: T) => R;
  /** The cursor continuing after `row` (null when the row has none: the listing ends there). */
  cursorOf: (row: T) => string | null;
  budgetBytes?: number;
}): Promise<{ items: R[]; nextCursor: string | null }> {
  const rows = await opts.read(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const { items, taken } = withinBudget(page, opts.present, opts.budgetBytes);
  const last = page[taken - 1];
  const more = rows.length > opts.limit || taken < page.length;
  return { items, nextCursor: more && last ? opts.cursorOf(last) : null };
}
