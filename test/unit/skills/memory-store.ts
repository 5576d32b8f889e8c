/**
 * A store in memory that runs retrieval plans the way the Mongo store does (eq, in, range, sort, limit,
 * derived index fields), so skill tests see what a real invocation would retrieve.
 */
import type { ProjectDocument } from '../../../src/skills/documents';
import { indexFields } from '../../../src/skills/index-fields';
import { resolveQueries, type Condition, type DocumentQuery, type RetrievalPlan } from '../../../src/skills/retrieval-plan';

type Row = Record<string, unknown>;

function matches(row: Row, c: Condition): boolean {
  const v = row[c.field];
  const values = Array.isArray(v) ? v : [v];
  if (c.op === 'eq') return values.includes(c.value);
  if (c.op === 'in') return values.some((x) => c.value.includes(x as string | number));
  const { gt, gte, lt, lte } = c.value;
  return values.some(
    (x) =>
      typeof x === 'string' &&
      (gt === undefined || x > gt) &&
      (gte === undefined || x >= gte) &&
      (lt === undefined || x < lt) &&
      (lte === undefined || x <= lte),
  );
}

function compareRows(a: Row, b: Row, query: DocumentQuery): number {
  for (const { field, order } of query.sort ?? []) {
    const [x, y] = [a[field] as string | number, b[field] as string | number];
    if (x !== y) return (x < y ? -1 : 1) * (order === 'asc' ? 1 : -1);
  }
  return 0;
}

export function find(docs: readonly ProjectDocument[], query: DocumentQuery): ProjectDocument[] {
  return docs
    .map((doc) => ({ doc, row: { ...doc, ...indexFields(doc) } as Row }))
    .filter(({ doc, row }) => doc.kind === query.kind && query.where.every((c) => matches(row, c)))
    .sort((a, b) => compareRows(a.row, b.row, query))
    .slice(0, query.limit)
    .map(({ doc }) => doc);
}

/** Runs every step of a plan, as the retrieval activity does. */
export function retrieve(plan: RetrievalPlan, docs: readonly ProjectDocument[]): ProjectDocument[] {
  const fetched: ProjectDocument[] = [];
  for (const step of plan.steps) for (const q of resolveQueries(step, fetched)) fetched.push(...find(docs, q));
  return fetched;
}
