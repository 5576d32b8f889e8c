/**
 * A store in memory that runs retrieval plans the way the Mongo store does (eq, in, range, absent, sort, limit,
 * derived index fields, first contributions marked over every document it holds), so skill tests see what a
 * real invocation would retrieve.
 */
import { contributionRank, contributorKey, isContribution } from '../../../src/skills/contributions';
import type { ProjectDocument } from '../../../src/skills/documents';
import { indexFields } from '../../../src/skills/index-fields';
import { resolveQueries, type Condition, type DocumentQuery, type RetrievalPlan } from '../../../src/skills/retrieval-plan';

type Row = Record<string, unknown>;

function matches(row: Row, c: Condition): boolean {
  const v = row[c.field];
  if (c.op === 'absent') return v === undefined || v === null;
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

/** Each author's first contribution among all of `docs` (the document with the lowest rank), by author key. */
function firstOfEachAuthor(docs: readonly ProjectDocument[]): Set<ProjectDocument> {
  const first = new Map<string, { rank: string; doc: ProjectDocument }>();
  for (const doc of docs) {
    if (!isContribution(doc)) continue;
    const rank = contributionRank(doc);
    const seen = first.get(contributorKey(doc));
    if (!seen || rank < seen.rank) first.set(contributorKey(doc), { rank, doc });
  }
  return new Set([...first.values()].map((f) => f.doc));
}

export function find(docs: readonly ProjectDocument[], query: DocumentQuery): ProjectDocument[] {
  const firsts = query.mark?.includes('firstContribution') ? firstOfEachAuthor(docs) : new Set<ProjectDocument>();
  return docs
    .map((doc) => ({ doc, row: { ...doc, ...indexFields(doc) } as Row }))
    .filter(({ doc, row }) => doc.kind === query.kind && query.where.every((c) => matches(row, c)))
    .sort((a, b) => compareRows(a.row, b.row, query))
    .slice(0, query.limit)
    .map(({ doc }) => (firsts.has(doc) ? { ...doc, firstContribution: true } : doc));
}

/** Runs every step of a plan, as the retrieval activity does. */
export function retrieve(plan: RetrievalPlan, docs: readonly ProjectDocument[]): ProjectDocument[] {
  const fetched: ProjectDocument[] = [];
  for (const step of plan.steps) for (const q of resolveQueries(step, fetched)) fetched.push(...find(docs, q));
  return fetched;
}
