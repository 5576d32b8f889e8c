import type { ReleaseNotesInputs } from './definition';
import type { RetrievalPlan } from '../retrieval-plan';
import { semverKey } from '../semver';

/** Upper bounds on what one invocation reads; a range larger than this is a request for a changelog dump. */
const LIMITS = { commit: 5000, pull_request: 2000, ticket: 2000, release: 500 };

/**
 * Commits and pull requests whose first release is in (from, to], tickets fixed in that range, and the
 * release records from `from` to `to` inclusive (the lower one names where the changelog starts). Then, for
 * each author of those commits and pull requests, one earlier commit and one earlier pull request if there
 * are any: an author with neither makes a first contribution in this range ("New contributors").
 */
export function releaseNotesPlan(inputs: ReleaseNotesInputs): RetrievalPlan {
  const inRange = { gt: semverKey(inputs.fromVersion), lte: semverKey(inputs.toVersion) };
  const byVersion = { field: 'versionKey', op: 'range', value: inRange } as const;
  return {
    steps: [
      {
        queries: [
          { kind: 'commit', where: [byVersion], sort: [{ field: 'committedAt', order: 'asc' }], limit: LIMITS.commit },
          { kind: 'pull_request', where: [byVersion], sort: [{ field: 'number', order: 'asc' }], limit: LIMITS.pull_request },
          {
            kind: 'ticket',
            where: [{ field: 'fixVersionKey', op: 'range', value: inRange }],
            sort: [{ field: 'key', order: 'asc' }],
            limit: LIMITS.ticket,
          },
          {
            kind: 'release',
            where: [{ field: 'versionKey', op: 'range', value: { gte: inRange.gt, lte: inRange.lte } }],
            sort: [{ field: 'versionKey', order: 'asc' }],
            limit: LIMITS.release,
          },
        ],
      },
      {
        queries: (['commit', 'pull_request'] as const).map((kind) => ({
          kind,
          where: [
            {
              field: 'author',
              op: 'each',
              from: [
                { kind: 'commit', field: 'author' },
                { kind: 'pull_request', field: 'author' },
              ],
            },
            { field: 'versionKey', op: 'range', value: { lte: inRange.gt } },
          ],
          limit: 1,
        })),
      },
    ],
  };
}
