import assert from 'node:assert/strict';
import { BranchPullRequests } from '../../../src/git/branch-prs';
import type { GitCommit } from '../../../src/git/log';
import { isPrMerge, prNumberOf } from '../../../src/git/message-refs';

const c = (sha: string, parents: string[], subject: string): GitCommit => ({
  sha,
  parents,
  subject,
  author: 'A',
  authorEmail: 'a@x',
  committedAt: '2025-01-01T00:00:00.000Z',
  body: '',
});

describe('git: branch commits belong to the pull request that merged them', () => {
  it('follows a merged branch back to the mainline, newest first, and leaves squash merges and direct commits alone', () => {
    // main: m0 ← m1 ← M(merge #7: m1 + b2) ← s(squash #8); branch: m1 ← b1 ← b2; a second merge #9 of a branch off M.
    const log = [
      c('N', ['s', 'x2'], 'Merge pull request #9 from acme/feature-x'),
      c('x2', ['x1'], 'more x'),
      c('s', ['M'], 'feat: squashed (#8)'),
      c('x1', ['M'], 'start x'),
      c('M', ['m1', 'b2'], 'Merge pull request #7 from acme/feature'),
      c('b2', ['b1'], 'second branch commit'),
      c('b1', ['m1'], 'first branch commit'),
      c('m1', ['m0'], 'direct commit'),
      c('m0', [], 'initial'),
    ];
    const prs = new BranchPullRequests(['N']);
    const got = Object.fromEntries(
      log.map((commit) => [commit.sha, prs.next(commit, prNumberOf(commit.subject), isPrMerge(commit.subject)) ?? null]),
    );
    assert.deepEqual(got, { N: 9, x2: 9, s: 8, x1: 9, M: 7, b2: 7, b1: 7, m1: null, m0: null });
  });
});
