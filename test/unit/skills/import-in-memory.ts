/**
 * A history built with git (test/support/git-repo.ts) imported by import-git's own code into memory instead of
 * the store, with what it said; the repository is removed afterwards.
 */
import { importGitHistory, type ImportOptions } from '../../../src/git/import';
import type { ProjectDocument } from '../../../src/skills/documents';
import type { GitRepo } from '../../support/git-repo';
import { DEMO_NOW } from './demo';

export async function importInMemory(
  repo: GitRepo,
  project: string,
  options: Pick<ImportOptions, 'tagPrefixes' | 'path'> = {},
): Promise<{ docs: ProjectDocument[]; said: string[] }> {
  const docs: ProjectDocument[] = [];
  const said: string[] = [];
  try {
    await importGitHistory({
      repo: repo.dir,
      project,
      documents: { upsertMany: async (_p, batch) => (docs.push(...batch), { inserted: batch.length, updated: 0 }) },
      refs: { issuePrefix: 'GH' },
      now: () => new Date(DEMO_NOW),
      say: (line) => said.push(line),
      ...options,
    });
    return { docs, said };
  } finally {
    repo.remove();
  }
}
