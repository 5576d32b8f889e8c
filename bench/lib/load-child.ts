/**
 * The load generator, run as a child Node process (bench/lib/load.ts forks it) so its event loop does not
 * share a thread with the server under test. Closed loop: N keep-alive connections, each sending its next
 * request when the previous answer arrives. Open loop: a fixed arrival rate, each latency measured from the
 * request's scheduled time (so a stalled server cannot hide its queue: no coordinated omission).
 */
import { keepAliveAgent, send } from './http-client';
import type { LoadResult, LoadSpec } from './load';
import { streamEvent } from './provider-events';
import { nowMs, sleep } from './stats';

async function run(spec: LoadSpec): Promise<LoadResult> {
  const agent = keepAliveAgent(spec.connections);
  const headers = { Authorization: spec.authorization };
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let index = 0;
  const started = nowMs();
  const warmupEnd = started + spec.warmupMs;
  const end = warmupEnd + spec.durationMs;
  let completedInWindow = 0;

  const one = async (scheduledAt: number) => {
    const body = streamEvent(spec.events, index++);
    try {
      const res = await send(agent, spec.url, 'POST', body, headers);
      const done = nowMs();
      if (scheduledAt >= warmupEnd) {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        latenciesMs.push(done - scheduledAt);
        if (done <= end) completedInWindow += 1;
      }
    } catch {
      if (scheduledAt >= warmupEnd) errors += 1;
    }
  };

  if (spec.mode === 'closed') {
    const loop = async () => {
      for (let t = nowMs(); t < end && latenciesMs.length + errors < spec.maxRequests; t = nowMs()) await one(t);
    };
    await Promise.all(Array.from({ length: spec.connections }, loop));
  } else {
    const intervalMs = 1000 / spec.ratePerSec;
    const total = Math.floor((spec.warmupMs + spec.durationMs) / intervalMs);
    const inFlight = new Set<Promise<void>>();
    for (let k = 0; k < total;) {
      const now = nowMs();
      for (; k < total && started + k * intervalMs <= now; k++) {
        const p = one(started + k * intervalMs).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await sleep(1);
    }
    await Promise.all(inFlight);
  }
  agent.destroy();
  const elapsedMs = Math.min(nowMs(), end) - warmupEnd;
  return { latenciesMs, statuses, errors, completedInWindow, elapsedMs, sent: index };
}

process.once('message', (spec: LoadSpec) => {
  run(spec).then(
    (result) => process.send!(result, () => process.exit(0)),
    (err: unknown) => {
      process.stderr.write(`load generator failed: ${String(err)}\n`);
      process.exit(1);
    },
  );
});
