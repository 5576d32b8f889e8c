/**
 * `npm run dev`: the whole service on this machine. Starts the Temporal dev server (with its Web UI) and the
 * store, then the API and the worker as separate, supervised processes (a crashed or unresponsive one is started
 * again with backoff, and the rest of the stack keeps running), loads the demo project, prints where everything
 * is, and stops it all on Ctrl-C.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '../src/config/config';
import { mintToken } from '../src/auth/mint-token';
import { devDefaults } from './stack/dev-defaults';
import { ensureEnvFile, readEnvFile, removeDevStack, writeDevStack } from './stack/env-file';
import { freePort, startMongo, startTemporal, type RunningServer } from './stack/servers';
import { Supervised } from './stack/supervisor';

const root = resolve(__dirname, '..', '..');
const say = (msg: string) => process.stdout.write(`[dev] ${msg}\n`);

async function waitReady(url: string, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer 200 within ${deadlineMs} ms`);
}

async function main(): Promise<void> {
  const envPath = join(root, '.env');
  if (ensureEnvFile(envPath).created) say('wrote .env with fresh random secrets (JWT_SECRET, OPERATOR_WEBHOOK_AUTHORIZATION)');
  const fileEnv = readEnvFile(envPath);
  const dataDir = join(root, '.data');
  const servers: RunningServer[] = [];
  const children: Supervised[] = [];
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await Promise.all(children.map((c) => c.stop()));
    removeDevStack(root);
    for (const s of servers.reverse()) await s.stop();
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    const env: Record<string, string> = { ...fileEnv, ...stripUndefined(process.env) };
    // All in parallel: on a fresh machine each server is built once first (minutes), and the builds overlap.
    const [t, m, bundle] = await Promise.all([
      env.TEMPORAL_ADDRESS
        ? null
        : startTemporal({ dataDir: join(dataDir, 'temporal'), persistent: true, port: 7233, uiPort: 8233 }).then(
            (s) => (servers.push(s), s),
          ),
      // Durable commits: an acknowledged webhook must survive a crash of the local store too.
      env.MONGODB_URI
        ? null
        : startMongo({ dataDir: join(dataDir, 'mongo'), port: 27017, syncOnCommit: true }).then((s) => (servers.push(s), s)),
      // The workflow bundle, built once here for every start of the worker: a worker that bundles at start-up spends
      // seconds of CPU on it each time the supervisor starts it again.
      env.WORKFLOW_BUNDLE_PATH ? null : buildWorkflowBundle(join(dataDir, 'workflow-bundle.js')),
    ]);
    if (bundle) env.WORKFLOW_BUNDLE_PATH = bundle;
    if (t) {
      env.TEMPORAL_ADDRESS = t.address;
      if (t.uiUrl) env.TEMPORAL_UI_URL ??= t.uiUrl;
    }
    if (m) env.MONGODB_URI = m.uri;
    env.PORT ??= String(await freePort(3000));
    env.HOST ??= '127.0.0.1';
    env.NODE_ENV ??= 'development';
    const defaults = devDefaults(env);
    Object.assign(env, defaults.set);
    for (const note of defaults.notes) say(note);
    const config = loadConfig(env);
    // For `npm run cli -- …` in another terminal: the addresses chosen here (removed again on Ctrl-C).
    writeDevStack(root, {
      TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS!,
      MONGODB_URI: env.MONGODB_URI!,
      PORT: String(config.http.port),
      HOST: config.http.host,
      ...(env.TEMPORAL_UI_URL ? { TEMPORAL_UI_URL: env.TEMPORAL_UI_URL } : {}),
    });

    const base = `http://${config.http.host}:${config.http.port}`;
    // The worker's own liveness (src/temporal/worker-health.ts), on a free loopback port unless set.
    env.WORKER_HEALTH_ADDRESS ??= `127.0.0.1:${await freePort()}`;
    // The worker has a standby beside it, told to serve when it exits (src/temporal/worker-standby.ts), unless it
    // serves metrics: two processes cannot bind one WORKER_METRICS_ADDRESS.
    const standby = env.WORKER_METRICS_ADDRESS ? undefined : { env: { WORKER_STANDBY: 'true' } };
    if (!standby) say('WORKER_METRICS_ADDRESS is set: no standby worker (a restarted worker starts from scratch)');
    for (const [name, script, liveness] of [
      ['api', 'dist/src/api/server.js', `${base}/healthz`],
      ['worker', 'dist/src/worker.js', `http://${env.WORKER_HEALTH_ADDRESS}/healthz`],
    ] as const) {
      const child = new Supervised({
        name,
        command: process.execPath,
        args: [join(root, script)],
        env,
        say,
        liveness: { url: liveness },
        ...(name === 'worker' ? { standby } : {}),
      });
      child.start();
      children.push(child);
    }
    await waitReady(`${base}/readyz`, 60_000);

    const seed = spawnSync(process.execPath, [join(root, 'dist/src/cli.js'), 'seed-demo'], { env, stdio: 'inherit' });
    if (seed.status !== 0) say('loading the demo project failed (see above); the service runs without it');

    const token = mintToken(
      config.jwt.secret!,
      { sub: 'dev-admin', projects: ['*'], apps: ['*'], roles: ['admin'] },
      {
        expiresInSeconds: 12 * 3600,
        issuer: config.jwt.issuer,
        audience: config.jwt.audience,
      },
    );
    say('ready');
    say(`  API           ${base}   (OpenAPI: ${base}/openapi.json, dashboard: ${base}/dashboard)`);
    say(`  Temporal UI   ${config.temporal.uiUrl ?? '(external Temporal; see your cluster)'}`);
    say(`  Temporal gRPC ${config.temporal.address}`);
    say(`  MongoDB       ${config.mongo.uri}`);
    say(`  admin token (12 h): export TOKEN=${token}`);
    say(`  dashboard:    ${base}/dashboard#token=${token}`);
    say(
      '  try (another terminal, this folder): bin/cli invoke release_notes_composer --project acme-web --from 1.2.1 --to 2.0.0 > notes.md',
    );
    say('  CLI commands: bin/cli help (README: your own repository in five commands)');
    say('A crashed API or worker is started again (with backoff) and announced here; Ctrl-C stops everything.');
  } catch (err) {
    process.stderr.write(`[dev] ${err instanceof Error ? err.message : String(err)}\n`);
    await stopAll(1);
  }
}

async function buildWorkflowBundle(path: string): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../src/workflows'), logger: quietBundler });
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, code);
  return path;
}

const noop = () => undefined;
/** The bundler reports webpack's build summary at info: not for the dev stack's terminal. */
const quietBundler = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

function stripUndefined(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

void main();
