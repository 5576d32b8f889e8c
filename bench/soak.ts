/**
 * The soak (opt-in: `npm run bench -- --only=soak`): the service as `npm run dev` runs it (the API and the worker as
 * separate processes under the dev stack's supervisor, scripts/stack/supervisor.ts), a burst of 10,000 new
 * subscribers on app A and two CPU hogs for 10 minutes (SOAK_MINUTES, SOAK_SUBSCRIBERS scale it down for a trial).
 * Halfway, the same 10,000 subscribers renew (a second burst), and at 40% the worker is killed with SIGKILL.
 * Throughout, one at a time: a skill invocation with `Prefer: wait=30`, and a purchase on app B, timed from its
 * acknowledgement until GET /v1/billing/customers/{id} would show it (the endpoint's own read). The baseline is the
 * same two probes on the same stack before the burst and the hogs start. Every acknowledged event must be applied
 * by the end, and the worker must not have exited other than by the kill.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { APP_WEBHOOK_PATH } from '../src/contracts/webhook-paths';
import { appScope, workflowIdFor } from '../src/billing/subscriber-id';
import { AppRepository } from '../src/store/apps';
import { COLLECTIONS } from '../src/store/collections';
import { DocumentRepository, WholeKindCache } from '../src/store/documents';
import { connectStore } from '../src/store/mongo';
import { ProjectRepository } from '../src/store/projects';
import { subscriberKey, type SubscriberRecord } from '../src/store/subscribers';
import { freePort } from '../scripts/stack/servers';
import { Supervised } from '../scripts/stack/supervisor';
import { DEMO_CASES, loadDemo } from './lib/demo';
import { loadHistory, type HistoryEvent } from './lib/history';
import { keepAliveAgent, send } from './lib/http-client';
import { DAY, envelope, PRODUCTS, providerEvent } from './lib/provider-events';
import { ms, row, type BenchOutcome } from './lib/report';
import { auditTotals } from './lib/totals-audit';
import { benchJwtSecret, benchProductionEnv, benchToken } from './lib/service';
import type { BenchStack } from './lib/stack';
import { nowMs, sleep, summarize, type Summary } from './lib/stats';

const NAME = 'soak';
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SUBSCRIBERS = Number(process.env.SOAK_SUBSCRIBERS ?? 10_000);
const HOGS = Number(process.env.SOAK_HOGS ?? 2);
/** SOAK_STANDBY=false: no standby worker, a killed worker is started from scratch (what the dev stack did before). */
const STANDBY = process.env.SOAK_STANDBY !== 'false';
/** The burst's concurrent connections: as fast as the API acknowledges. */
const BURST_CONNECTIONS = 16;
const BASELINE_SAMPLES = 8;
const PROBE_EVERY_MS = 3_000;
const B_DEADLINE_MS = 120_000;
/**
 * How long after the soak the drain may take (SOAK_DRAIN_MINUTES): at ~15 events a second on a loaded machine, the
 * 20,000 events of a 10-minute soak need longer than the soak itself; past it the run reports what was left.
 */
const DRAIN_DEADLINE_MS = Number(process.env.SOAK_DRAIN_MINUTES ?? 25) * 60_000;
/**
 * What each A subscriber adds to MRR (docs: the price normalised to one month by the period, expiration - purchase,
 * rounded to a standard period): its purchase covers 30 days (x1), its renewal 61 days (2 months, x1/2). In micros.
 */
const PRICE_MICROS = Math.round(PRODUCTS[0]!.price * 1_000_000);
const MRR_MICROS = { purchase: PRICE_MICROS, renewal: PRICE_MICROS / 2 } as const;
const TARGET_SKILL_P95_MS = 2_000;
const TARGET_B_P95_MS = 5_000;
const TARGET_RESTART_MS = 10_000;

const log = (msg: string) => process.stderr.write(`[bench] soak: ${msg}\n`);

