/**
 * The changesets a repository's commits add, for import-git (changesets.ts says what one file means): which
 * commits add which `.changeset/*.md` files, each file's text as added, and since when the repository uses the
 * changesets tool (the first commit that adds `.changeset/config.json`), so that a later commit adding none is
 * known to have none. A repository without `.changeset/config.json` in its history has no changesets.
 */
import type { Changeset } from '../skills/documents';
import { CHANGESETS_PER_COMMIT, parseChangeset, type InternalDependencies } from './changesets';
import { runGit, runGitBytes } from './git-process';

export interface RepositoryChangesets {
  /** The changesets of each commit that adds any, by full sha. */
  bySha: Map<string, Changeset[]>;
  /** Committer time (UTC ISO 8601) of the first commit that adds `.changeset/config.json`. */
  since: string;
  /** The package whose bumps count (the `name` of `<path>/package.json`); undefined: the strongest of any package. */
  packageName?: string;
}

/** Larger files are no changeset anyone wrote by hand: left out. */
const FILE_MAX = 64 * 1024;
/** Changeset files read per import at most (a repository writes a few per release). */
const CHANGESET_FILES_MAX = 20_000;

/** A changeset's id (its file name without `.md`), wherever under `.changeset/` it is; undefined for other files. */
function changesetId(path: string): string | undefined {
  const m = /^\.changeset\/(?:pre\/)?([^/]+)\.md$/i.exec(path);
  return m && m[1]!.toLowerCase() !== 'readme' ? m[1] : undefined;
}

/** `starts`: the revisions import-git reads (HEAD and the release tags); `path`: its --path, one package's folder. */
export async function readChangesets(repo: string, starts: readonly string[], path?: string): Promise<RepositoryChangesets | undefined> {
  if (starts.length === 0) return undefined;
  const input = `${starts.join('\n')}\n`;
  const adopted = (await runGit(repo, ['log', '--format=%cI', '--diff-filter=A', '--stdin', '--', '.changeset/config.json'], input))
    .split('\n')
    .filter(Boolean)
    .map((d) => new Date(d).toISOString())
    .sort()[0];
  if (!adopted) return undefined;
  const manifest = path ? await manifestAt(repo, path) : undefined;
  const packageName = manifest?.name;
  const internal = manifest ? { names: manifest.dependencies, from: await updateInternalDependencies(repo) } : undefined;
  // Newest first: every commit that adds, edits, moves or deletes a changeset file (the tool moves them into
  // `pre/`, and maintainers fix one up after it landed). A changeset belongs to the commit that first adds it; its
  // text is its newest version, as the tool reads it when it writes the changelog. One deleted by a commit that
  // writes no changelog was withdrawn by hand before a release (the tool's release commit writes CHANGELOG.md).
  const listing = await runGit(
    repo,
    ['log', '--format=%x01%H', '--name-status', '--diff-filter=AMRD', '--stdin', '--', '.changeset'],
    input,
  );
  const changelogCommits = new Set(
    (await runGit(repo, ['log', '--format=%H', '--stdin', '--', '*CHANGELOG.md'], input)).split('\n').filter(Boolean),
  );
  const addedBy = new Map<string, string>();
  const newest = new Map<string, string>();
  const withdrawn = new Set<string>();
  for (const record of listing.split('\x01').slice(1)) {
    const [head, ...lines] = record.split('\n').filter((l) => l.trim() !== '');
    const sha = head?.trim();
    if (!sha) continue;
    for (const line of lines) {
      const fields = line.split('\t');
      const path = fields[fields.length - 1]!;
      const id = changesetId(path);
      if (id === undefined) continue;
      if (!newest.has(id) && !withdrawn.has(id)) {
        if (newest.size + withdrawn.size >= CHANGESET_FILES_MAX) continue;
        if (fields[0] === 'D') {
          if (!changelogCommits.has(sha)) withdrawn.add(id);
          continue; // released (or withdrawn): its text is in an older commit
        }
        newest.set(id, `${sha}:${path}`);
      }
      // The oldest add wins: a move into `pre/` that git does not see as a rename is an add there, later.
      if (fields[0] === 'A') addedBy.set(id, sha);
    }
  }
  const ids = [...addedBy.keys()].filter((id) => newest.has(id) && !withdrawn.has(id));
  const texts = ids.length
    ? await blobTexts(
        repo,
        ids.map((id) => newest.get(id)!),
      )
    : [];
  const bySha = new Map<string, Changeset[]>();
  ids.forEach((id, i) => {
    const text = texts[i];
    const changeset = text === undefined ? undefined : parseChangeset(text, packageName, internal);
    const sha = addedBy.get(id)!;
    const theirs = bySha.get(sha) ?? [];
    if (changeset && theirs.length < CHANGESETS_PER_COMMIT) bySha.set(sha, [...theirs, changeset]);
  });
  return { bySha, since: adopted, ...(packageName ? { packageName } : {}) };
}

