/**
 * Imports a repository's history into a project: release documents for semver tags (`v1.2.3`, `1.2.3`, or a
 * component's own prefix: `gaxios-v7.1.3`, `@changesets/cli@2.27.1`; pre-releases included), commit documents
 * with their first release, PR number, ticket keys, author login and (when the repository's web address is
 * known) their URL; with a path, only the commits that touch it (one component of a monorepo). Streams
 * `git log` and upserts in batches, so a repository of any size goes through in bounded memory, and a
 * re-import updates in place. In a repository that uses changesets, each commit carries the `.changeset/*.md`
 * files it adds (changeset-files.ts). Reports progress as it goes: tags, commits read, documents written.
 */
import { screenDocuments } from '../documents/screen';
import type { ProjectDocument } from '../skills/documents';
import { forgeFromRemote, type Forge } from '../skills/forge';
import { BranchPullRequests } from './branch-prs';
import { changesetCommits, changesetsOfCommit, readChangesets } from './changeset-files';
import { commitDocument, releaseDocument } from './documents';
import { gitRecords, runGit } from './git-process';
import { LOG_FORMAT, parseLogRecord } from './log';
import { Logins, PEOPLE_FORMAT } from './logins';
import { isPrMerge, prNumberOf, type RefOptions } from './message-refs';
import { DEFAULT_TAG_PREFIXES, TAG_FORMAT, parseTagRefs, prefixOfVersionTag, releasesOf } from './tags';
import { firstReleases } from './versions';
import type { Clock } from '../config/clock';

/** Where the documents go: DocumentRepository, or anything with its upsertMany (tests collect them in memory). */
export interface DocumentSink {
  upsertMany(project: string, docs: ProjectDocument[], now: Date): Promise<{ inserted: number; updated: number }>;
}

export interface ImportProgress {
  commitsRead: number;
  documentsWritten: number;
}

export interface ImportOptions {
  repo: string;
  project: string;
  documents: DocumentSink;
  refs: RefOptions;
  now: Clock;
  say: (line: string) => void;
  /** Called after each batch is written (the CLI prints it, at most every second). */
  progress?: (p: ImportProgress) => void;
  /** The repository's web address for links; undefined: from the `origin` remote; null: no links. */
  forge?: Forge | null;
  /** What stands before the version in a release tag (DEFAULT_TAG_PREFIXES: "v" or nothing). */
  tagPrefixes?: readonly string[];
  /** Only the commits that touch this path (a component's folder in a monorepo). */
  path?: string;
  batchSize?: number;
}

export interface ImportSummary {
  releases: number;
  skippedTags: string[];
  commits: number;
  released: number;
  inserted: number;
  updated: number;
  rejected: number;
  forge: Forge | null;
}

async function originForge(repo: string): Promise<Forge | null> {
  const url = await runGit(repo, ['remote', 'get-url', 'origin']).catch(() => '');
  return forgeFromRemote(url.trim()) ?? null;
}