export async function benchSoak(stack: BenchStack): Promise<BenchOutcome> {
  const dbName = 'bench_soak';
  const store = await connectStore(stack.mongoUri, dbName, 'bench-soak');
  await store.db.dropDatabase();
  const port = await freePort();
  const healthAddress = `127.0.0.1:${await freePort()}`;
  const logFile = join(stack.dataDir, 'soak-services.log');
  const out = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: 'soak',
    MONGODB_URI: stack.mongoUri,
    MONGODB_DB: dbName,
    JWT_SECRET: benchJwtSecret(),
    ...benchProductionEnv,
    SKILL_INVOCATIONS_PER_MINUTE: '1000000',
    WORKER_HEALTH_ADDRESS: healthAddress,
    WORKFLOW_BUNDLE_PATH: stack.workflowBundlePath,
  };
  const said: string[] = [];
  const say = (m: string) => {
    said.push(m);
    log(m);
  };
  const root = join(__dirname, '..', '..');
  const workerNode = process.env.SOAK_WORKER_NODE || process.execPath;
  const api = new Supervised({
    name: 'api',
    command: process.execPath,
    args: [join(root, 'dist/src/api/server.js')],
    env,
    say,
    stdio: out,
  });
  // SOAK_WORKERS: the worker processes, by role: 'skills|billing' (the default: one process each, as npm run dev runs
  // them, billing under nice SOAK_BILLING_NICE, 5) or 'skills,billing' (one process). The kill goes to the billing one.
  const groups = (process.env.SOAK_WORKERS || 'skills|billing').split('|');
  const healths = [healthAddress, ...(await Promise.all(groups.slice(1).map(async () => `127.0.0.1:${await freePort()}`)))];
  const workers = groups.map((roles, i) => {
    const health = healths[i]!;
    return {
      roles,
      health,
      proc: new Supervised({
        name: groups.length > 1 ? `worker(${roles})` : 'worker',
        ...niced(roles === 'billing' ? (process.env.SOAK_BILLING_NICE ?? '5') : undefined, workerNode, [join(root, 'dist/src/worker.js')]),
        env: { ...env, WORKER_ROLES: roles, WORKER_HEALTH_ADDRESS: health },
        say,
        stdio: out,
        liveness: { url: `http://${health}/healthz` },
        // As the dev stack runs it (scripts/dev.ts): a standby beside each worker, serving when it exits.
        ...(STANDBY ? { standby: { env: { WORKER_STANDBY: 'true' } } } : {}),
      }),
    };
  });
  const billingWorker = workers.find((w) => w.roles.includes('billing'))!;
  const worker = billingWorker.proc;
  const hogs: ChildProcess[] = [];
  const agent = keepAliveAgent(BURST_CONNECTIONS + 4);
  const base = `http://127.0.0.1:${port}`;
  try {
    api.start();
    for (const w of workers) w.proc.start();
    await until(() => get(`${base}/readyz`).then((s) => s === 200), 90_000, 'the API to be ready');
    for (const w of workers) await until(() => get(`http://${w.health}/healthz`).then((s) => s === 200), 90_000, 'the worker to be live');

    const apps = new AppRepository(store.db);
    const authA = (await apps.create('soak-a', 'Soak A', new Date()))!.authorization;
    const authB = (await apps.create('soak-b', 'Soak B', new Date()))!.authorization;
    const demo = loadDemo();
    const projects = new ProjectRepository(store.db);
    await projects.upsertOrg(demo.org.id, { name: demo.org.name, ownerEmail: demo.org.ownerEmail }, new Date());
    await projects.upsertProject(demo.project.id, { name: demo.project.name, org: demo.org.id }, new Date());
    await new DocumentRepository(store.db, new WholeKindCache()).upsertMany(demo.project.id, demo.documents, new Date());
    const subscribers = store.db.collection<SubscriberRecord>(COLLECTIONS.subscribers);
    const token = benchToken(
      { projects: [demo.project.id], apps: ['soak-a', 'soak-b'] },
      { issuer: benchProductionEnv.JWT_ISSUER, audience: benchProductionEnv.JWT_AUDIENCE },
    );
    const skill = DEMO_CASES[0]!;

    let bCount = 0;
    /** What each probe during the soak did, for the breakdown from histories. */
    const bTrace: { user: string; eventId: string; ackAt: number; visibleAt: number }[] = [];
    const skillTrace: { workflowId: string; postAt: number; doneAt: number }[] = [];
    let tracing = false;
    /** One purchase on app B: acknowledged → its subscriber's record shows it (ms), or the deadline. */
    const probeB = async (): Promise<number> => {
      const n = bCount++;
      const user = `b-u${n}`;
      const at = Date.now();
      const event = providerEvent('INITIAL_PURCHASE', user, { id: `b-e${n}`, at, purchasedAt: at, expiresAt: at + 30 * DAY });
      const res = await send(agent, `${base}${APP_WEBHOOK_PATH}?app=soak-b`, 'POST', envelope(event), { Authorization: authB });
      if (res.status !== 200) throw new Error(`app B's webhook answered ${res.status}: ${res.text.slice(0, 200)}`);
      const acked = nowMs();
      const key = subscriberKey(appScope('soak-b'), user);
      while (nowMs() - acked < B_DEADLINE_MS) {
        const r = await subscribers.findOne({ _id: key }, { projection: { 'view.lastEvent': 1 } });
        if (r?.view.lastEvent?.id === event.id) {
          if (tracing) bTrace.push({ user, eventId: event.id, ackAt: acked, visibleAt: nowMs() });
          return nowMs() - acked;
        }
        await sleep(50);
      }
      return B_DEADLINE_MS;
    };
    /** One skill invocation with Prefer: wait=30: POST → its completed record (ms); 30 s+ when it was not done. */
    const probeSkill = async (): Promise<number> => {
      const t = nowMs();
      const res = await send(agent, `${base}/v1/agents/${demo.project.id}/skills/${skill.skill}`, 'POST', JSON.stringify(skill.inputs), {
        Authorization: `Bearer ${token}`,
        Prefer: 'wait=30',
      });
      const took = nowMs() - t;
      const body = JSON.parse(res.text) as { status?: string; workflowId?: string };
      const status = body.status;
      if (tracing && body.workflowId) skillTrace.push({ workflowId: body.workflowId, postAt: t, doneAt: t + took });
      if (res.status === 200 && status === 'completed') return took;
      if (res.status === 202) return Math.max(took, 30_000);
      throw new Error(`the skill invocation answered ${res.status} (${status}): ${res.text.slice(0, 300)}`);
    };

    log(`baseline: ${BASELINE_SAMPLES} skill invocations and app B purchases on the quiet stack`);
    const quietSkill: number[] = [];
    const quietB: number[] = [];
    for (let i = 0; i < BASELINE_SAMPLES; i++) {
      quietSkill.push(await probeSkill());
      quietB.push(await probeB());
    }

    log(`soak: ${SUBSCRIBERS} subscribers on app A, ${HOGS} CPU hogs, ${MINUTES} min; worker on Node ${nodeVersion(workerNode)}`);
    for (let i = 0; i < HOGS; i++) hogs.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    tracing = true;
    const soakStart = nowMs();
    const soakEnd = soakStart + MINUTES * 60_000;
    const acked = { purchase: 0, renewal: 0 };
    const refused: string[] = [];
    /** The last event each A subscriber was sent and acknowledged: what its record must show at the end. */
    const lastAcked = new Map<number, string>();
    /** The A subscribers whose purchase was acknowledged: each is active at the end, the totals' model. */
    const purchased = new Set<number>();
    const burst = async (kind: 'purchase' | 'renewal') => {
      let next = 0;
      const one = async () => {
        for (let i = next++; i < SUBSCRIBERS; i = next++) {
          const user = `a-u${i}`;
          const at = Date.now();
          const id = `a-${kind}-${i}`;
          const event =
            kind === 'purchase'
              ? providerEvent('INITIAL_PURCHASE', user, { id, at, purchasedAt: at, expiresAt: at + 30 * DAY })
              : providerEvent('RENEWAL', user, { id, at, purchasedAt: at, expiresAt: at + 61 * DAY });
          const res = await send(agent, `${base}${APP_WEBHOOK_PATH}?app=soak-a`, 'POST', envelope(event), { Authorization: authA }).catch(
            (err: unknown) => ({ status: 0, text: String(err) }),
          );
          if (res.status === 200) {
            acked[kind] += 1;
            lastAcked.set(i, id);
            if (kind === 'purchase') purchased.add(i);
          } else refused.push(`${res.status} ${res.text.slice(0, 120)}`);
        }
      };
      const t = nowMs();
      await Promise.all(Array.from({ length: BURST_CONNECTIONS }, one));
      log(`${kind} burst acknowledged: ${acked[kind]} of ${SUBSCRIBERS} in ${((nowMs() - t) / 1000).toFixed(1)} s`);
    };
    const bursts = (async () => {
      await burst('purchase');
      await sleepUntil(soakStart + (soakEnd - soakStart) / 2);
      await burst('renewal');
    })();

    // Backpressure as the API reports it, every 10 s, and the machine's 1-minute load average beside it (the soak's
    // own processes and hogs included: on 2 cores, 2 hogs alone make 2).
    const readiness: { atS: number; status: string; relayLag: number; billingAge: number | null; billingTasks: number | null }[] = [];
    const loads: number[] = [];
    const watchReady = (async () => {
      while (nowMs() < soakEnd) {
        loads.push(loadavg()[0]!);
        const r = await send(agent, `${base}/readyz`, 'GET').catch(() => null);
        if (r?.status === 200) {
          const b = (
            JSON.parse(r.text) as {
              backlog: {
                status: string;
                relay: { lagSeconds: number };
                queues: Record<string, { tasks: number; ageSeconds: number } | null>;
              };
            }
          ).backlog;
          readiness.push({
            atS: Math.round((nowMs() - soakStart) / 1000),
            status: b.status,
            relayLag: b.relay.lagSeconds,
            billingAge: b.queues.billing?.ageSeconds ?? null,
            billingTasks: b.queues.billing?.tasks ?? null,
          });
        }
        await sleep(10_000);
      }
    })();

    // The kill: SIGKILL to the worker at 40% of the soak; back = its health endpoint answers 200 again. Probes
    // that were under way then are reported apart: they wait for the worker by design.
    const killWindow = { from: Number.NaN, to: Number.NaN };
    const kill = (async () => {
      await sleepUntil(soakStart + (soakEnd - soakStart) * 0.4);
      const pid = worker.pid;
      if (pid === undefined) return { backMs: Number.NaN, startedMs: Number.NaN, note: 'no worker process to kill' };
      const restarted = worker.nextStart();
      const t = nowMs();
      killWindow.from = t;
      process.kill(pid, 'SIGKILL');
      say(`killed the worker (pid ${pid}) with SIGKILL`);
      await restarted;
      const startedMs = nowMs() - t;
      await until(() => get(`http://${billingWorker.health}/healthz`).then((s) => s === 200), 120_000, 'the restarted worker to be live');
      killWindow.to = nowMs();
      return { backMs: nowMs() - t, startedMs, note: `restarted after ${ms(startedMs)}` };
    })();

    const duringSkill: { at: number; ms: number }[] = [];
    const duringB: { at: number; ms: number }[] = [];
    const probes = (async () => {
      while (nowMs() < soakEnd) {
        const t = nowMs();
        const [s, b] = await Promise.all([probeSkill(), probeB()]);
        duringSkill.push({ at: t, ms: s });
        duringB.push({ at: t, ms: b });
        await sleep(Math.max(0, PROBE_EVERY_MS - (nowMs() - t)));
      }
    })();

    const [killed] = await Promise.all([kill, bursts, probes, watchReady]);
    for (const h of hogs) h.kill('SIGKILL');
    hogs.length = 0;
    log('soak over; hogs stopped; waiting for every acknowledged event to be applied');

    // Nothing lost: every A subscriber's record shows the last event it was sent and acknowledged, and then app A's
    // totals (GET /v1/billing/metrics, the totals workflow's) equal the model: every purchaser active at the monthly
    // price. Both are polled until the drain's deadline; when they hold is the burst's time to be fully applied.
    const drainStart = nowMs();
    const drainEnd = drainStart + DRAIN_DEADLINE_MS;
    let missing = lastAcked.size;
    let appliedAt = Number.NaN;
    while (nowMs() < drainEnd) {
      missing = 0;
      const entries = [...lastAcked.entries()];
      for (let i = 0; i < entries.length; i += 1_000) {
        const chunk = entries.slice(i, i + 1_000);
        const found = await subscribers
          .find({ _id: { $in: chunk.map(([n]) => subscriberKey(appScope('soak-a'), `a-u${n}`)) } }, { projection: { 'view.lastEvent': 1 } })
          .toArray();
        const shows = new Map(found.map((r) => [r._id, r.view.lastEvent?.id]));
        for (const [n, id] of chunk) if (shows.get(subscriberKey(appScope('soak-a'), `a-u${n}`)) !== id) missing += 1;
      }
      if (missing === 0) {
        appliedAt = nowMs();
        break;
      }
      await sleep(5_000);
    }
    const modelMicros = [...lastAcked.values()].reduce(
      (sum, id) => sum + MRR_MICROS[id.startsWith('a-renewal-') ? 'renewal' : 'purchase'],
      0,
    );
    const model = { activeSubscriptions: purchased.size, mrrCents: modelMicros / 10_000 };
    let totals: { activeSubscriptions: number; mrrCents: number } | null = null;
    let totalsAt = Number.NaN;
    while (Number.isFinite(appliedAt) && nowMs() < drainEnd) {
      const r = await send(agent, `${base}/v1/billing/metrics?app=soak-a`, 'GET', undefined, { Authorization: `Bearer ${token}` }).catch(
        () => null,
      );
      if (r?.status === 200) {
        const m = JSON.parse(r.text) as { activeSubscriptions: number; mrr: { amount: number } };
        totals = { activeSubscriptions: m.activeSubscriptions, mrrCents: m.mrr.amount * 100 };
        // The API answers in dollars and cents: within a cent of the model.
        if (totals.activeSubscriptions === model.activeSubscriptions && Math.abs(totals.mrrCents - model.mrrCents) < 1) {
          totalsAt = nowMs();
          break;
        }
      }
      await sleep(1_000);
    }
    const drainMs = nowMs() - drainStart;
    const totalsMatch = Number.isFinite(totalsAt);
    if (!totalsMatch) {
      // Say where the totals part from the model: the records, the deltas sent, or the deltas received.
      const connection = await Connection.connect({ address: stack.temporalAddress });
      try {
        const expectedMicros = new Map(
          [...lastAcked].map(([n, id]) => [`a-u${n}`, MRR_MICROS[id.startsWith('a-renewal-') ? 'renewal' : 'purchase']]),
        );
        const running = await store.db
          .collection<{ _id: string; mrrMicros: number }>(COLLECTIONS.billingMetrics)
          .findOne({ _id: appScope('soak-a') });
        for (const line of await auditTotals({
          client: new Client({ connection, namespace: 'default' }),
          subscribers,
          scope: appScope('soak-a'),
          expectedMicros,
          runningMicros: running?.mrrMicros ?? null,
          sample: Number(process.env.SOAK_AUDIT_SAMPLE ?? 400),
        }))
          say(line);
      } finally {
        await connection.close();
      }
    }
    const parked = await store.db.collection(COLLECTIONS.deadLetters).countDocuments({});
    const crashes = workers.reduce((n, w) => n + w.proc.restartCount, 0) - 1; // the kill accounts for one restart
    const apiRestarts = api.restartCount;
    const logText = readFileSync(logFile, 'utf8');
    const corrupted = (logText.match(/async hook stack has become corrupted/g) ?? []).length;
    const timedOut = (logText.match(/Script execution timed out/g) ?? []).length;
    const slowTasks = (logText.match(/TMPRL1104/g) ?? []).length;

    const stages = await breakdown(stack.temporalAddress, bTrace, skillTrace);
    const qs = summarize(quietSkill);
    const qb = summarize(quietB);
    const inKill = (p: { at: number; ms: number }) => p.at + p.ms >= killWindow.from && p.at <= killWindow.to;
    const ds = summarize(duringSkill.filter((p) => !inKill(p)).map((p) => p.ms));
    const db = summarize(duringB.filter((p) => !inKill(p)).map((p) => p.ms));
    const dsAll = summarize(duringSkill.map((p) => p.ms));
    const dbAll = summarize(duringB.map((p) => p.ms));
    const load = summarize(loads);
    const maxOf = (f: (r: (typeof readiness)[number]) => number | null) => Math.max(0, ...readiness.map((r) => f(r) ?? 0));
    const rows = [
      row(NAME, `worker exits other than the kill (${MINUTES} min, ${HOGS} hogs)`, 'count', crashes, { target: '0', met: crashes === 0 }),
      row(NAME, 'kill -9 of the worker -> started again', 'ms', killed.startedMs, {
        target: `<= ${TARGET_RESTART_MS / 1000} s`,
        met: killed.startedMs <= TARGET_RESTART_MS,
      }),
      row(NAME, 'kill -9 of the worker -> serving again (live)', 'ms', killed.backMs, {
        target: `<= ${TARGET_RESTART_MS / 1000} s`,
        met: killed.backMs <= TARGET_RESTART_MS,
      }),
      row(NAME, 'p95 skill invocation, Prefer: wait=30 (kill window apart)', 'ms', ds.p95, {
        baseline: qs.p95,
        target: `< ${TARGET_SKILL_P95_MS} ms`,
        met: ds.p95 < TARGET_SKILL_P95_MS,
      }),
      row(NAME, "p95 app B's purchase ack -> applied (kill window apart)", 'ms', db.p95, {
        baseline: qb.p95,
        target: `< ${TARGET_B_P95_MS} ms`,
        met: db.p95 < TARGET_B_P95_MS,
      }),
      row(NAME, "app A's acknowledged events not applied at the end", 'count', missing, {
        target: '0',
        met: missing === 0 && parked === 0,
      }),
      row(NAME, "burst fully applied (every A event, A's totals = the model), from the soak's start", 'ms', totalsAt - soakStart, {
        target: `by the drain's deadline (${DRAIN_DEADLINE_MS / 60_000} min after the soak)`,
        met: totalsMatch,
      }),
    ];
    const notes = [
      `Soak: ${SUBSCRIBERS} new subscribers on app A (${acked.purchase} purchases acknowledged), their renewals from minute ${(MINUTES / 2).toFixed(1)} (${acked.renewal} acknowledged; ${refused.length} refused${refused[0] ? `, e.g. ${refused[0]}` : ''}), ${HOGS} CPU hogs, ${MINUTES} min; the API and ${groups.map((g) => `a worker (${g})`).join(' and ')} as separate supervised processes (workers on Node ${nodeVersion(workerNode)}; ${process.env.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS ?? 'default'} workflow task slots per role).`,
      `  probes during the burst, the ${dsAll.n - ds.n} under way while the killed worker was down left out: ${ds.n} skill invocations p50 ${ms(ds.p50)} p95 ${ms(ds.p95)} max ${ms(ds.max)} (quiet: p50 ${ms(qs.p50)} p95 ${ms(qs.p95)}); ${db.n} app B purchases p50 ${ms(db.p50)} p95 ${ms(db.p95)} max ${ms(db.max)} (quiet: p50 ${ms(qb.p50)} p95 ${ms(qb.p95)})`,
      `  all probes, those included: skill p95 ${ms(dsAll.p95)} max ${ms(dsAll.max)}; app B p95 ${ms(dbAll.p95)} max ${ms(dbAll.max)}`,
      `  kill -9 at 40%: ${killed.note}, live after ${ms(killed.backMs)}; worker restarts in all ${workers.reduce((n, w) => n + w.proc.restartCount, 0)}, API restarts ${apiRestarts}; in the services' log: ${corrupted} 'async hook stack has become corrupted', ${timedOut} 'Script execution timed out', ${slowTasks} TMPRL1104`,
      `  1-min load average during the soak (every 10 s): min ${Math.min(...loads).toFixed(1)} p50 ${load.p50.toFixed(1)} max ${load.max.toFixed(1)}`,
      `  drain: every acknowledged A event applied ${Number.isFinite(appliedAt) ? `${ms(appliedAt - drainStart)} after the soak (${ms(appliedAt - soakStart)} after its start)` : `not within ${ms(DRAIN_DEADLINE_MS)} after the soak: ${missing} of ${lastAcked.size} subscribers not showing their last event`}; app A's totals ${totalsMatch ? `equal the model (${model.activeSubscriptions} active, MRR ${(model.mrrCents / 100).toFixed(2)}) ${ms(totalsAt - drainStart)} after the soak (${ms(totalsAt - soakStart)} after its start)` : `not equal to the model (${model.activeSubscriptions} active, MRR ${(model.mrrCents / 100).toFixed(2)}) by the deadline: last read ${totals ? `${totals.activeSubscriptions} active, MRR ${(totals.mrrCents / 100).toFixed(2)}` : 'none'}`}; waited ${ms(drainMs)} in all`,
      `  dead letters ${parked}; /readyz backlog: max relay lag ${maxOf((r) => r.relayLag)} s, max billing queue ${maxOf((r) => r.billingTasks)} tasks / ${maxOf((r) => r.billingAge).toFixed(1)} s old, 'lagging' in ${readiness.filter((r) => r.status === 'lagging').length} of ${readiness.length} readings`,
      '  where the probes waited during the soak (p50 / p95 from each workflow history; server and client clocks are one machine):',
      ...Object.entries(stages).map(([k, v]) => `    ${k.padEnd(58)} ${ms(v.p50).padStart(9)} ${ms(v.p95).padStart(9)}   (n ${v.n})`),
      ...said.map((m) => `  supervisor: ${m}`),
    ];
    return {
      name: NAME,
      rows,
      notes,
      details: {
        minutes: MINUTES,
        subscribers: SUBSCRIBERS,
        hogs: HOGS,
        workers: groups,
        quietSkill: qs,
        quietB: qb,
        duringSkill: ds,
        duringB: db,
        killed,
        crashes,
        missing,
        parked,
        drain: { appliedAfterSoakMs: appliedAt - drainStart, totalsAfterSoakMs: totalsAt - drainStart, model, totals },
        readiness,
        loadAverage: load,
        said,
      },
    };
  } finally {
    for (const h of hogs) h.kill('SIGKILL');
    agent.destroy();
    for (const w of workers) await w.proc.stop();
    await api.stop();
    closeSync(out);
    await store.db.dropDatabase().catch(() => undefined);
    await store.close();
  }
}

