import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ORG_BODY_SCHEMA, PROJECT_BODY_SCHEMA } from '../contracts/bodies';
import { screenDocuments } from '../documents/screen';
import { check } from '../contracts/validation';
import type { CliCommand } from './command';
import { withStore } from './with-store';
import type { Repositories } from '../store/repositories';

export interface SeedSummary {
  orgs: string[];
  projects: string[];
  inserted: number;
  updated: number;
  rejected: number;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/**
 * Loads a demo folder through the repositories: `orgs/<org>.json` (PUT /v1/orgs bodies), then every
 * `<project>/project.json` with the document files beside it (POST .../documents bodies). Upserts
 * throughout, so running it again leaves the same data. The same checks as the API apply.
 */
export async function seedDemo(
  repos: Pick<Repositories, 'projects' | 'documents'>,
  dir: string,
  now: Date,
  say: (line: string) => void,
): Promise<SeedSummary> {
  const { projects, documents } = repos;
  const summary: SeedSummary = { orgs: [], projects: [], inserted: 0, updated: 0, rejected: 0 };

  const orgDir = join(dir, 'orgs');
  for (const file of existsSync(orgDir)
    ? readdirSync(orgDir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : []) {
    const id = basename(file, '.json');
    const body = readJson(join(orgDir, file));
    const errors = check(ORG_BODY_SCHEMA, body);
    if (errors.length > 0) throw new Error(`${join(orgDir, file)}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    const { created } = await projects.upsertOrg(id, body as { name: string; ownerEmail: string }, now);
    summary.orgs.push(id);
    say(`org ${id}: ${created ? 'created' : 'updated'}`);
  }

  const projectDirs = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'project.json')))
    .map((e) => join(dir, e.name))
    .sort();
  for (const projectDir of projectDirs) {
    const { project: id, ...body } = readJson(join(projectDir, 'project.json')) as { project: string; name: string; org: string };
    const errors = check(PROJECT_BODY_SCHEMA, body);
    if (errors.length > 0)
      throw new Error(`${join(projectDir, 'project.json')}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    if (!(await projects.getOrg(body.org))) throw new Error(`project ${id} names org "${body.org}", which ${orgDir} does not define`);
    const { created } = await projects.upsertProject(id, body, now);
    summary.projects.push(id);
    say(`project ${id}: ${created ? 'created' : 'updated'}`);

    for (const file of readdirSync(projectDir)
      .filter((f) => f.endsWith('.json') && f !== 'project.json')
      .sort()) {
      const { documents: docs } = readJson(join(projectDir, file)) as { documents: unknown[] };
      const { accepted, rejected } = screenDocuments(docs, now);
      const { inserted, updated } = await documents.upsertMany(id, accepted, now);
      summary.inserted += inserted;
      summary.updated += updated;
      summary.rejected += rejected.length;
      say(
        `  ${file}: ${accepted.length} documents (${inserted} new, ${updated} updated)${rejected.length ? `, ${rejected.length} rejected` : ''}`,
      );
      for (const r of rejected) say(`    rejected #${r.index}: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    }
  }
  return summary;
}

/** demo/ of the installation: the folder above this file that holds package.json and demo/. */
export function defaultDemoDir(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'demo'))) return join(dir, 'demo');
  }
  throw new Error(`no demo/ folder beside a package.json above ${__dirname}; pass --dir`);
}

export const seedDemoCommand: CliCommand = {
  summary: 'Load the demo orgs, projects and documents into MONGODB_URI (idempotent)',
  usage: '[--dir demo]',
  options: { dir: { type: 'string' } },
  async run(values) {
    const dir = typeof values.dir === 'string' ? resolve(values.dir) : defaultDemoDir();
    return withStore(async (repos) => {
      const summary = await seedDemo(repos, dir, new Date(), (line) => process.stdout.write(`${line}\n`));
      process.stdout.write(
        `demo loaded from ${dir}: ${summary.orgs.length} org(s), ${summary.projects.length} project(s), ` +
          `${summary.inserted} documents new, ${summary.updated} updated, ${summary.rejected} rejected\n`,
      );
      // A rejected demo document is a bug in the demo data: say so with the exit status.
      return summary.rejected > 0 ? 1 : 0;
    });
  },
};
