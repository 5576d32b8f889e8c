/**
 * Benchmark 1, webhook intake: POST /api/saas/iap/billingprovider/webhook?app=bench under a closed loop of 16
 * keep-alive connections, against an insert-only Koa app (bench/baseline) measured in the same run, rounds in
 * ABBA order to cancel drift. Then the ack latency in an open loop at half the product's measured maximum.
 * No worker runs here: intake is the API, the forwarder's signal-with-start and the servers behind them
 * (workflow execution is benchmark 2). After each product round the forwarder's backlog is drained and timed.
 */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { createInsertOnlyApp } from './baseline/insert-only-app';
import { APP_WEBHOOK_PATH } from '../src/contracts/webhook-paths';
import { AppRepository } from '../src/store/apps';
import { COLLECTIONS } from '../src/store/collections';
import { connectStore } from '../src/store/mongo';
import { cpuSince, cpuSnapshot, perUnit, type CpuUse } from './lib/cpu';
import { runLoad, throughput, type LoadResult, type LoadSpec } from './lib/load';
import { ms, row, type BenchOutcome } from './lib/report';
import { benchConfig, benchLogger, closeServer, listen, startService, warningNote, type Service } from './lib/service';
import type { BenchStack } from './lib/stack';
import { nowMs, summarize } from './lib/stats';
import { microTimings } from './intake-breakdown';

const NAME = 'webhook intake';
const CONNECTIONS = 16;
const WARMUP_MS = 2_000;
const DURATION_MS = 8_000;
const MAX_REQUESTS = 40_000;
const SUBSCRIBERS = 5_000;
const DRAIN_TIMEOUT_MS = 120_000;
const TARGET_RATIO = 0.7;
const TARGET_P99_MS = 100;

/** ackOnly: the product's route with TEST events, which it records and acknowledges but never forwards. */
type Variant = 'product' | 'baseline' | 'ackOnly';

interface Round {
  variant: Variant;
  result: LoadResult;
  cpu: CpuUse;
  /** Product only: from the end of the load to the last accepted event marked forwarded. */
  drainMs: number;
}

/** Counts and times the relay's signal-with-start calls (re-forwards by recovery included). */
function signalProbe() {
  const samples: number[] = [];
  const interceptor: WorkflowClientInterceptor = {
    async signalWithStart(input, next) {
      const t = nowMs();
      try {
        return await next(input);
      } finally {
        samples.push(nowMs() - t);
      }
    },
  };
  return { interceptor, samples };
}

