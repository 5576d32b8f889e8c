/**
 * The fault suite's own deployment: a Temporal dev server on a persistent SQLite file and a MongoDB-wire store
 * (both restartable on the same port with the same data), two API processes and two worker processes, each a
 * real `node dist/…` child that the suite can SIGKILL and start again. Output of every process goes to a log
 * file in the run's data folder; a failure prints the tails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startMongo, startTemporal, type RunningMongo, type RunningTemporal } from '../../scripts/stack/servers';
import { workflowBundlePath } from '../support/bundle';
import { TEST_JWT_SECRET, TEST_OPERATOR_AUTHORIZATION } from '../support/config';
import { eventually } from '../support/eventually';

const DIST = join(__dirname, '..', '..', 'src');

export interface ClusterOptions {
  dataDir: string;
  dbName: string;
  taskQueue: string;
  smtpUrl: string;
  /** Temporal suggests continue-as-new after this many history events (low, so runs continue as new under faults). */
  continueAsNewAfter: number;
}

interface Managed {
  name: string;
  script: string;
  env: Record<string, string>;
  child: ChildProcess | null;
  /** Set while the suite itself has killed it: that exit is expected. */
  killing: boolean;
  /** Exits nobody asked for (restarted by the supervisor, like systemd or Kubernetes would). */
  unplannedExits: number;
  stopped: boolean;
}

export class Cluster {
  temporal!: RunningTemporal;
  mongo!: RunningMongo;
  temporalPort = 0;
  mongoPort = 0;
  readonly apiPorts: number[] = [];
  private readonly procs: Managed[] = [];
  readonly kills: string[] = [];

  constructor(private readonly opts: ClusterOptions) {}