export async function importGitHistory(options: ImportOptions): Promise<ImportSummary> {
  const { repo, project, documents, refs, now, say } = options;
  const batchSize = options.batchSize ?? 1000;
  await runGit(repo, ['rev-parse', '--git-dir']).catch((err: Error) => {
    throw new Error(`${repo} is not a git repository (${err.message})`);
  });
  const forge = options.forge === undefined ? await originForge(repo) : options.forge;
  say(forge ? `links: ${forge.base}` : 'links: none (origin is not on GitHub, GitLab or Bitbucket; pass --web-url to link entries)');

  const prefixes = options.tagPrefixes ?? DEFAULT_TAG_PREFIXES;
  const paths = options.path ? ['--', options.path] : [];
  const { releases, skipped } = releasesOf(
    parseTagRefs(await runGit(repo, ['for-each-ref', 'refs/tags', `--format=${TAG_FORMAT}`])),
    prefixes,
  );
  say(
    `tags: ${releases.length} releases${releases.length ? ` (${releases[0]!.version} … ${releases[releases.length - 1]!.version})` : ''}` +
      `${skipped.length ? `; not releases: ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? `, … (${skipped.length} in all)` : ''}` : ''}`,
  );
  const other = otherSchemes(skipped, prefixes);
  if (other) say(`  other tag prefixes in this repository: ${other} (import one with --tag-prefix)`);
  const versionOf = await firstReleases(releases, async (revisions) =>
    (await runGit(repo, ['rev-list', '--stdin', ...paths], `${revisions.join('\n')}\n`)).split('\n').filter(Boolean),
  );

  const summary: ImportSummary = {
    releases: releases.length,
    skippedTags: skipped,
    commits: 0,
    released: 0,
    inserted: 0,
    updated: 0,
    rejected: 0,
    forge,
  };
  let batch: unknown[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const at = now();
    const { accepted, rejected } = screenDocuments(batch, at);
    for (const r of rejected)
      say(
        `  rejected ${(batch[r.index] as { externalId: string }).externalId}: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
      );
    const { inserted, updated } = await documents.upsertMany(project, accepted, at);
    summary.inserted += inserted;
    summary.updated += updated;
    summary.rejected += rejected.length;
    batch = [];
    options.progress?.({ commitsRead: summary.commits, documentsWritten: summary.inserted + summary.updated });
  };

  for (const release of releases) batch.push(releaseDocument(release, forge));
  await flush();

  // Everything reachable from HEAD (unreleased work included) and from the release tags.
  const head = await runGit(repo, ['rev-parse', '--verify', '--quiet', 'HEAD']).then(
    (sha) => sha.trim(),
    () => '',
  );
  const starts = [...(head ? [head] : []), ...releases.map((r) => r.commit)];
  const branchPrs = new BranchPullRequests(starts);
  const input = `${starts.join('\n')}\n`;
  const changesets = await readChangesets(repo, starts, options.path);
  if (changesets)
    say(
      `changesets: ${[...changesets.bySha.values()].reduce((n, c) => n + c.length, 0)} in ${changesets.bySha.size} commits` +
        (changesets.packageName ? ` (bumps of ${changesets.packageName})` : ''),
    );
  // With --path, a commit that releases the package by its changesets (its own bump, or a dependency's: "Updated
  // dependencies") belongs to its history even where it touches no file of the package's folder.
  const releasing = options.path && changesets ? changesetCommits(changesets) : new Set<string>();
  if (starts.length > 0) {
    // First the people, over the whole history, so each commit names its author's login however late it is learnt.
    const logins = new Logins();
    for await (const record of gitRecords(
      repo,
      ['log', '-z', '--encoding=UTF-8', `--format=${PEOPLE_FORMAT}`, '--stdin', ...paths],
      '\0',
      input,
    ))
      logins.addRecord(record);
    const read = (args: string[], stdin: string) =>
      gitRecords(repo, ['log', '-z', '--encoding=UTF-8', `--format=${LOG_FORMAT}`, ...args], '\0', stdin);
    const seen = new Set<string>();
    let outside: Map<string, string> | undefined;
    const records = async function* () {
      yield* read(['--stdin', ...paths], input);
      const more = [...releasing].filter((sha) => !seen.has(sha));
      if (more.length === 0) return;
      // Their first release, over the whole history (the folder's releases do not walk them).
      outside = await firstReleases(releases, async (revisions) =>
        (await runGit(repo, ['rev-list', '--stdin'], `${revisions.join('\n')}\n`)).split('\n').filter(Boolean),
      );
      yield* read(['--no-walk=unsorted', '--stdin'], `${more.join('\n')}\n`);
    };
    for await (const record of records()) {
      const commit = parseLogRecord(record);
      seen.add(commit.sha);
      const version = versionOf.get(commit.sha) ?? outside?.get(commit.sha);
      summary.commits += 1;
      if (version) summary.released += 1;
      const prNumber = branchPrs.next(commit, prNumberOf(commit.subject), isPrMerge(commit.subject));
      batch.push(
        commitDocument(commit, version, refs, forge, prNumber, logins.loginOf(commit.author, commit.authorEmail), {
          changesets: changesetsOfCommit(changesets, commit.sha, commit.committedAt),
        }),
      );
      if (batch.length >= batchSize) await flush();
    }
  }
  await flush();
  say(`commits: ${summary.commits} (${summary.released} released, ${summary.commits - summary.released} unreleased)`);
  return summary;
}

/** The prefixes of skipped tags that end in a version ("gaxios-v (1 tag)"), most used first, or '' when none. */
function otherSchemes(skipped: readonly string[], prefixes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of skipped) {
    const prefix = prefixOfVersionTag(name);
    if (prefix !== undefined && !prefixes.includes(prefix)) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  const shown = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5);
  return shown.map(([p, n]) => `${p} (${n} tag${n === 1 ? '' : 's'})`).join(', ') + (counts.size > 5 ? `, … (${counts.size} in all)` : '');
}
