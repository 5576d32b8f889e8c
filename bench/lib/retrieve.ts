/**
 * The skills' retrieval step called directly, exactly as the retrieveSkillContext activity runs it (steps in
 * order, a step's queries in parallel, DocumentRepository.find for each), with every query timed. The
 * baseline of benchmark 3 and the subject of benchmark 4.
 */
import type { Filter, Document, Sort } from 'mongodb';
import type { ProjectDocument } from '../../src/skills/documents';
import { resolveQueries, type DocumentQuery } from '../../src/skills/retrieval-plan';
import { retrievalPlan } from '../../src/skills/run';
import type { SkillInputs } from '../../src/skills/inputs';
import type { SkillName } from '../../src/skills/types';
import type { DocumentRepository } from '../../src/store/documents';
import { nowMs } from './stats';

export interface TimedQuery {
  query: DocumentQuery;
  ms: number;
  rows: number;
}

export interface TimedRetrieval {
  docs: ProjectDocument[];
  queries: TimedQuery[];
  ms: number;
}

export async function retrieveTimed<S extends SkillName>(
  repo: DocumentRepository,
  project: string,
  skill: S,
  inputs: SkillInputs[S],
): Promise<TimedRetrieval> {
  const started = nowMs();
  const plan = retrievalPlan(skill, inputs);
  const docs: ProjectDocument[] = [];
  const queries: TimedQuery[] = [];
  for (const step of plan.steps) {
    const results = await Promise.all(
      resolveQueries(step, docs).map(async (query) => {
        const t = nowMs();
        const rows = await repo.find(project, query);
        queries.push({ query, ms: nowMs() - t, rows: rows.length });
        return rows;
      }),
    );
    docs.push(...results.flat());
  }
  return { docs, queries, ms: nowMs() - started };
}

/** The filter and sort DocumentRepository.find sends for a query (kept in step with it), for explain. */
export function storeQuery(project: string, query: DocumentQuery): { filter: Filter<Document>; sort: Sort; limit: number } {
  const filter: Filter<Document> = { project, kind: query.kind };
  for (const c of query.where) {
    if (c.op === 'eq') filter[c.field] = c.value;
    else if (c.op === 'in') filter[c.field] = { $in: c.value };
    else if (c.op === 'absent') filter[c.field] = null;
    else filter[c.field] = Object.fromEntries(Object.entries(c.value).map(([op, v]) => [`$${op}`, v]));
  }
  const sort: Sort = Object.fromEntries((query.sort ?? []).map((s) => [s.field, s.order === 'asc' ? 1 : -1]));
  return { filter, sort, limit: query.limit };
}

/** A short label for a query: "error_issue by service in[2] sort count desc". */
export function describeQuery(q: DocumentQuery): string {
  const where = q.where.map((c) => (c.op === 'in' ? `${c.field} in[${c.value.length}]` : `${c.field} ${c.op}`)).join(', ');
  const marks = q.mark?.length ? ` marking ${q.mark.join(', ')}` : '';
  const sort = (q.sort ?? []).map((s) => `${s.field} ${s.order}`).join(', ');
  return `${q.kind}${where ? ` by ${where}` : ' (all)'}${sort ? ` sort ${sort}` : ''} limit ${q.limit}${marks}`;
}