/** The commits whose changesets release the package: by a bump of its own, or of its dependencies. */
export function changesetCommits(found: RepositoryChangesets): Set<string> {
  return new Set([...found.bySha].filter(([, list]) => list.some((c) => c.bump || c.dependencies?.length)).map(([sha]) => sha));
}

/** The changesets of a commit: its own, or none (an empty list) when it landed after the repository adopted changesets. */
export function changesetsOfCommit(found: RepositoryChangesets | undefined, sha: string, committedAt: string): Changeset[] | undefined {
  if (!found) return undefined;
  return found.bySha.get(sha) ?? (committedAt >= found.since ? [] : undefined);
}

/** Dependency names read from one manifest at most (a package.json lists tens). */
const MANIFEST_DEPENDENCIES_MAX = 1_000;

/**
 * The package's name and the packages it depends on at run time (`dependencies`, `optionalDependencies`: the
 * ones whose release makes the changesets tool bump it), from `<path>/package.json` at HEAD. Undefined without a
 * readable manifest that names the package.
 */
async function manifestAt(repo: string, path: string): Promise<{ name: string; dependencies: Set<string> } | undefined> {
  const folder = path.replace(/^\.?\/+|\/+$/g, '');
  try {
    const manifest = JSON.parse(await runGit(repo, ['show', `HEAD:${folder ? `${folder}/` : ''}package.json`])) as Record<string, unknown>;
    const name = manifest.name;
    if (typeof name !== 'string' || name.length > 214) return undefined;
    const dependencies = new Set<string>();
    for (const field of ['dependencies', 'optionalDependencies']) {
      const deps = manifest[field];
      if (deps && typeof deps === 'object' && !Array.isArray(deps))
        for (const dep of Object.keys(deps).slice(0, MANIFEST_DEPENDENCIES_MAX)) dependencies.add(dep);
    }
    return { name, dependencies };
  } catch {
    return undefined;
  }
}

/** `.changeset/config.json`'s `updateInternalDependencies` at HEAD: "patch" (the tool's default) or "minor". */
async function updateInternalDependencies(repo: string): Promise<InternalDependencies['from']> {
  try {
    const config = JSON.parse(await runGit(repo, ['show', 'HEAD:.changeset/config.json'])) as Record<string, unknown>;
    return config.updateInternalDependencies === 'minor' ? 'minor' : 'patch';
  } catch {
    return 'patch';
  }
}

/** The texts of `objects` (`<sha>:<path>`) by `git cat-file --batch`, in order; undefined for a missing or oversized one. */
async function blobTexts(repo: string, objects: readonly string[]): Promise<(string | undefined)[]> {
  const out = await runGitBytes(repo, ['cat-file', '--batch'], `${objects.join('\n')}\n`);
  const texts: (string | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < objects.length && at < out.length; i++) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const header = out.toString('utf8', at, eol);
    at = eol + 1;
    const m = /^[0-9a-f]{40,64} (\w+) (\d+)$/.exec(header);
    if (!m) {
      texts.push(undefined); // "<object> missing"
      continue;
    }
    const size = Number(m[2]);
    texts.push(m[1] === 'blob' && size <= FILE_MAX ? out.toString('utf8', at, at + size) : undefined);
    at += size + 1;
  }
  return texts;
}
