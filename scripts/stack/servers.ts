/**
 * Starts the real servers the service and its tests talk to: the Temporal dev server (with its Web UI) and a
 * MongoDB wire-protocol server (mongod if installed, else SecantusDB). Loopback only; free ports unless told.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { ensureSecantusBinary, ensureTemporalBinary, onPath } from './binaries';

export const SEARCH_ATTRIBUTES = [
  'Project',
  'Skill',
  'BillingScope',
  'SubscriberId',
  'BillingStatus',
  'OutboundApp',
  'OutboundEndpoint',
  'OutboundStatus',
] as const;

const log = (msg: string) => process.stderr.write(`[stack] ${msg}\n`);

export interface RunningServer {
  name: string;
  stop(): Promise<void>;
}

export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(null));
      srv.listen(port, '127.0.0.1', () => {
        const addr = srv.address();
        srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : null));
      });
    });
  if (preferred) {
    const got = await tryPort(preferred);
    if (got) return got;
  }
  const any = await tryPort(0);
  if (!any) throw new Error('no free TCP port on 127.0.0.1');
  return any;
}

export async function waitForPort(port: number, deadlineMs: number, child?: ChildProcess, name = 'server'): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    const open = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.setTimeout(500);
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => {
        s.destroy();
        resolve(false);
      });
      s.once('timeout', () => {
        s.destroy();
        resolve(false);
      });
      s.connect(port, '127.0.0.1');
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not open port ${port} within ${deadlineMs} ms`);
}

/** Spawns in its own process group so stop() takes down the server and anything it forked. */
export function spawnServer(
  cmd: string,
  args: string[],
  logFile: string,
): { child: ChildProcess; stop: () => Promise<void>; crash: () => Promise<void> } {
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  const exitHook = () => kill('SIGKILL');
  process.once('exit', exitHook);
  const stop = async () => {
    process.off('exit', exitHook);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    out.end();
  };
  // A crash, not a shutdown: SIGKILL to the whole group, no chance to flush or close anything.
  const crash = async () => {
    process.off('exit', exitHook);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    kill('SIGKILL');
    await exited;
    out.end();
  };
  return { child, stop, crash };
}

export interface TemporalOptions {
  dataDir: string;
  /** Keep workflows across restarts (dev); tests use an in-memory store. */
  persistent: boolean;
  port?: number;
  uiPort?: number;
  headless?: boolean;
  dynamicConfig?: Record<string, unknown>;
}

export interface RunningTemporal extends RunningServer {
  address: string;
  uiUrl: string | null;
  /** SIGKILLs the server and everything it forked (fault-injection tests). */
  crash(): Promise<void>;
}

