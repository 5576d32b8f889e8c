/**
 * A change's changesets (the changesets tool's `.changeset/*.md` files, which import-git reads): where a
 * repository writes them, they say which changes its package's changelog lists, under which heading and in which
 * words (major → Breaking changes, minor → New features, patch → Fixes; the summary is the line), as the tool's
 * own changelog does.
 */
import type { Changeset, ChangesetBump } from '../documents';
import type { Change } from './changes';

/** The groups a changeset's bump puts its line in (classify.ts's categories). */
type ChangesetCategory = 'breaking' | 'feature' | 'fix';

export const BUMP_CATEGORY: Record<ChangesetBump, ChangesetCategory> = { major: 'breaking', minor: 'feature', patch: 'fix' };
const RANK: Record<ChangesetBump, number> = { major: 3, minor: 2, patch: 1 };

/** The changesets of a change's commits; undefined when none of its commits says (no changesets known). */
export function changesetsOf(change: Change): Changeset[] | undefined {
  const known = change.commits.filter((c) => c.changesets !== undefined);
  return known.length === 0 ? undefined : known.flatMap((c) => c.changesets!);
}

/** The changesets that release the project's package, each once (the same summary twice is one line). */
export function releasingChangesets(changesets: readonly Changeset[]): (Changeset & { bump: ChangesetBump })[] {
  const seen = new Set<string>();
  return changesets.filter(
    (c): c is Changeset & { bump: ChangesetBump } => c.bump !== undefined && !seen.has(c.summary) && seen.add(c.summary) !== undefined,
  );
}

/** The strongest bump among them, as a category. */
export function changesetCategory(changesets: readonly (Changeset & { bump: ChangesetBump })[]): ChangesetCategory {
  return BUMP_CATEGORY[changesets.map((c) => c.bump).reduce((a, b) => (RANK[b] > RANK[a] ? b : a))];
}

const paragraphs = (summary: string) => summary.trim().split(/\n[ \t]*\n/);

/** The line a changeset gives its change: the summary's first paragraph, on one line. */
export function changesetTitle(summary: string): string {
  return (paragraphs(summary)[0] ?? '').replace(/\s+/g, ' ').trim();
}

/** The summary after its first paragraph (undefined when there is none). */
export function changesetDetail(summary: string): string | undefined {
  const rest = paragraphs(summary).slice(1).join('\n\n').trim();
  return rest === '' ? undefined : rest;
}

/**
 * The package's dependencies of the same repository that the changesets release, when none releases the package
 * itself: the tool then bumps it (a patch) and writes "Updated dependencies" into its changelog. Each name once,
 * in the order the changesets name them.
 */
export function updatedDependencies(changesets: readonly Changeset[]): string[] {
  if (releasingChangesets(changesets).length > 0) return [];
  return [...new Set(changesets.flatMap((c) => c.dependencies ?? []))];
}

/** The line of a change that only updates dependencies, as the changesets tool words it ("Updated dependencies"). */
export function updatedDependenciesTitle(names: readonly string[]): string {
  return `Updated dependencies: ${names.map((n) => `\`${n}\``).join(', ')}`;
}
