/**
 * Which release first contains each commit: for each release in ascending semver order, the commits
 * reachable from its tag and from no lower release's tag. One `git rev-list` per release, so the cost is one
 * walk over each release's own range, not a `git tag --contains` per commit.
 */
import type { Release } from './tags';

/** Runs `git rev-list --stdin` with these revisions ("sha" to include, "^sha" to exclude); returns the shas. */
export type RevList = (revisions: string[]) => Promise<string[]>;

export async function firstReleases(releases: readonly Release[], revList: RevList): Promise<Map<string, string>> {
  const versionOf = new Map<string, string>();
  const lower: string[] = [];
  for (const release of releases) {
    for (const sha of await revList([release.commit, ...lower.map((c) => `^${c}`)])) {
      // A lower release that is not an ancestor (a maintenance branch) may already claim a commit: keep it.
      if (!versionOf.has(sha)) versionOf.set(sha, release.version);
    }
    lower.push(release.commit);
  }
  return versionOf;
}