export async function benchWebhookIntake(stack: BenchStack): Promise<BenchOutcome> {
  const probe = signalProbe();
  const product = await startService(stack, 'intake', { interceptors: [probe.interceptor] });
  const authorization = (await new AppRepository(product.store.db).create('bench', 'Bench app', new Date()))!.authorization;
  const baselineConfig = benchConfig(stack, 'intake_baseline');
  const baselineStore = await connectStore(baselineConfig.mongo.uri, baselineConfig.mongo.dbName, 'bench-baseline');
  await baselineStore.db.dropDatabase();
  const baseline = await listen(createInsertOnlyApp(baselineStore.db, benchLogger('bench-baseline').logger).callback());
  const urls: Record<Variant, string> = {
    product: `${product.baseUrl}${APP_WEBHOOK_PATH}?app=bench`,
    ackOnly: `${product.baseUrl}${APP_WEBHOOK_PATH}?app=bench`,
    baseline: `${baseline.baseUrl}${APP_WEBHOOK_PATH}?app=bench`,
  };

  const rounds: Round[] = [];
  let seq = 0;
  const measure = async (variant: Variant, spec: Omit<LoadSpec, 'url' | 'authorization' | 'events'>): Promise<Round> => {
    const prefix = `${variant}-${seq++}`;
    const before = cpuSnapshot();
    const result = await runLoad({
      ...spec,
      url: urls[variant],
      authorization,
      events: { seed: 1, subscribers: SUBSCRIBERS, prefix, sharedUsers: 'sub', ...(variant === 'ackOnly' ? { type: 'TEST' } : {}) },
    } as LoadSpec);
    const loadEnded = nowMs();
    const drained = variant === 'product' ? await drain(product) : true;
    const round = { variant, result, cpu: cpuSince(before), drainMs: variant === 'product' ? nowMs() - loadEnded : 0 };
    if (!drained) throw new Error(`the forwarder did not drain its backlog within ${DRAIN_TIMEOUT_MS} ms`);
    process.stderr.write(
      `[bench] intake ${variant}: ${throughput(result).toFixed(0)} req/s, p99 ${summarize(result.latenciesMs).p99.toFixed(1)} ms${variant === 'product' ? `, drained in ${round.drainMs.toFixed(0)} ms` : ''}\n`,
    );
    return round;
  };

  try {
    const closed = {
      mode: 'closed' as const,
      connections: CONNECTIONS,
      warmupMs: WARMUP_MS,
      durationMs: DURATION_MS,
      maxRequests: MAX_REQUESTS,
    };
    for (const variant of ['baseline', 'product', 'product', 'baseline'] as const) rounds.push(await measure(variant, closed));

    const closedOf = (v: Variant) => rounds.filter((r) => r.variant === v);
    const rate = (v: Variant) => {
      const rs = closedOf(v);
      return rs.reduce((a, r) => a + r.result.completedInWindow, 0) / rs.reduce((a, r) => a + r.result.elapsedMs / 1000, 0);
    };
    const lat = (v: Variant) => summarize(closedOf(v).flatMap((r) => r.result.latenciesMs));
    const productRate = rate('product');
    const baselineRate = rate('baseline');
    // Sustained: every event the product accepted (warm-up included), until the relay had forwarded them all.
    const forwardedRate =
      closedOf('product').reduce((a, r) => a + r.result.sent, 0) /
      closedOf('product').reduce((a, r) => a + (WARMUP_MS + r.result.elapsedMs + r.drainMs) / 1000, 0);

    const halfRate = Math.max(1, Math.round(productRate / 2));
    const open = { mode: 'open' as const, connections: 64, warmupMs: 1_000, durationMs: DURATION_MS, ratePerSec: halfRate };
    const openRounds = { product: await measure('product', open), baseline: await measure('baseline', open) };
    const openLat = (v: keyof typeof openRounds) => summarize(openRounds[v].result.latenciesMs);

    // Counted before the probes below add their own events and calls.
    const forwardedEvents = await product.store.db.collection(COLLECTIONS.webhookEvents).countDocuments({ ignored: false });
    const signalCalls = probe.samples.length;
    const signalLatency = summarize(probe.samples);
    const breakdown = await microTimings(product, authorization, urls.baseline, probe.samples);
    // Last: its thousands of recorded TEST events would make every later outbox update scan a larger inbox.
    rounds.push(await measure('ackOnly', closed));
    const ackOnlyRate = rate('ackOnly');
    const errors = [...rounds, openRounds.product, openRounds.baseline].reduce(
      (a, r) =>
        a +
        r.result.errors +
        Object.entries(r.result.statuses)
          .filter(([s]) => s !== '200')
          .reduce((x, [, n]) => x + n, 0),
      0,
    );

    const ratio = productRate / baselineRate;
    const p = lat('product');
    const b = lat('baseline');
    const rows = [
      row(NAME, `ack throughput, ${CONNECTIONS} conns`, 'req/s', productRate, {
        baseline: baselineRate,
        target: `>= ${TARGET_RATIO}x`,
        met: ratio >= TARGET_RATIO,
      }),
      row(NAME, 'p50 ack latency (closed loop)', 'ms', p.p50, { baseline: b.p50 }),
      row(NAME, 'p99 ack latency (closed loop)', 'ms', p.p99, { baseline: b.p99 }),
      row(NAME, 'sustained rate incl. relay drain', 'ev/s', forwardedRate, { baseline: baselineRate }),
      row(NAME, 'ack throughput, relay idle (TEST events)', 'req/s', ackOnlyRate, { baseline: baselineRate }),
      row(NAME, `p50 ack @ ${halfRate}/s open loop`, 'ms', openLat('product').p50, { baseline: openLat('baseline').p50 }),
      row(NAME, `p99 ack @ ${halfRate}/s open loop`, 'ms', openLat('product').p99, {
        baseline: openLat('baseline').p99,
        target: `< ${TARGET_P99_MS} ms`,
        met: openLat('product').p99 < TARGET_P99_MS,
      }),
    ];

    const cpuLines = (['baseline', 'product', 'ackOnly'] as const).map((v) => {
      const rs = closedOf(v);
      const use = rs.map((r) => r.cpu);
      const merged: CpuUse = {
        wallMs: use.reduce((a, u) => a + u.wallMs, 0),
        machineBusyMs: use.reduce((a, u) => a + u.machineBusyMs, 0),
        otherMs: use.reduce((a, u) => a + u.otherMs, 0),
        byProcess: Object.fromEntries(Object.keys(use[0]!.byProcess).map((k) => [k, use.reduce((a, u) => a + (u.byProcess[k] ?? 0), 0)])),
      };
      return `  ${v.padEnd(8)}: ${perUnit(
        merged,
        rs.reduce((a, r) => a + r.result.sent, 0),
      )} (product rounds include the relay drain)`;
    });
    const notes = [
      `Webhook intake: ${CONNECTIONS} keep-alive connections, ${WARMUP_MS / 1000} s warm-up + ${DURATION_MS / 1000} s per round, rounds baseline/product/product/baseline, then open loop, then (last, as it grows the inbox) the product with TEST events only (recorded and acknowledged, nothing to forward: the same route without the relay's work); ${SUBSCRIBERS} distinct subscribers; non-200 answers or errors: ${errors}.`,
      `  relay: ${forwardedEvents} events forwarded with ${signalCalls} signal-with-start calls (a backlog's events for one subscriber share a call, and recovery may repeat some; call latency under load p50 ${ms(signalLatency.p50)}, p99 ${ms(signalLatency.p99)}); product drain after the closed rounds: ${closedOf(
        'product',
      )
        .map((r) => ms(r.drainMs))
        .join(', ')}.`,
      '  CPU per request (all processes this run started, and the rest of the machine; the load generator share includes its start-up, so it looks large where few requests were served):',
      ...cpuLines,
      ...breakdown.lines,
      ...warningNote(product.warnings),
    ];
    return {
      name: NAME,
      rows,
      notes,
      details: {
        connections: CONNECTIONS,
        warmupMs: WARMUP_MS,
        durationMs: DURATION_MS,
        rounds: [...rounds, openRounds.product, openRounds.baseline].map((r) => ({
          variant: r.variant,
          throughput: throughput(r.result),
          latency: summarize(r.result.latenciesMs),
          statuses: r.result.statuses,
          errors: r.result.errors,
          sent: r.result.sent,
          drainMs: r.drainMs,
          cpu: r.cpu,
        })),
        halfRate,
        signalWithStart: { calls: signalCalls, forwardedEvents, latency: signalLatency },
        breakdown: breakdown.details,
      },
    };
  } finally {
    await closeServer(baseline.server);
    await baselineStore.close();
    await product.close();
  }
}

/**
 * Waits until the relay has handed every accepted event to Temporal: nothing owed, which also covers events past
 * its memory bound that it reads back from the inbox (its idle() only speaks of what it holds).
 */
async function drain(product: Service): Promise<boolean> {
  const deadline = nowMs() + DRAIN_TIMEOUT_MS;
  while (product.forwarder.stats().owed > 0) {
    if (nowMs() > deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}
