/**
 * Imports a repository's history into a project: release documents for semver tags, commit documents with
 * their first release, PR number and ticket keys. Upserts in batches, so a re-import updates in place.
 */
import { screenDocuments } from '../api/routes/documents';
import type { ProjectDocument } from '../skills/documents';
import type { DocumentRepository } from '../store/documents';
import { commitDocument, releaseDocument } from './documents';
import { gitRecords, runGit } from './git-process';
import { LOG_FORMAT, parseLogRecord } from './log';
import type { RefOptions } from './message-refs';
import { TAG_FORMAT, parseTagRefs, releasesOf } from './tags';
import { firstReleases } from './versions';

export interface ImportOptions {
  repo: string;
  project: string;
  documents: DocumentRepository;
  refs: RefOptions;
  now: () => Date;
  say: (line: string) => void;
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
}

export async function importGitHistory(options: ImportOptions): Promise<ImportSummary> {
  const { repo, project, documents, refs, now, say } = options;
  const batchSize = options.batchSize ?? 500;
  await runGit(repo, ['rev-parse', '--git-dir']).catch((err: Error) => {
    throw new Error(`${repo} is not a git repository (${err.message})`);
  });

  const { releases, skipped } = releasesOf(parseTagRefs(await runGit(repo, ['for-each-ref', 'refs/tags', `--format=${TAG_FORMAT}`])));
  say(`tags: ${releases.length} releases${releases.length ? ` (${releases[0].version} … ${releases[releases.length - 1].version})` : ''}` +
    `${skipped.length ? `; not releases: ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? ', …' : ''}` : ''}`);
  const versionOf = await firstReleases(releases, async (revisions) =>
    (await runGit(repo, ['rev-list', '--stdin'], `${revisions.join('\n')}\n`)).split('\n').filter(Boolean),
  );

  const summary: ImportSummary = { releases: releases.length, skippedTags: skipped, commits: 0, released: 0, inserted: 0, updated: 0, rejected: 0 };
  let batch: ProjectDocument[] = [];
  const flush = async () => {
    const { accepted, rejected } = screenDocuments(batch);
    for (const r of rejected) say(`  rejected ${(batch[r.index] as { externalId: string }).externalId}: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    const { inserted, updated } = await documents.upsertMany(project, accepted, now());
    summary.inserted += inserted;
    summary.updated += updated;
    summary.rejected += rejected.length;
    batch = [];
  };

  for (const release of releases) batch.push(releaseDocument(release));
  await flush();

  // Everything reachable from HEAD (unreleased work included) and from the release tags.
  const hasHead = await runGit(repo, ['rev-parse', '--verify', '--quiet', 'HEAD']).then(() => true, () => false);
  const starts = [...(hasHead ? ['HEAD'] : []), ...releases.map((r) => r.commit)];
  if (starts.length > 0) {
    for await (const record of gitRecords(repo, ['log', '-z', '--encoding=UTF-8', `--format=${LOG_FORMAT}`, '--stdin'], '\0', `${starts.join('\n')}\n`)) {
      const commit = parseLogRecord(record);
      const version = versionOf.get(commit.sha);
      summary.commits += 1;
      if (version) summary.released += 1;
      batch.push(commitDocument(commit, version, refs));
      if (batch.length >= batchSize) await flush();
    }
  }
  await flush();
  say(`commits: ${summary.commits} (${summary.released} released, ${summary.commits - summary.released} unreleased)`);
  return summary;
}