/** The probes' stages from their workflow histories: relay, queue, worker, for B; queue and run, for skills. */
async function breakdown(
  address: string,
  b: { user: string; eventId: string; ackAt: number; visibleAt: number }[],
  skills: { workflowId: string; postAt: number; doneAt: number }[],
): Promise<Record<string, Summary>> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const stages: Record<string, number[]> = {
    'B: ack -> signal recorded (the relay)': [],
    'B: signal -> its workflow task started (billing queue)': [],
    'B: task started -> completed (the worker)': [],
    'B: task completed -> seen in the store': [],
    'skill: POST -> workflow started (the API: checks, record, start)': [],
    'skill: workflow started -> its task started (skills queue)': [],
    'skill: first task started -> workflow completed (the worker)': [],
    'skill: completed -> answer received (API, Prefer: wait)': [],
  };
  const first = (h: HistoryEvent[], type: string, after = 0) => h.find((e) => e.id > after && e.type === type);
  try {
    for (const t of b) {
      const h = await loadHistory(client, workflowIdFor(appScope('soak-b'), t.user)).catch(() => []);
      const signal = first(h, 'WORKFLOW_EXECUTION_SIGNALED');
      const started = signal && first(h, 'WORKFLOW_TASK_STARTED', signal.id);
      const done = started && first(h, 'WORKFLOW_TASK_COMPLETED', started.id);
      if (!signal || !started || !done) continue;
      stages['B: ack -> signal recorded (the relay)']!.push(signal.at - t.ackAt);
      stages['B: signal -> its workflow task started (billing queue)']!.push(started.at - signal.at);
      stages['B: task started -> completed (the worker)']!.push(done.at - started.at);
      stages['B: task completed -> seen in the store']!.push(t.visibleAt - done.at);
    }
    for (const t of skills) {
      const h = await loadHistory(client, t.workflowId).catch(() => []);
      const begun = first(h, 'WORKFLOW_EXECUTION_STARTED');
      const started = first(h, 'WORKFLOW_TASK_STARTED');
      const completed = first(h, 'WORKFLOW_EXECUTION_COMPLETED');
      if (!begun || !started || !completed) continue;
      stages['skill: POST -> workflow started (the API: checks, record, start)']!.push(begun.at - t.postAt);
      stages['skill: workflow started -> its task started (skills queue)']!.push(started.at - begun.at);
      stages['skill: first task started -> workflow completed (the worker)']!.push(completed.at - started.at);
      stages['skill: completed -> answer received (API, Prefer: wait)']!.push(t.doneAt - completed.at);
    }
  } finally {
    await connection.close();
  }
  return Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, summarize(v)]));
}

async function get(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

async function until(check: () => Promise<boolean>, deadlineMs: number, what: string): Promise<void> {
  const end = nowMs() + deadlineMs;
  while (nowMs() < end) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function sleepUntil(t: number): Promise<void> {
  await sleep(Math.max(0, t - nowMs()));
}

/** The command for a worker process, under `nice -n N` when N is given (a billing-only worker's lower priority). */
function niced(n: string | undefined, command: string, args: string[]): { command: string; args: string[] } {
  return n ? { command: 'nice', args: ['-n', n, command, ...args] } : { command, args };
}

function nodeVersion(bin: string): string {
  if (bin === process.execPath) return process.versions.node;
  return spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() || bin;
}
