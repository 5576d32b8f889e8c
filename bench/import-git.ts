/**
 * Benchmark 5, import at scale: `import-git` (the CLI process, as a maintainer runs it) of a repository of
 * 10,000 commits and 300 release tags that the benchmark builds itself with `git fast-import`
 * (lib/synthetic-repo.ts: seeded, seconds, nothing downloaded), into the run's own store. A second import of
 * the same repository (every document updated in place) is timed too. The baseline is `git log` alone over
 * the same history, in the same format: what reading the repository costs before anything is parsed or stored.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LOG_FORMAT } from '../src/git/log';
import { COLLECTIONS } from '../src/store/collections';
import { ensureIndexes } from '../src/store/indexes';
import { connectStore } from '../src/store/mongo';
import { ProjectRepository } from '../src/store/projects';
import { row, type BenchOutcome } from './lib/report';
import { benchConfig } from './lib/service';
import type { BenchStack } from './lib/stack';
import { buildSyntheticRepo } from './lib/synthetic-repo';

const NAME = 'import-git';
const COMMITS = 10_000;
const TAGS = 300;
const TARGET_S = 30;
const PROJECT = 'bench-import';
const CLI = join(__dirname, '..', 'src', 'cli.js');

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { value, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** Runs the CLI as `npm run cli -- import-git …` does, with the run's store in the environment. */
function importCli(env: NodeJS.ProcessEnv, repo: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'import-git', '--project', PROJECT, '--repo', repo], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      process.stderr.write(`[bench]   ${d.toString().trimEnd().split('\n').join('\n[bench]   ')}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`import-git exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

export async function benchImportGit(stack: BenchStack): Promise<BenchOutcome> {
  const dir = mkdtempSync(join(stack.dataDir, 'repo-'));
  try {
    const built = await timed(() => buildSyntheticRepo({ dir, commits: COMMITS, tags: TAGS }));
    const repo = built.value;
    const config = benchConfig(stack, 'import');
    const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'bench');
    try {
      await ensureIndexes(store.db);
      const projects = new ProjectRepository(store.db);
      await projects.upsertOrg('bench', { name: 'Bench', ownerEmail: 'bench@example.test' }, new Date());
      await projects.upsertProject(PROJECT, { name: 'Import bench', org: 'bench' }, new Date());
      const env = {
        ...process.env,
        LOG_LEVEL: 'warn',
        MONGODB_URI: config.mongo.uri,
        MONGODB_DB: config.mongo.dbName,
        TEMPORAL_ADDRESS: stack.temporalAddress,
        JWT_SECRET: config.jwt.secret!,
      };

      const baseline = await timed(() =>
        promisify(execFile)('git', ['-C', dir, 'log', '-z', `--format=${LOG_FORMAT}`, '--all'], { maxBuffer: 1 << 30, encoding: 'utf8' }),
      );
      const first = await timed(() => importCli(env, dir));
      const second = await timed(() => importCli(env, dir));
      const stored = await store.db.collection(COLLECTIONS.documents).countDocuments({ project: PROJECT });

      const summary = /commits: (\d+) \((\d+) released/.exec(first.value.stdout);
      return {
        name: NAME,
        rows: [
          row(NAME, `first import, ${repo.commits} commits and ${repo.tags} tags (CLI process)`, 's', first.seconds, {
            baseline: baseline.seconds,
            target: `< ${TARGET_S} s`,
            met: first.seconds < TARGET_S,
          }),
          row(NAME, 're-import of the same history (every document updated)', 's', second.seconds, { baseline: baseline.seconds }),
        ],
        details: {
          repository: { commits: repo.commits, tags: repo.tags, buildSeconds: built.seconds },
          gitLogSeconds: baseline.seconds,
          firstImportSeconds: first.seconds,
          reimportSeconds: second.seconds,
          documentsStored: stored,
          commitsImported: summary ? Number(summary[1]) : null,
          released: summary ? Number(summary[2]) : null,
        },
        notes: [
          `import-git: a repository of ${repo.commits} commits and ${repo.tags} tags built with git fast-import in ${built.seconds.toFixed(1)} s; ` +
            `first import ${first.seconds.toFixed(1)} s, re-import ${second.seconds.toFixed(1)} s, ${stored} documents stored; ` +
            `baseline: git log alone over the same history ${baseline.seconds.toFixed(2)} s.`,
        ],
      };
    } finally {
      await store.db.dropDatabase().catch(() => undefined);
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
