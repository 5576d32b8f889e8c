/**
 * Retrieval plans: what a skill reads from the project's documents, as plain data the store layer turns
 * into MongoDB queries. The format:
 *
 *   RetrievalPlan = { steps: [ { queries: PlannedQuery[] }, ... ] }   run the steps in order
 *   PlannedQuery  = { kind, where: Condition[], sort?, limit }         one find() on one kind, `where` ANDed
 *   Condition     = { field, op: 'eq',    value: string | number }      → { [field]: value }
 *                 | { field, op: 'in',    value: (string|number)[] }    → { [field]: { $in: value } }
 *                                                                        (on an array field: any element)
 *                 | { field, op: 'range', value: { gt?, gte?, lt?, lte? } } → { [field]: { $gt, $gte, ... } }
 *                 | { field, op: 'in',    from: { kind, field } }       values collected from the documents
 *                                                                        of that kind fetched by earlier steps
 *                 | { field, op: 'each',  from: [{ kind, field }, ...] } one query per value collected so
 *                                                                        (→ { [field]: value }), at most EACH_MAX,
 *                                                                        for "is there any …" questions with limit 1
 *
 * `field` is a document field (documents.ts) or a derived index field (index-fields.ts: versionKey,
 * fixVersionKey). `sort` maps to { [field]: 1 | -1 }. The project filter is the store's own business.
 * Call resolveQueries(step, fetchedSoFar) to turn a step into concrete queries: `from` conditions become
 * `in` lists (or one query per value for `each`), and a query whose `in` list is empty is dropped (it could
 * match nothing). Results of all
 * queries are concatenated; the skill's selection removes duplicates.
 */
import type { ProjectDocument } from './documents';
import type { DocumentKind } from './types';

export type FilterValue = string | number;

export type Condition =
  | { field: string; op: 'eq'; value: FilterValue }
  | { field: string; op: 'in'; value: FilterValue[] }
  | { field: string; op: 'range'; value: { gt?: string; gte?: string; lt?: string; lte?: string } };

/** An `in` condition whose values come from documents fetched by an earlier step. */
export interface DependentCondition {
  field: string;
  op: 'in';
  from: { kind: DocumentKind; field: string };
}

/** One query per value collected from earlier steps' documents (see eachValues for which values). */
export interface EachCondition {
  field: string;
  op: 'each';
  from: { kind: DocumentKind; field: string }[];
}

/** An `each` condition asks at most this many queries; the values are taken in code-unit order. */
export const EACH_MAX = 100;

export interface SortKey {
  field: string;
  order: 'asc' | 'desc';
}

export interface DocumentQuery {
  kind: DocumentKind;
  where: Condition[];
  sort?: SortKey[];
  limit: number;
}

export interface PlannedQuery extends Omit<DocumentQuery, 'where'> {
  where: (Condition | DependentCondition | EachCondition)[];
}

export interface RetrievalStep {
  queries: PlannedQuery[];
}

export interface RetrievalPlan {
  steps: RetrievalStep[];
}

function valuesOf(docs: readonly ProjectDocument[], kind: DocumentKind, field: string): FilterValue[] {
  const out = new Set<FilterValue>();
  for (const doc of docs) {
    if (doc.kind !== kind) continue;
    const v = (doc as unknown as Record<string, unknown>)[field];
    for (const item of Array.isArray(v) ? v : [v]) {
      if (typeof item === 'string' || typeof item === 'number') out.add(item);
    }
  }
  return [...out];
}

/** The values an `each` condition asks about, in the order and number the queries are made. */
export function eachValues(fetched: readonly ProjectDocument[], from: EachCondition['from']): FilterValue[] {
  const all = new Set(from.flatMap((f) => valuesOf(fetched, f.kind, f.field)));
  return [...all].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)).slice(0, EACH_MAX);
}

/** The step's queries with dependent conditions filled in from `fetched`; queries that cannot match are dropped. */
export function resolveQueries(step: RetrievalStep, fetched: readonly ProjectDocument[]): DocumentQuery[] {
  const out: DocumentQuery[] = [];
  for (const query of step.queries) {
    const each = query.where.find((c): c is EachCondition => c.op === 'each');
    const where = query.where.flatMap((c): Condition[] =>
      c.op === 'each' ? [] : 'from' in c ? [{ field: c.field, op: 'in', value: valuesOf(fetched, c.from.kind, c.from.field) }] : [c],
    );
    if (where.some((c) => c.op === 'in' && c.value.length === 0)) continue;
    if (!each) out.push({ ...query, where });
    else
      for (const value of eachValues(fetched, each.from)) out.push({ ...query, where: [{ field: each.field, op: 'eq', value }, ...where] });
  }
  return out;
}

/** Every kind a plan reads, for the `searched` report. */
export function plannedKinds(plan: RetrievalPlan): DocumentKind[] {
  return [...new Set(plan.steps.flatMap((s) => s.queries.map((q) => q.kind)))];
}
