/** Parent side of the load generator: forks bench/lib/load-child.js, hands it a spec, collects the samples. */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { EventStreamSpec } from './provider-events';

interface CommonSpec {
  url: string;
  authorization: string;
  /** Keep-alive sockets (closed loop: also the concurrency). */
  connections: number;
  warmupMs: number;
  durationMs: number;
  events: EventStreamSpec;
}

export type LoadSpec = (CommonSpec & { mode: 'closed'; maxRequests: number }) | (CommonSpec & { mode: 'open'; ratePerSec: number });

export interface LoadResult {
  /** One per measured request (warm-up excluded), in ms; open loop: from its scheduled time. */
  latenciesMs: number[];
  statuses: Record<string, number>;
  errors: number;
  /** Measured requests completed inside the measurement window (throughput = this / elapsedMs). */
  completedInWindow: number;
  elapsedMs: number;
  /** Every request sent, warm-up included (how many events the server was given). */
  sent: number;
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = fork(join(__dirname, 'load-child.js'), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const limitMs = spec.warmupMs + spec.durationMs + 60_000;
  return new Promise<LoadResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`load generator did not finish within ${limitMs} ms`));
    }, limitMs);
    child.once('message', (result: LoadResult) => {
      clearTimeout(timer);
      resolve(result);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`load generator exited with code ${code}`));
    });
    child.send(spec);
  });
}

export const throughput = (r: LoadResult) => (r.completedInWindow * 1000) / r.elapsedMs;
