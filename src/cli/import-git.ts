import { resolve } from 'node:path';
import { importGitHistory, type DocumentSink, type ImportProgress } from '../git/import';
import { DEFAULT_REF_OPTIONS } from '../git/message-refs';
import { TAG_PREFIXES_MAX } from '../git/tags';
import { forgeFromRemote, forgeFromWebUrl, type Forge, type ForgeKind } from '../skills/forge';
import { requireString, type CliCommand } from './command';
import { API_OPTIONS, apiSettings } from './api-client';
import { apiDocumentSink } from './api-document-sink';
import { withStore } from './with-store';
import { systemClock } from '../config/clock';

const FORGES: readonly ForgeKind[] = ['github', 'gitlab', 'bitbucket'];
/** Progress lines at most this often. */
const PROGRESS_EVERY_MS = 1000;

/** --web-url (with --forge on a self-hosted forge), or undefined: read it from the `origin` remote. */
function forgeOption(values: Record<string, unknown>): Forge | null | undefined {
  const url = values['web-url'];
  if (typeof url !== 'string') return undefined;
  if (url === 'none') return null;
  const kind = values.forge;
  if (kind !== undefined && !FORGES.includes(kind as ForgeKind)) throw new Error(`--forge must be one of ${FORGES.join(', ')}`);
  const forge = kind ? forgeFromWebUrl(url, kind as ForgeKind) : forgeFromRemote(url);
  if (!forge)
    throw new Error(
      `--web-url ${url} is not a repository page on github.com, gitlab.com or bitbucket.org; for a self-hosted forge add --forge ${FORGES.join('|')}`,
    );
  return forge;
}

/**
 * --tag-prefix, repeatable or comma-separated: what stands before the version in a release tag ("gaxios-v" for
 * release-please's component tags, "@changesets/cli@" for changesets', "" for bare versions).
 */
function tagPrefixes(values: Record<string, unknown>): string[] | undefined {
  const given = values['tag-prefix'];
  if (given === undefined) return undefined;
  const prefixes = [...new Set((Array.isArray(given) ? given : [given]).flatMap((v) => String(v).split(',')).map((p) => p.trim()))];
  if (prefixes.length > TAG_PREFIXES_MAX || prefixes.some((p) => p.length > 100 || /[\s\x00-\x1f]/.test(p)))
    throw new Error(`--tag-prefix takes up to ${TAG_PREFIXES_MAX} prefixes of at most 100 characters, without spaces`);
  return prefixes;
}

/** --path: a folder of the repository, relative to its root (a component of a monorepo). */
function pathOption(values: Record<string, unknown>): string | undefined {
  const path = values.path;
  if (typeof path !== 'string') return undefined;
  const clean = path
    .trim()
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  if (clean === '' || clean.length > 500 || clean.startsWith('/') || clean.split('/').includes('..') || clean.startsWith(':'))
    throw new Error('--path must be a folder inside the repository, relative to its root (packages/cli)');
  return clean;
}

export const importGitCommand: CliCommand = {
  summary: "Import a git repository's commits and semver release tags into a project (idempotent)",
  usage:
    '--project P --repo PATH [--tag-prefix gaxios-v] [--path packages/cli] [--ticket-prefixes WEB,OPS] [--issue-prefix GH] [--web-url URL|none [--forge github|gitlab|bitbucket]] [--api URL --token JWT]',
  options: {
    ...API_OPTIONS,
    project: { type: 'string' },
    repo: { type: 'string' },
    'tag-prefix': { type: 'string', multiple: true },
    path: { type: 'string' },
    'ticket-prefixes': { type: 'string' },
    'issue-prefix': { type: 'string', default: DEFAULT_REF_OPTIONS.issuePrefix },
    'web-url': { type: 'string' },
    forge: { type: 'string' },
  },
  async run(values) {
    const project = requireString(values, 'project');
    const repo = resolve(requireString(values, 'repo'));
    const issuePrefix = String(values['issue-prefix']);
    if (!/^[A-Za-z][A-Za-z0-9_]{0,19}$/.test(issuePrefix))
      throw new Error('--issue-prefix must be letters, digits and _ (a ticket key prefix)');
    const prefixes =
      typeof values['ticket-prefixes'] === 'string'
        ? values['ticket-prefixes']
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean)
        : undefined;
    if (prefixes && (prefixes.length > 50 || prefixes.some((p) => !/^[A-Z][A-Z0-9]{1,9}$/.test(p))))
      throw new Error('--ticket-prefixes must be up to 50 comma-separated upper-case keys such as WEB,OPS');
    const forge = forgeOption(values);
    const tagPrefix = tagPrefixes(values);
    const path = pathOption(values);
    const api = apiSettings(values);
    const run = async (documents: DocumentSink): Promise<number> => {
      const started = Date.now();
      let lastProgress = started;
      const progress = (p: ImportProgress) => {
        if (Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = Date.now();
        process.stderr.write(
          `  … ${p.commitsRead} commits read, ${p.documentsWritten} documents written (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
        );
      };
      const summary = await importGitHistory({
        repo,
        project,
        documents,
        refs: { issuePrefix, ...(prefixes ? { ticketPrefixes: prefixes } : {}) },
        now: systemClock,
        say: (line) => process.stdout.write(`${line}\n`),
        progress,
        ...(forge !== undefined ? { forge } : {}),
        ...(tagPrefix ? { tagPrefixes: tagPrefix } : {}),
        ...(path ? { path } : {}),
      });
      process.stdout.write(
        `imported ${repo} into ${project}: ${summary.releases} releases, ${summary.commits} commits; ` +
          `${summary.inserted} documents new, ${summary.updated} updated, ${summary.rejected} rejected ` +
          `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
      return summary.rejected > 0 ? 1 : 0;
    };
    // Through the API with a token (a CI job holds no store credentials), or straight into the store.
    if (api) return run(apiDocumentSink(api));
    return withStore(async (repos) => {
      if (!(await repos.projects.getProject(project))) {
        throw new Error(`project "${project}" does not exist; create it first (PUT /v1/projects/${project})`);
      }
      return run(repos.documents);
    });
  },
};
