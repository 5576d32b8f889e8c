/**
 * Keeps a service process of the dev stack running: when it exits (a crash, a `kill -9`) it is started again after
 * a short backoff, and a process whose liveness URL stops answering is killed and started again. Each restart is
 * announced; nothing else of the stack is stopped. Production does the same with the compose file's restart
 * policies and healthchecks (docs/deployment.md, "Deploying with Docker").
 *
 * With `standby`, a second process is kept started beside the running one (the worker: src/temporal/worker-standby.ts)
 * and told to serve when the running one exits, so the restart costs no start-up; a new standby follows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { STANDBY_READY, STANDBY_SERVE } from '../../src/temporal/worker-standby';

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
  /**
   * Keep a standby process (started with `env` added and an IPC channel) that serves when the running one exits. A
   * new standby is started `delayMs` (5 s) after it took over, or after its own exit, times the backoff: a fresh
   * start costs seconds of CPU, better spent on the process that just took over.
   */
  standby?: { env: Record<string, string>; delayMs?: number };
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
  /** The standby: `ready` once it said its workers are created; `promoted` once told to serve (when ready). */
  private spare: { child: ChildProcess; ready: boolean; promoted: boolean } | null = null;
  private spareTimer: NodeJS.Timeout | null = null;
  private sparesInARow = 0;

  constructor(private readonly opts: SupervisedOptions) {}

  /** How many times it was started again. */
  get restartCount(): number {
    return this.restarts;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /** The standby's process id while one is kept (started, not yet serving). */
  get standbyPid(): number | undefined {
    return this.spare?.child.pid;
  }

  /** Whether the standby said it is ready to serve (its workers created). */
  get standbyReady(): boolean {
    return this.spare?.ready ?? false;
  }

  start(): void {
    this.adopt(this.spawn(false));
    if (this.opts.standby && !this.spare && !this.spareTimer) this.startSpare();
  }

  private spawn(standby: boolean): ChildProcess {
    const { opts } = this;
    const out = opts.stdio ?? 'inherit';
    const child = spawn(opts.command, opts.args, {
      env: standby ? { ...opts.env, ...opts.standby?.env } : opts.env,
      stdio: standby ? ['ignore', out, out, 'ipc'] : ['ignore', out, out],
    });
    child.on('exit', (code, signal) => {
      if (child === this.child) this.exited(child, code, signal);
      else if (child === this.spare?.child) this.spareExited(code, signal);
    });
    return child;
  }

  /** Makes `child` the running process: watched, and announced to whoever waits for the next start. */
  private adopt(child: ChildProcess): void {
    this.child = child;
    this.startedAt = Date.now();
    if (this.opts.liveness) this.watch(child, this.opts.liveness);
    for (const wake of this.startWaiters) wake(child);
    this.startWaiters.clear();
  }

  private startSpare(): void {
    const child = this.spawn(true);
    const spare = { child, ready: false, promoted: false };
    this.spare = spare;
    child.on('message', (m: unknown) => {
      if (typeof m !== 'object' || m === null || (m as { type?: unknown }).type !== STANDBY_READY) return;
      spare.ready = true;
      this.sparesInARow = 0;
      if (spare.promoted) this.serve(spare.child);
    });
  }

  private serve(child: ChildProcess): void {
    if (child.connected) child.send({ type: STANDBY_SERVE });
  }

  private spareExited(code: number | null, signal: NodeJS.Signals | null): void {
    this.spare = null;
    if (this.stopping) return;
    this.sparesInARow += 1;
    const delay = this.spareDelay();
    this.opts.say(`${this.opts.name}'s standby exited (${signal ?? `code ${code}`}); starting another in ${(delay / 1000).toFixed(1)} s`);
    this.scheduleSpare(delay);
  }

  private spareDelay(): number {
    const { opts } = this;
    return Math.min(opts.maxBackoffMs ?? 8_000, (opts.standby?.delayMs ?? 5_000) * 2 ** Math.max(0, this.sparesInARow - 1));
  }

  private scheduleSpare(delay: number): void {
    if (this.spareTimer) clearTimeout(this.spareTimer);
    this.spareTimer = setTimeout(() => {
      this.spareTimer = null;
      if (!this.stopping && !this.spare) this.startSpare();
    }, delay);
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
    const spare = this.spare;
    if (spare) {
      // The standby takes over at once (or as soon as it is created); the next standby starts after the backoff.
      this.spare = null;
      spare.promoted = true;
      if (spare.ready) this.serve(spare.child);
      this.restarts += 1;
      this.sparesInARow = this.inARow;
      const next = Math.max(delay, this.spareDelay());
      opts.say(
        `${opts.name} exited (${signal ?? `code ${code}`}) after ${Math.round(lasted / 1000)} s; its standby (pid ${spare.child.pid}${spare.ready ? '' : ', still starting'}) serves instead (restart ${this.restarts}); a new standby in ${(next / 1000).toFixed(1)} s`,
      );
      this.adopt(spare.child);
      this.scheduleSpare(next);
      return;
    }
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

  /** Stops it (and its standby) for good: SIGTERM, then SIGKILL after `killAfterMs`. */
  async stop(killAfterMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.pending) clearTimeout(this.pending);
    if (this.probe) clearInterval(this.probe);
    if (this.spareTimer) clearTimeout(this.spareTimer);
    await Promise.all([this.child, this.spare?.child].map((c) => c && terminate(c, killAfterMs)));
  }
}

async function terminate(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), killAfterMs).unref();
  });
}
