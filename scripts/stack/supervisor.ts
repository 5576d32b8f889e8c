/**
 * Keeps a service process of the dev stack running: when it exits (a crash, a `kill -9`) it is started again after
 * a short backoff, and a process whose liveness URL stops answering is killed and started again. Each restart is
 * announced; nothing else of the stack is stopped. Production does the same with the compose file's restart
 * policies and healthchecks (docs/deployment.md, "Deploying with Docker").
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SupervisedOptions {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  say(msg: string): void;
  /**
   * GET this every `everyMs` (5 s); no 200 within `timeoutMs` (5 s), `failuresBeforeKill` (3) times in a row, after
   * `graceMs` (60 s) from a start, kills the process.
   */
  liveness?: { url: string; everyMs?: number; timeoutMs?: number; failuresBeforeKill?: number; graceMs?: number };
  /** First restart delay, doubled per restart in a row up to `maxBackoffMs`; reset once a run lasted `stableMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  stableMs?: number;
  /** Where the child's output goes: the terminal (the dev stack), nowhere, or an open file (the soak benchmark). */
  stdio?: 'inherit' | 'ignore' | number;
}

export class Supervised {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarts = 0;
  private inARow = 0;
  private startedAt = 0;
  private pending: NodeJS.Timeout | null = null;
  private probe: NodeJS.Timeout | null = null;
  private readonly startWaiters = new Set<(c: ChildProcess) => void>();

  constructor(private readonly opts: SupervisedOptions) {}

  /** How many times it was started again. */
  get restartCount(): number {
    return this.restarts;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  start(): void {
    const { opts } = this;
    const child = spawn(opts.command, opts.args, { env: opts.env, stdio: ['ignore', opts.stdio ?? 'inherit', opts.stdio ?? 'inherit'] });
    this.child = child;
    this.startedAt = Date.now();
    child.on('exit', (code, signal) => this.exited(child, code, signal));
    if (opts.liveness) this.watch(child, opts.liveness);
    for (const wake of this.startWaiters) wake(child);
    this.startWaiters.clear();
  }

  /** Resolves with the next process started (a restart), for tests and the benchmark. */
  nextStart(): Promise<ChildProcess> {
    return new Promise((resolve) => this.startWaiters.add(resolve));
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    if (this.stopping || child !== this.child) return;
    const { opts } = this;
    const lasted = Date.now() - this.startedAt;
    this.inARow = lasted >= (opts.stableMs ?? 60_000) ? 1 : this.inARow + 1;
    const delay = Math.min(opts.maxBackoffMs ?? 8_000, (opts.backoffMs ?? 500) * 2 ** (this.inARow - 1));
    opts.say(
      `${opts.name} exited (${signal ?? `code ${code}`}) after ${Math.round(lasted / 1000)} s; restarting it in ${(delay / 1000).toFixed(1)} s (restart ${this.restarts + 1})`,
    );
    this.pending = setTimeout(() => {
      this.pending = null;
      if (this.stopping) return;
      this.restarts += 1;
      this.start();
      opts.say(`${opts.name} restarted (pid ${this.child?.pid})`);
    }, delay);
  }

  private watch(child: ChildProcess, l: NonNullable<SupervisedOptions['liveness']>): void {
    let failures = 0;
    let checking = false;
    this.probe = setInterval(() => {
      if (checking || Date.now() - this.startedAt < (l.graceMs ?? 60_000)) return;
      checking = true;
      void fetch(l.url, { signal: AbortSignal.timeout(l.timeoutMs ?? 5_000) })
        .then((res) => res.status === 200)
        .catch(() => false)
        .then((ok) => {
          checking = false;
          if (child !== this.child || child.exitCode !== null || child.signalCode !== null) return;
          failures = ok ? 0 : failures + 1;
          if (failures >= (l.failuresBeforeKill ?? 3)) {
            failures = 0;
            this.opts.say(
              `${this.opts.name} did not answer ${l.url} ${l.failuresBeforeKill ?? 3} times in a row; killing it to restart it`,
            );
            child.kill('SIGKILL');
          }
        });
    }, l.everyMs ?? 5_000);
  }

  /** Stops it for good: SIGTERM, then SIGKILL after `killAfterMs`. */
  async stop(killAfterMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.pending) clearTimeout(this.pending);
    if (this.probe) clearInterval(this.probe);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), killAfterMs).unref();
    });
  }
}
