import type { ReleaseNotesInputs } from './definition';
import type { PlannedQuery, RetrievalPlan, UnlessFound } from '../retrieval-plan';
import { semverKey } from '../semver';

/** Upper bounds on what one invocation reads; a range larger than this is a request for a changelog dump. */
const LIMITS = { commit: 5000, pull_request: 2000, ticket: 2000, release: 500 };

/**
 * Documents that say `version` is tagged: its release record, or a change first shipped in it (a project that
 * uploads no release records). When none came back, the notes are a draft before the tag.
 */
export function taggedAs(version: string): UnlessFound[] {
  return (['release', 'commit', 'pull_request'] as const).map((kind) => ({ kind, field: 'version', value: version }));
}

/**
 * Commits and pull requests whose first release is in (from, to], each marked when it is its author's first
 * contribution to the project (the store's index over the whole history: "New contributors"), tickets fixed in
 * that range, and the release records from `from` to `to` inclusive (the lower one names where the changelog
 * starts). Then, only when nothing says `to` is tagged (a draft before the release), the commits and pull
 * requests not released yet: with the rules' check that an untagged `to` is above every release, the range
 * is then everything after `from` up to the newest imported commit.
 */
export function releaseNotesPlan(inputs: ReleaseNotesInputs): RetrievalPlan {
  const inRange = { gt: semverKey(inputs.fromVersion), lte: semverKey(inputs.toVersion) };
  const byVersion = { field: 'versionKey', op: 'range', value: inRange } as const;
  const unreleased = { field: 'versionKey', op: 'absent' } as const;
  const mark = ['firstContribution' as const];
  const unless = taggedAs(inputs.toVersion);
  const inRangeChanges: PlannedQuery[] = [
    { kind: 'commit', where: [byVersion], sort: [{ field: 'committedAt', order: 'asc' }], limit: LIMITS.commit, mark },
    { kind: 'pull_request', where: [byVersion], sort: [{ field: 'number', order: 'asc' }], limit: LIMITS.pull_request, mark },
  ];
  // Newest first (createdAt is the commit's time, the pull request's merge), served in that order by the index.
  const unreleasedChanges: PlannedQuery[] = (['commit', 'pull_request'] as const).map((kind) => ({
    kind,
    where: [unreleased],
    sort: [{ field: 'createdAt', order: 'desc' }],
    limit: LIMITS[kind],
    mark,
    unless,
  }));
  return {
    steps: [
      {
        queries: [
          ...inRangeChanges,
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
      { queries: unreleasedChanges },
    ],
  };
}