export async function startTemporal(opts: TemporalOptions): Promise<RunningTemporal> {
  const bin = await ensureTemporalBinary();
  mkdirSync(opts.dataDir, { recursive: true });
  const port = await freePort(opts.port);
  const uiPort = opts.headless ? null : await freePort(opts.uiPort ?? port + 1000);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--log-level',
    'warn',
    '--sqlite-pragma',
    'journal_mode=WAL',
    '--sqlite-pragma',
    'synchronous=NORMAL',
  ];
  if (opts.persistent) args.push('--db-filename', join(opts.dataDir, 'temporal.db'));
  if (uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(uiPort), '--ui-ip', '127.0.0.1');
  for (const sa of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${sa}=Keyword`);
  // Task-queue fairness (src/temporal/fairness.ts): the billing queue dispatches its backlog round-robin by scope.
  // Fairness holds within a partition, and the server splits a queue into four by default, each polled at random:
  // one partition is plenty for one machine and makes the order hold across the whole queue (bench/README.md, soak).
  const dynamicConfig = {
    'matching.enableFairness': true,
    'matching.numTaskqueueReadPartitions': 1,
    'matching.numTaskqueueWritePartitions': 1,
    ...opts.dynamicConfig,
  };
  for (const [k, v] of Object.entries(dynamicConfig)) args.push('--dynamic-config-value', `${k}=${JSON.stringify(v)}`);
  log(`starting Temporal dev server on 127.0.0.1:${port}${uiPort ? ` (Web UI http://127.0.0.1:${uiPort})` : ''}`);
  const { child, stop, crash } = spawnServer(bin, args, join(opts.dataDir, 'temporal.log'));
  try {
    await waitForPort(port, 60_000, child, 'temporal');
    if (uiPort) await waitForPort(uiPort, 30_000, child, 'temporal ui');
  } catch (err) {
    await stop();
    throw err;
  }
  return { name: 'temporal', address: `127.0.0.1:${port}`, uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : null, stop, crash };
}

export interface RunningMongo extends RunningServer {
  uri: string;
  kind: 'mongod' | 'secantusd';
  /** SIGKILLs the server (fault-injection tests). */
  crash(): Promise<void>;
}

export interface MongoOptions {
  dataDir: string;
  port?: number;
  /** Storage-engine cache in MB. SecantusDB's default is 4 GB; keep it small beside Temporal on 2 cores. */
  cacheSizeMb?: number;
  /**
   * SecantusDB only: make each commit durable before it is acknowledged (`--sync-on-commit`). Without it,
   * SecantusDB acknowledges writes, `j: true` included, that a crash of the server loses (measured: hundreds of
   * acknowledged inserts gone after a SIGKILL); mongod honours `j: true` by itself. Tests that crash the store
   * need it; it costs write throughput.
   */
  syncOnCommit?: boolean;
}

/**
 * Standalone (no replica-set advertisement): the service uses no transactions or change streams, and a
 * standalone MongoDB behaves the same. An empty config file of our own stops it from picking up a
 * secantusd.toml from the working directory or the home folder.
 */
function secantusArgs(port: number, dbPath: string, cacheMb: number, syncOnCommit: boolean): string[] {
  const configFile = join(dbPath, '..', 'secantusd.toml');
  writeFileSync(configFile, '# settings come from the command line (scripts/stack/servers.ts)\n');
  return [
    '--config',
    configFile,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--storage-path',
    dbPath,
    '--standalone',
    '--cache-size',
    `${cacheMb}M`,
    '--log-level',
    'WARNING',
    ...(syncOnCommit ? ['--sync-on-commit'] : []),
  ];
}

export async function startMongo(opts: MongoOptions): Promise<RunningMongo> {
  const port = await freePort(opts.port);
  const cacheMb = opts.cacheSizeMb ?? 256;
  const mongod = onPath('mongod');
  let started: { child: ChildProcess; stop: () => Promise<void>; crash: () => Promise<void> };
  let kind: RunningMongo['kind'];
  if (mongod) {
    const dbPath = join(opts.dataDir, 'mongod');
    mkdirSync(dbPath, { recursive: true });
    log(`starting mongod on 127.0.0.1:${port}`);
    started = spawnServer(
      mongod,
      [
        '--dbpath',
        dbPath,
        '--port',
        String(port),
        '--bind_ip',
        '127.0.0.1',
        '--quiet',
        '--wiredTigerCacheSizeGB',
        String(Math.max(0.25, cacheMb / 1024)),
      ],
      join(opts.dataDir, 'mongod.log'),
    );
    kind = 'mongod';
  } else {
    const bin = await ensureSecantusBinary();
    const dbPath = join(opts.dataDir, 'secantusd');
    mkdirSync(dbPath, { recursive: true });
    log(`starting SecantusDB (secantusd-rs) on 127.0.0.1:${port}`);
    started = spawnServer(bin, secantusArgs(port, dbPath, cacheMb, opts.syncOnCommit ?? false), join(opts.dataDir, 'secantusd.log'));
    kind = 'secantusd';
  }
  try {
    await waitForPort(port, 30_000, started.child, kind);
  } catch (err) {
    await started.stop();
    throw err;
  }
  return { name: kind, kind, uri: `mongodb://127.0.0.1:${port}/`, stop: started.stop, crash: started.crash };
}
