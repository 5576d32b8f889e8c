/**
 * The image, without a Docker engine: the Dockerfile's steps replayed as a build runs them (test/support/
 * dockerfile-replay.ts), then the API and the worker started from the runtime stage's files alone, against the
 * real Temporal and store: the API answers ready, serves the console and its assets, and a skill invocation runs
 * on the image's worker over the image's demo data.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig, TEST_JWT_SECRET } from '../support/config';
import { replayDockerfile, type Stage } from '../support/dockerfile-replay';
import { eventually } from '../support/eventually';
import { repoRoot } from '../support/repo-root';
import { mintToken } from '../../src/auth/mint-token';
import { freePort } from '../../scripts/stack/servers';

const ISSUER = 'https://id.example';
const AUDIENCE = 'skills-billing-api';

describe('the image: Dockerfile steps replayed, the API and worker started from its files alone', function () {
  this.timeout(600_000);
  let out = '';
  let runtime: Stage;
  const children: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv = {};
  let base = '';

  before(async () => {
    out = mkdtempSync(join(tmpdir(), 'image-'));
    // npm ci reads the local cache first: the packages this checkout installed are there.
    const stages = await replayDockerfile({
      context: repoRoot(),
      out,
      log: () => undefined,
      env: { npm_config_prefer_offline: 'true', npm_config_loglevel: 'error' },
    });
    runtime = stages.at(-1)!;
    const config = testConfig();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH,
      ...runtime.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      LOG_LEVEL: 'warn',
      TEMPORAL_ADDRESS: config.temporal.address,
      TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
      MONGODB_URI: config.mongo.uri,
      MONGODB_DB: config.mongo.dbName,
      JWT_SECRET: TEST_JWT_SECRET,
      // The image runs in production mode, which requires these of the API.
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
      METRICS_TOKEN: 'image-metrics-token-0123456789',
    };
  });
  after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    if (out) rmSync(out, { recursive: true, force: true });
  });

  const start = (args: string[]) => {
    const child = spawn(process.execPath, args, { cwd: join(runtime.root, runtime.workdir), env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    return child;
  };

  it('the runtime stage holds only what runs: the built console, no sources, no tests, no dev dependencies, a non-root user', () => {
    assert.equal(runtime.user, 'node');
    assert.deepEqual(runtime.cmd, ['node', 'dist/src/api/server.js']);
    const app = join(runtime.root, runtime.workdir);
    const exists = (p: string) => existsSync(join(app, p));
    for (const p of [
      'dist/src/api/server.js',
      'dist/src/worker.js',
      'dist/workflow-bundle.js',
      'dist/console/console.js',
      'dist/console/views/trends.js',
      'demo',
      'node_modules/@temporalio/worker',
    ])
      assert.ok(exists(p), p);
    for (const p of ['src', 'web', 'dist/test', 'dist/bench', 'node_modules/typescript', 'node_modules/mocha', '.env'])
      assert.ok(!exists(p), `${p} is not in the image`);
  });

  it('the API and the worker start from it: ready, the console and its assets, a skill invocation on the demo data', async () => {
    const seed = spawn(process.execPath, ['dist/src/cli.js', 'seed-demo'], {
      cwd: join(runtime.root, runtime.workdir),
      env,
      stdio: 'ignore',
    });
    assert.equal(await new Promise((r) => seed.once('exit', r)), 0, 'seed-demo from the image');
    start(['dist/src/api/server.js']);
    start(['dist/src/worker.js']);
    await eventually(
      () =>
        fetch(`${base}/readyz`)
          .then((r) => r.status)
          .catch(() => 0),
      (s) => s === 200,
      { what: 'the API from the image to be ready', timeoutMs: 60_000 },
    );
    const page = await fetch(`${base}/dashboard`);
    assert.equal(page.status, 200);
    for (const asset of ['console.js', 'views/customers.js', 'console.css', 'uPlot.iife.min.js', 'markdown-it.min.js'])
      assert.equal((await fetch(`${base}/dashboard/assets/${asset}`)).status, 200, asset);
    const token = mintToken(
      TEST_JWT_SECRET,
      { sub: 'image', projects: ['acme-web'] },
      { expiresInSeconds: 600, issuer: ISSUER, audience: AUDIENCE },
    );
    const invoked = await fetch(`${base}/v1/agents/acme-web/skills/release_notes_composer`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Prefer: 'wait=30' },
      body: JSON.stringify({ fromVersion: '1.2.1', toVersion: '2.0.0' }),
    });
    const body = (await invoked.json()) as { status: string; result?: { markdown: string } };
    const done =
      body.status === 'completed'
        ? body
        : await eventually(
            async () =>
              (
                await fetch(`${base}/v1/agents/acme-web/invocations/${(body as { id?: string }).id}`, {
                  headers: { Authorization: `Bearer ${token}` },
                })
              ).json() as Promise<{ status: string; result?: { markdown: string } }>,
            (b) => b.status === 'completed',
            { what: 'the invocation on the image worker', timeoutMs: 60_000 },
          );
    assert.match(done.result!.markdown, /^# /);
  });
});
