import type { RetrievalPlan } from '../retrieval-plan';

/** Enough to rank a sales team's whole library; ranking, not the query, decides relevance. */
const LIMIT = 500;

/**
 * All wins, case studies and sales notes, newest first. Not filtered by industry: evidence from another
 * industry that answers a pain point is still evidence; the ranking decides what is relevant.
 */
export function proposalPlan(): RetrievalPlan {
  const newestFirst = [{ field: 'date', order: 'desc' as const }];
  return {
    steps: [
      {
        queries: (['case_study', 'win', 'sales_note'] as const).map((kind) => ({ kind, where: [], sort: newestFirst, limit: LIMIT })),
      },
    ],
  };
}
