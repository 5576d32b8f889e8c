import assert from 'node:assert/strict';
import { firstReleases, type RevList } from '../../../src/git/versions';
import type { Release } from '../../../src/git/tags';

/**
 * A history as parent links:   a ← b ← c(1.0.0) ← d ← e(1.1.0) ← g(2.0.0)
 *                                           \
 *                                            f(1.0.1, a maintenance branch)
 */
const PARENTS: Record<string, string[]> = { a: [], b: ['a'], c: ['b'], d: ['c'], e: ['d'], f: ['c'], g: ['e'] };

function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const x = stack.pop()!;
    if (seen.has(x)) continue;
    seen.add(x);
    stack.push(...PARENTS[x]);
  }
  return seen;
}

/** What `git rev-list --stdin` answers for "sha" and "^sha" lines. */
const revList: RevList = async (revisions) => {
  const include = revisions.filter((r) => !r.startsWith('^')).flatMap((r) => [...reachable(r)]);
  const exclude = new Set(revisions.filter((r) => r.startsWith('^')).flatMap((r) => [...reachable(r.slice(1))]));
  return [...new Set(include)].filter((x) => !exclude.has(x));
};

const release = (version: string, commit: string): Release => ({
  version,
  tag: `v${version}`,
  commit,
  releasedAt: '2024-01-01T00:00:00.000Z',
  message: '',
});

describe('git: the first release containing each commit', () => {
  it('follows semver order across branches, and leaves unreleased commits out', async () => {
    const calls: string[][] = [];
    const map = await firstReleases(
      [release('1.0.0', 'c'), release('1.0.1', 'f'), release('1.1.0', 'e'), release('2.0.0', 'g')],
      async (revs) => {
        calls.push(revs);
        return revList(revs);
      },
    );
    assert.deepEqual(Object.fromEntries([...map].sort()), {
      a: '1.0.0',
      b: '1.0.0',
      c: '1.0.0',
      d: '1.1.0',
      e: '1.1.0',
      f: '1.0.1',
      g: '2.0.0',
    });
    assert.deepEqual(calls[3], ['g', '^c', '^f', '^e'], 'each release excludes every lower one');
  });
});
