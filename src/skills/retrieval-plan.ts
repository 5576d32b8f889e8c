/**
 * Retrieval plans: what a skill reads from the project's documents, as plain data the store layer turns
 * into MongoDB queries. The format:
 *
 *   RetrievalPlan = { steps: [ { queries: PlannedQuery[] }, ... ] }   run the steps in order
 *   PlannedQuery  = { kind, where: Condition[], sort?, limit,          one find() on one kind, `where` ANDed
 *                     unless?, mark? }
 *   Condition     = { field, op: 'eq',    value: string | number }      → { [field]: value }
 *                 | { field, op: 'in',    value: (string|number)[] }    → { [field]: { $in: value } }
 *                                                                        (on an array field: any element)
 *                 | { field, op: 'range', value: { gt?, gte?, lt?, lte? } } → { [field]: { $gt, $gte, ... } }
 *                 | { field, op: 'absent' }                              → { [field]: null } (the field is missing)
 *                 | { field, op: 'in',    from: { kind, field } }       values collected from the documents
 *                                                                        of that kind fetched by earlier steps
 *   unless        = [{ kind, field, value }, ...]                       the query is not made when an earlier
 *                                                                        step fetched a document of that kind
 *                                                                        whose field has that value
 *   mark          = ['firstContribution']                               the store marks each returned commit or
 *                                                                        pull request that is its author's first
 *                                                                        contribution to the project (contributions.ts)
 *
 * `field` is a document field (documents.ts) or a derived index field (index-fields.ts: versionKey,
 * fixVersionKey). `sort` maps to { [field]: 1 | -1 }. The project filter is the store's own business.
 * Call resolveQueries(step, fetchedSoFar) to turn a step into concrete queries: `from` conditions become
 * `in` lists, and a query whose `in` list is empty (it could match nothing) or whose `unless` matches is
 * dropped. Results of all queries are concatenated; the skill's selection removes duplicates.
 */
import type { ProjectDocument } from './documents';
import type { DocumentKind } from './types';

export type FilterValue = string | number;

export type Condition =
  | { field: string; op: 'eq'; value: FilterValue }
  | { field: string; op: 'in'; value: FilterValue[] }
  | { field: string; op: 'range'; value: { gt?: string; gte?: string; lt?: string; lte?: string } }
  | { field: string; op: 'absent' };

/** An `in` condition whose values come from documents fetched by an earlier step. */
export interface DependentCondition {
  field: string;
  op: 'in';
  from: { kind: DocumentKind; field: string };
}

/** A document fetched by an earlier step that makes a query unnecessary. */
export interface UnlessFound {
  kind: DocumentKind;
  field: string;
  value: FilterValue;
}

/** What the store adds to the documents a query returns (see the format above). */
export type DocumentMark = 'firstContribution';

export interface SortKey {
  field: string;
  order: 'asc' | 'desc';
}

export interface DocumentQuery {
  kind: DocumentKind;
  where: Condition[];
  sort?: SortKey[];
  limit: number;
  mark?: DocumentMark[];
}

export interface PlannedQuery extends Omit<DocumentQuery, 'where'> {
  where: (Condition | DependentCondition)[];
  unless?: UnlessFound[];
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

function found(fetched: readonly ProjectDocument[], u: UnlessFound): boolean {
  return fetched.some((d) => d.kind === u.kind && (d as unknown as Record<string, unknown>)[u.field] === u.value);
}

/** The step's queries with dependent conditions filled in from `fetched`; queries that cannot match, or need not be made, are dropped. */
export function resolveQueries(step: RetrievalStep, fetched: readonly ProjectDocument[]): DocumentQuery[] {
  const out: DocumentQuery[] = [];
  for (const { unless, ...query } of step.queries) {
    if (unless?.some((u) => found(fetched, u))) continue;
    const where = query.where.map((c): Condition =>
      'from' in c ? { field: c.field, op: 'in', value: valuesOf(fetched, c.from.kind, c.from.field) } : c,
    );
    if (where.some((c) => c.op === 'in' && c.value.length === 0)) continue;
    out.push({ ...query, where });
  }
  return out;
}

/** Every kind a plan reads, for the `searched` report. */
export function plannedKinds(plan: RetrievalPlan): DocumentKind[] {
  return [...new Set(plan.steps.flatMap((s) => s.queries.map((q) => q.kind)))];
}
