/**
 * Changesets: the `.changeset/*.md` files of the changesets tool (github.com/changesets/changesets), each a YAML
 * front matter naming the packages it releases and how (`"@changesets/cli": minor`), then the summary the tool
 * writes into each package's changelog. Pure: the file's text in, what it says for one package out.
 */
import type { Changeset, ChangesetBump } from '../skills/documents';

/** The document schema's limits: a longer summary is cut, more changesets in one commit are left out. */
export const CHANGESET_SUMMARY_MAX = 5000;
export const CHANGESETS_PER_COMMIT = 20;

/** One front-matter line: a package name (quoted or bare, npm's 214 characters at most) and its bump. */
const PACKAGE_LINE = /^\s*(?:"([^"]{1,214})"|'([^']{1,214})'|([^\s"':][^\s:]{0,213}))\s*:\s*(major|minor|patch|none)\s*$/;
const FENCE = /^---\s*$/;
const RANK: Record<ChangesetBump, number> = { major: 3, minor: 2, patch: 1 };

/** Dependencies named in one changeset at most (the document schema's bound). */
export const CHANGESET_DEPENDENCIES_MAX = 50;

/**
 * The package's dependencies of the same repository, and the smallest bump of one that makes the changesets tool
 * bump the package too (its config's `updateInternalDependencies`: "patch", the default, or "minor").
 */
export interface InternalDependencies {
  names: ReadonlySet<string>;
  from: ChangesetBump;
}

/**
 * What a changeset says for `packageName`: its summary and the bump it gives that package (absent: it releases
 * only other packages, or says `none`). Without a package name (a repository whose package is not known), the
 * strongest bump it gives any package. Undefined when the text is no changeset (no front matter, a line that is
 * not `package: bump`, or no summary). With `internal`, a changeset that does not bump the package names the
 * package's dependencies it bumps enough for the tool to bump the package ("Updated dependencies").
 */
export function parseChangeset(text: string, packageName?: string, internal?: InternalDependencies): Changeset | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return undefined;
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end < 0) return undefined;
  const bumps = new Map<string, ChangesetBump | 'none'>();
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = PACKAGE_LINE.exec(line);
    if (!m) return undefined;
    bumps.set(m[1] ?? m[2] ?? m[3]!, m[4] as ChangesetBump | 'none');
  }
  const summary = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  if (summary === '') return undefined;
  const named = packageName === undefined ? [...bumps.values()] : [bumps.get(packageName)];
  const bump = named
    .filter((b): b is ChangesetBump => b !== undefined && b !== 'none')
    .reduce<ChangesetBump | undefined>((a, b) => (a === undefined || RANK[b] > RANK[a] ? b : a), undefined);
  const dependencies =
    bump || !internal
      ? []
      : [...bumps]
          .filter(([name, b]) => b !== 'none' && internal.names.has(name) && RANK[b] >= RANK[internal.from])
          .map(([name]) => name)
          .slice(0, CHANGESET_DEPENDENCIES_MAX);
  return {
    summary: summary.length > CHANGESET_SUMMARY_MAX ? `${summary.slice(0, CHANGESET_SUMMARY_MAX - 1)}…` : summary,
    ...(bump ? { bump } : {}),
    ...(dependencies.length > 0 ? { dependencies } : {}),
  };
}
