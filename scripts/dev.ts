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
/** The billing worker's niceness in the dev stack: below skills, not so far that a burst starves it (the soak). */
const BILLING_WORKER_NICE = 5;
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
    // Each worker has a standby beside it, told to serve when it exits (src/temporal/worker-standby.ts), unless it
    // serves metrics: two processes cannot bind one WORKER_METRICS_ADDRESS.
    const standby = env.WORKER_METRICS_ADDRESS ? undefined : { env: { WORKER_STANDBY: 'true' } };
    if (!standby) say('WORKER_METRICS_ADDRESS is set: no standby worker (a restarted worker starts from scratch)');
    const workers = await workerProcesses(env, say);
    for (const p of [
      { name: 'api', command: process.execPath, args: [join(root, 'dist/src/api/server.js')], env, liveness: `${base}/healthz` },
      ...workers,
    ]) {
      const child = new Supervised({
        name: p.name,
        command: p.command,
        args: p.args,
        env: p.env,
        say,
        liveness: { url: p.liveness },
        ...(p.name === 'api' ? {} : { standby }),
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

/**
 * The worker processes: by default one per role, the billing one under `nice` (BILLING_WORKER_NICE), so a burst's
 * billing work yields the CPU to skill invocations (the soak: skill p95 under a burst, bench/README.md). With
 * WORKER_ROLES set, one process serving those roles, as before.
 */
async function workerProcesses(
  env: Record<string, string>,
  say: (m: string) => void,
): Promise<{ name: string; command: string; args: string[]; env: Record<string, string>; liveness: string }[]> {
  const script = join(root, 'dist/src/worker.js');
  const health = (address: string) => `http://${address}/healthz`;
  if (env.WORKER_ROLES)
    return [{ name: 'worker', command: process.execPath, args: [script], env, liveness: health(env.WORKER_HEALTH_ADDRESS!) }];
  const skillsHealth = `127.0.0.1:${await freePort()}`;
  say(
    `skills and billing in worker processes of their own, the billing one at nice ${BILLING_WORKER_NICE} (set WORKER_ROLES in .env for one process)`,
  );
  return [
    {
      name: 'worker(skills)',
      command: process.execPath,
      args: [script],
      env: { ...env, WORKER_ROLES: 'skills', WORKER_HEALTH_ADDRESS: skillsHealth },
      liveness: health(skillsHealth),
    },
    {
      name: 'worker(billing)',
      command: 'nice',
      args: ['-n', String(BILLING_WORKER_NICE), process.execPath, script],
      env: { ...env, WORKER_ROLES: 'billing' },
      liveness: health(env.WORKER_HEALTH_ADDRESS!),
    },
  ];
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
