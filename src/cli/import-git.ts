import { resolve } from 'node:path';
import { importGitHistory } from '../git/import';
import { DEFAULT_REF_OPTIONS } from '../git/message-refs';
import { DocumentRepository } from '../store/documents';
import { ProjectRepository } from '../store/projects';
import { requireString, type CliCommand } from './command';
import { withStore } from './with-store';

export const importGitCommand: CliCommand = {
  summary: "Import a git repository's commits and semver release tags into a project (idempotent)",
  usage: '--project P --repo PATH [--ticket-prefixes WEB,OPS] [--issue-prefix GH]',
  options: {
    project: { type: 'string' },
    repo: { type: 'string' },
    'ticket-prefixes': { type: 'string' },
    'issue-prefix': { type: 'string', default: DEFAULT_REF_OPTIONS.issuePrefix },
  },
  async run(values) {
    const project = requireString(values, 'project');
    const repo = resolve(requireString(values, 'repo'));
    const issuePrefix = String(values['issue-prefix']);
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(issuePrefix)) throw new Error('--issue-prefix must be letters, digits and _ (a ticket key prefix)');
    const prefixes = typeof values['ticket-prefixes'] === 'string' ? values['ticket-prefixes'].split(',').map((p) => p.trim()).filter(Boolean) : undefined;

    return withStore(async (store) => {
      if (!(await new ProjectRepository(store.db).getProject(project))) {
        throw new Error(`project "${project}" does not exist; create it first (PUT /v1/projects/${project})`);
      }
      const summary = await importGitHistory({
        repo,
        project,
        documents: new DocumentRepository(store.db),
        refs: { issuePrefix, ...(prefixes ? { ticketPrefixes: prefixes } : {}) },
        now: () => new Date(),
        say: (line) => process.stdout.write(`${line}\n`),
      });
      process.stdout.write(
        `imported ${repo} into ${project}: ${summary.releases} releases, ${summary.commits} commits; ` +
          `${summary.inserted} documents new, ${summary.updated} updated, ${summary.rejected} rejected\n`,
      );
      return summary.rejected > 0 ? 1 : 0;
    });
  },
};