  get mongoUri(): string {
    return `mongodb://127.0.0.1:${this.mongoPort}/`;
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.temporalPort}`;
  }

  apiUrl(i: number): string {
    return `http://127.0.0.1:${this.apiPorts[i]}`;
  }

  async start(): Promise<void> {
    await Promise.all([this.startTemporal(), this.startStore()]);
    const common = {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
      TEMPORAL_ADDRESS: this.temporalAddress,
      TEMPORAL_TASK_QUEUE: this.opts.taskQueue,
      MONGODB_URI: this.mongoUri,
      MONGODB_DB: this.opts.dbName,
      JWT_SECRET: TEST_JWT_SECRET,
      OPERATOR_WEBHOOK_AUTHORIZATION: TEST_OPERATOR_AUTHORIZATION,
      SMTP_URL: this.opts.smtpUrl,
      WORKFLOW_BUNDLE_PATH: await workflowBundlePath(),
      // Two workers share ~1,000 workflows on 2 cores: keep them cached rather than replaying on every task.
      WORKER_MAX_CACHED_WORKFLOWS: '1500',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      this.apiPorts.push(port);
      this.procs.push({
        name: `api-${i + 1}`,
        script: join(DIST, 'api', 'server.js'),
        env: { ...common, PORT: String(port), HOST: '127.0.0.1' },
        child: null,
        killing: false,
        unplannedExits: 0,
        stopped: false,
      });
    }
    for (let i = 0; i < 2; i++) {
      this.procs.push({
        name: `worker-${i + 1}`,
        script: join(DIST, 'worker.js'),
        env: common,
        child: null,
        killing: false,
        unplannedExits: 0,
        stopped: false,
      });
    }
    for (const p of this.procs) this.spawn(p);
    for (let i = 0; i < 2; i++) await this.waitReady(i);
  }

  private async startTemporal(): Promise<void> {
    this.temporal = await startTemporal({
      dataDir: join(this.opts.dataDir, 'temporal'),
      persistent: true,
      headless: true,
      port: this.temporalPort || undefined,
      dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': this.opts.continueAsNewAfter },
    });
    const port = Number(this.temporal.address.split(':')[1]);
    if (this.temporalPort && port !== this.temporalPort) {
      // startTemporal falls back to another port when the preferred one is still taken: not a restart.
      await this.temporal.stop();
      throw new Error(`Temporal came back on port ${port}, not ${this.temporalPort}`);
    }
    this.temporalPort = port;
  }

  private async startStore(): Promise<void> {
    // Durable commits: the suite crashes the store, and an acknowledged webhook must survive that.
    this.mongo = await startMongo({
      dataDir: join(this.opts.dataDir, 'store'),
      port: this.mongoPort || undefined,
      cacheSizeMb: 128,
      syncOnCommit: true,
    });
    const port = Number(new URL(this.mongo.uri).port);
    if (this.mongoPort && port !== this.mongoPort) {
      await this.mongo.stop();
      throw new Error(`the store came back on port ${port}, not ${this.mongoPort}`);
    }
    this.mongoPort = port;
  }

  private spawn(p: Managed): void {
    const log = openSync(join(this.opts.dataDir, `${p.name}.log`), 'a');
    const child = spawn(process.execPath, [p.script], { env: { ...process.env, ...p.env }, stdio: ['ignore', log, log] });
    closeSync(log);
    p.child = child;
    child.once('exit', () => {
      if (p.child !== child) return;
      p.child = null;
      if (p.killing || p.stopped) return;
      // A worker exits when Temporal or the store is unreachable at its start: restart it, a second later.
      p.unplannedExits += 1;
      setTimeout(() => !p.stopped && !p.child && this.spawn(p), 1_000).unref();
    });
  }

  private proc(name: string): Managed {
    const p = this.procs.find((x) => x.name === name);
    if (!p) throw new Error(`no process ${name}`);
    return p;
  }

  /** SIGKILLs a child process, waits for it to be gone, starts it again. */
  async killAndRestart(name: string): Promise<void> {
    const p = this.proc(name);
    p.killing = true;
    const child = p.child;
    if (child) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGKILL');
      await exited;
    }
    p.child = null;
    p.killing = false;
    this.spawn(p);
    if (name.startsWith('api-')) await this.waitReady(Number(name.slice(4)) - 1);
    this.kills.push(name);
  }

  /**
   * `downMs` is part of the fault, not a wait for anything: how long the server stays dead before it is started
   * again, long enough for the relay's retries (5 s) and the workers' reconnects to be exercised.
   */
  async killAndRestartTemporal(downMs: number): Promise<void> {
    await this.temporal.crash();
    await new Promise((r) => setTimeout(r, downMs));
    // Same port and SQLite file: a restart, not a new cluster. Retried while the port is still being released.
    await eventually(
      () => this.startTemporal().then(() => true),
      (ok) => ok,
      { what: 'Temporal to restart on its port', timeoutMs: 60_000, intervalMs: 500 },
    );
    this.kills.push('temporal');
  }

  /** `downMs`: as above; longer than the driver's 5 s server selection, so webhooks answer 503 meanwhile. */
  async killAndRestartStore(downMs: number): Promise<void> {
    await this.mongo.crash();
    await new Promise((r) => setTimeout(r, downMs));
    await eventually(
      () => this.startStore().then(() => true),
      (ok) => ok,
      { what: 'the store to restart on its port', timeoutMs: 60_000, intervalMs: 500 },
    );
    this.kills.push(this.mongo.kind);
  }

  private async waitReady(i: number): Promise<void> {
    await eventually(
      () => fetch(`${this.apiUrl(i)}/healthz`).then((r) => r.status),
      (s) => s === 200,
      // 90 s, like Temporal's and the store's restarts above: on a loaded machine (load 15-19, other suites running)
      // an API start took over 30 s twice, and the suite failed before it checked anything.
      { what: `api-${i + 1} to listen`, timeoutMs: 90_000, intervalMs: 100 },
    );
  }

  unplannedExits(): Record<string, number> {
    return Object.fromEntries(this.procs.filter((p) => p.unplannedExits > 0).map((p) => [p.name, p.unplannedExits]));
  }

  /** The last lines each process wrote, for a failure message. */
  logTails(lines = 15): string {
    const names = [...this.procs.map((p) => p.name), 'temporal/temporal', `store/${this.mongo?.kind ?? 'secantusd'}`];
    return names
      .map((n) => {
        const file = join(this.opts.dataDir, `${n}.log`);
        if (!existsSync(file)) return '';
        const tail = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
        return tail ? `--- ${n}.log (last ${lines} lines)\n${tail}` : '';
      })
      .filter(Boolean)
      .join('\n');
  }

  async stop(): Promise<void> {
    for (const p of this.procs) {
      p.stopped = true;
      const child = p.child;
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGKILL');
        await exited;
      }
    }
    await this.temporal?.stop();
    await this.mongo?.stop();
  }
}
