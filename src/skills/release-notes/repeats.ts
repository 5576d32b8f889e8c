/**
 * One entry per title: two changes of a range in the same group with the same title (after tidying) are one change
 * landed twice — re-landed, or cherry-picked onto a release branch and merged back (expressjs/express 5.0.0 has "feat:
 * adopt Node@18 as the minimum supported version" as 4b3b8cc and again as #5803; History.md says it once), or the
 * same routine work done twice in a release (tj/commander.js 15.0.0's two "Update dependencies"; its changelog
 * writes "update (dev) dependencies" once). The entry keeps the first one's title and cites both. Pure.
 */
import type { Change } from './changes';

export interface Repeatable {
  category: string;
  title: string;
  change: Change;
  authors: string[];
  version: string | undefined;
}

const joined = (a: Change, b: Change): Change => ({
  commits: [...a.commits, ...b.commits.filter((c) => !a.commits.includes(c))],
  pullRequests: [...a.pullRequests, ...b.pullRequests.filter((p) => !a.pullRequests.includes(p))],
  tickets: [...a.tickets, ...b.tickets.filter((t) => !a.tickets.includes(t))],
});

/**
 * Entries with the same group and title joined into the first of them (in input order): its change joined with the
 * others', their authors added, the lowest version (compareVersions) kept; `rebuild` recomputes what depends on the
 * change (its references). Entries `repeatable` says no to (one line per changeset) are never joined.
 */
export function joinRepeatedTitles<E extends Repeatable>(
  entries: readonly E[],
  repeatable: (entry: E) => boolean,
  compareVersions: (a: string | undefined, b: string | undefined) => number,
  rebuild: (entry: E) => E,
): E[] {
  const out: E[] = [];
  const first = new Map<string, number>();
  const joinedAt = new Set<number>();
  for (const entry of entries) {
    const key = `${entry.category}\u0000${entry.title.trim().toLowerCase()}`;
    const at = repeatable(entry) ? first.get(key) : undefined;
    if (at === undefined) {
      if (repeatable(entry)) first.set(key, out.length);
      out.push(entry);
      continue;
    }
    const kept = out[at]!;
    out[at] = {
      ...kept,
      change: joined(kept.change, entry.change),
      authors: [...kept.authors, ...entry.authors.filter((a) => !kept.authors.some((k) => k.toLowerCase() === a.toLowerCase()))],
      version: compareVersions(entry.version, kept.version) < 0 ? entry.version : kept.version,
    };
    joinedAt.add(at);
  }
  return out.map((e, i) => (joinedAt.has(i) ? rebuild(e) : e));
}
