/**
 * Fault injection (issue 9): a seeded burst of provider events, with redeliveries and in shuffled order, over
 * both receivers of two API processes served by two worker processes, while the suite SIGKILLs and restarts an
 * API instance, a worker, the Temporal server (persistent SQLite, same port) and the store (same data, same
 * port), each mid-burst. The sender behaves like the provider: anything but a 200 is retried later, bounded.
 *
 * Afterwards, polled until settled: every acknowledged event applied exactly once, each customer equal to the
 * pure reducer's model of the same events, the running totals equal to billing-check's recomputation and to
 * the model's, one email per operator billing issue, no dead letters. Reproduce a run with FAULTS_SEED.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { MongoClient, type Db } from 'mongodb';
import { ZERO_TOTALS, type BillingTotals } from '../../src/billing/metrics';
import type { BillingEvent } from '../../src/billing/provider-events';
import { appScope, type BillingScope } from '../../src/billing/subscriber-id';
import { createRepositories } from '../../src/store/repositories';
import { COLLECTIONS } from '../../src/store/collections';
import { MailOutbox } from '../../src/store/mail-outbox';
import { ProjectRepository } from '../../src/store/projects';
import type { SubscriberRecord } from '../../src/store/subscribers';
import { canonicalView } from '../../src/billing/canonical-view';
import { subscriberStateQuery } from '../../src/contracts/workflows/billing-subscriber';
import { viewDiff } from './model';
import { randomSuffix, TEST_JWT_SECRET, TEST_OPERATOR_AUTHORIZATION } from '../support/config';
import { startSmtpServer, type ReceivedMail } from '../support/smtp';
import { adminToken } from '../support/tokens';
import { Cluster } from './cluster';
import { generateTraffic, type Delivery, type Traffic } from './generator';
import { checkScope, totalsDiff } from './model';

const SEED = Number(process.env.FAULTS_SEED ?? 0x5eed09);
const TARGET_EVENTS = Number(process.env.FAULTS_EVENTS ?? 2000);
/** The burst is paced over this long, so that every kill lands in the middle of it. */
const BURST_MS = Number(process.env.FAULTS_BURST_SECONDS ?? 60) * 1000;
const SETTLE_DEADLINE_MS = 180_000;
/** Temporal suggests continue-as-new after this many history events: low, so runs continue as new under faults. */
const CONTINUE_AS_NEW_AFTER = Number(process.env.FAULTS_CONTINUE_AS_NEW_AFTER ?? 200);
const CONCURRENCY = 24;
/** The provider's retries, compressed: backoff from 250 ms to 5 s, giving up after this many attempts. */
const MAX_ATTEMPTS = 40;
/** Share of deliveries started when each fault is injected. */
const FAULTS: [number, string][] = [
  [0.1, 'api-1'],
  [0.22, 'worker-1'],
  [0.36, 'temporal'],
  [0.52, 'store'],
  [0.66, 'worker-2'],
  [0.78, 'api-2'],
];
/** How long a killed server stays down before its restart (the length of the outage being injected). */
const OUTAGE_MS = { temporal: 6_000, store: 8_000 };
const DEAD_LETTERS = 'dead_letters';

const log = (line: string) => process.stdout.write(`[faults] ${line}\n`);
const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface SendStats {
  started: number;
  attempts: number;
  acked: Set<string>;
  duplicateAnswers: number;
  /** Answers `"duplicate": false` per event: two mean the inbox lost an insert it had acknowledged. */
  freshAnswers: Map<string, number>;
  failures: Map<string, number>;
  gaveUp: Delivery[];
  /** Deliveries started when each fault was injected, and how long the component took to come back. */
  faults: { what: string; atDelivery: number; downMs: number }[];
}

describe('billing under faults: kills of an API, a worker, Temporal and the store mid-burst (real processes)', function () {
  this.timeout(600_000);
  const runId = `f${randomSuffix()}`;
  const APP = `faults-${runId}`;
  const scope = appScope(APP);
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-faults-'));
  let cluster: Cluster;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let mongo: MongoClient;
  let passed = false;

  before(async () => {
    process.env.TEST_DATA_DIR ??= dataDir;
    smtp = await startSmtpServer();
    cluster = new Cluster({
      dataDir,
      dbName: `faults_${runId}`,
      taskQueue: `faults-${runId}`,
      smtpUrl: smtp.url,
      continueAsNewAfter: CONTINUE_AS_NEW_AFTER,
    });
    await cluster.start();
    mongo = new MongoClient(cluster.mongoUri, { serverSelectionTimeoutMS: 5_000 });
  });

  after(async () => {
    if (!passed && cluster) log(`process logs (data in ${dataDir}):\n${cluster.logTails()}`);
    await mongo?.close().catch(() => undefined);
    await cluster?.stop();
    await smtp?.close();
    if (process.env.FAULTS_KEEP_DATA !== '1') rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies every acknowledged event exactly once and matches the reducer’s model', async () => {
    const t0 = Date.now();
    const admin = adminToken();
    const api = (i: number) => cluster.apiUrl(i);
    const created = await fetch(`${api(0)}/v1/apps`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ slug: APP, name: 'Faults' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const appAuthorization = ((await created.json()) as { authorization: string }).authorization;
    const orgIds = Array.from({ length: 40 }, (_, i) => `${runId}-org${i}`);
    const owners = new Map(orgIds.map((org) => [org, `owner-${org}@example.com`]));
    for (const org of orgIds) {
      const res = await fetch(`${api(1)}/v1/orgs/${org}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Org ${org}`, ownerEmail: owners.get(org) }),
      });
      assert.equal(res.status, 201, await res.text());
    }

    const traffic = generateTraffic({ seed: SEED, targetEvents: TARGET_EVENTS, runId, orgIds });
    log(
      `seed ${SEED}: ${traffic.events.app.length + traffic.events.operator.length} events, ${traffic.deliveries.length} deliveries, run ${runId}, data ${dataDir}`,
    );

    // ---- the burst, with the faults injected as it goes
    const stats: SendStats = {
      started: 0,
      attempts: 0,
      acked: new Set(),
      duplicateAnswers: 0,
      freshAnswers: new Map(),
      failures: new Map(),
      gaveUp: [],
      faults: [],
    };
    const burstStart = Date.now();
    await Promise.all([sendAll(traffic.deliveries, stats, api, appAuthorization, APP), injectFaults(stats, traffic.deliveries.length)]);
    const burstMs = Date.now() - burstStart;
    log(
      `burst over in ${(burstMs / 1000).toFixed(1)} s: ${stats.acked.size} events acknowledged, ${stats.gaveUp.length} given up; faults: ${stats.faults.map((f) => `${f.what}@${f.atDelivery} (back in ${(f.downMs / 1000).toFixed(1)} s)`).join(', ')}`,
    );
    for (const f of stats.faults) assert.ok(f.atDelivery < traffic.deliveries.length, `${f.what} was killed mid-burst`);
    // An event stored twice as new: the store lost an insert after the webhook had answered 200 for it.
    const lostInserts = [...stats.freshAnswers].filter(([, n]) => n > 1).map(([key]) => key);
    assert.deepEqual(lostInserts, [], 'acknowledged events the inbox lost (a later delivery was stored as new)');

    // ---- settle: poll the whole check until it passes twice in a row on unchanged data, or the deadline
    const settleStart = Date.now();
    const db = mongo.db(`faults_${runId}`);
    let result: CheckResult | null = null;
    let previous: CheckResult | null = null;
    let polls = 0;
    const deadline = settleStart + SETTLE_DEADLINE_MS;
    for (;;) {
      polls += 1;
      try {
        result = await fullCheck(db, traffic, stats, scope, smtp.mails, owners);
      } catch (err) {
        result = { problems: [`check failed: ${String(err)}`], fingerprint: '', figures: null };
      }
      if (process.env.FAULTS_VERBOSE === '1')
        log(
          `settling, poll ${polls} at ${((Date.now() - settleStart) / 1000).toFixed(1)} s: ${result.problems.length} problems${result.problems.length ? `, e.g. ${result.problems.slice(0, 3).join(' | ')}` : ''}`,
        );
      if (result.problems.length === 0 && previous?.problems.length === 0 && previous.fingerprint === result.fingerprint) break;
      if (Date.now() > deadline) break;
      previous = result;
      await delay(2_000);
    }
    const settleMs = Date.now() - settleStart;
    if (result.problems.length > 0) {
      const shown = result.problems.slice(0, 25);
      assert.fail(
        `not settled after ${(settleMs / 1000).toFixed(0)} s (${polls} polls): ${result.problems.length} problems (seed ${SEED}):\n  - ${shown.join('\n  - ')}${result.problems.length > shown.length ? `\n  … and ${result.problems.length - shown.length} more` : ''}`,
      );
    }

    // ---- each workflow's own state (the `state` query) is what its stored record shows
    const connection = await Connection.connect({ address: cluster.temporalAddress });
    const queried = await queryStates(new Client({ connection }), db, [scope, 'operator']).finally(() => connection.close());
    assert.deepEqual(queried.problems, [], `workflow state and stored record differ:\n  - ${queried.problems.slice(0, 25).join('\n  - ')}`);

    // ---- billing-check, the operators' own command, must agree too
    for (const s of [scope, 'operator'] as const) {
      const out = spawnSync(process.execPath, [join(__dirname, '..', '..', 'src', 'cli.js'), 'billing-check', '--scope', s], {
        cwd: dataDir,
        encoding: 'utf8',
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          MONGODB_URI: cluster.mongoUri,
          MONGODB_DB: `faults_${runId}`,
          TEMPORAL_ADDRESS: cluster.temporalAddress,
          JWT_SECRET: TEST_JWT_SECRET,
        },
      });
      assert.equal(out.status, 0, `billing-check --scope ${s}:\n${out.stdout}${out.stderr}`);
    }

    const f = result.figures!;
    const sentEvents = traffic.events.app.length + traffic.events.operator.length;
    const failures = [...stats.failures].map(([k, v]) => `${k}×${v}`).join(', ') || 'none';
    const unplanned =
      Object.entries(cluster.unplannedExits())
        .map(([k, v]) => `${k}×${v}`)
        .join(', ') || 'none';
    log(
      [
        `──── figures (seed ${SEED}, run ${runId}) ────`,
        `events sent         ${sentEvents} distinct (app ${traffic.events.app.length}, operator ${traffic.events.operator.length}) in ${traffic.deliveries.length} deliveries, ${traffic.deliveries.length - sentEvents} of them redeliveries`,
        `HTTP attempts       ${stats.attempts}; not 200: ${failures}`,
        `acknowledged        ${stats.acked.size} events; answered "duplicate": ${stats.duplicateAnswers}; given up: ${stats.gaveUp.length}`,
        `applied             ${f.applied} events, each exactly once (app ${f.appApplied}, operator ${f.operatorApplied})`,
        `customers           app: ${f.appCanonical} canonical + ${f.appMerged} merged records (${traffic.figures.anonymousPairs} anonymous→known pairs, ${traffic.figures.transferPairs} transfer pairs, ${traffic.figures.aliasGraphs} alias graphs with cycles, ${traffic.figures.pastSubscribers} with past periods); operator: ${f.operatorCanonical} orgs`,
        `totals              app MRR $${(f.appTotals.mrrMicros / 1e6).toFixed(2)}, ${f.appTotals.activeSubscriptions} active, ${f.appTotals.flaggedCustomers} flagged; operator MRR $${(f.operatorTotals.mrrMicros / 1e6).toFixed(2)}: running = recomputed = model`,
        `emails              ${f.emails} for ${f.expectedEmails} operator billing issues (${f.mailCopies} copies resent after a crash; ${smtp.errors.length} SMTP connections reset mid-mail)`,
        `dead letters        0`,
        `workflows queried   ${queried.count} subscriber workflows: state query = stored record`,
        `kills survived      ${cluster.kills.length}: ${cluster.kills.join(', ')}; unplanned restarts: ${unplanned}; both killed API instances' relay checkpoints recovered`,
        `wall time           ${((Date.now() - t0) / 1000).toFixed(0)} s (burst ${(burstMs / 1000).toFixed(0)} s, settled ${(settleMs / 1000).toFixed(0)} s after it, ${polls} polls)`,
      ].join('\n[faults] '),
    );
    passed = true;
  });

  /** Paced over BURST_MS, CONCURRENCY at a time; each delivery retried like the provider until a 200. */
  async function sendAll(
    deliveries: Delivery[],
    stats: SendStats,
    api: (i: number) => string,
    appAuthorization: string,
    app: string,
  ): Promise<void> {
    const gap = BURST_MS / deliveries.length;
    const start = Date.now();
    const running = new Set<Promise<void>>();
    for (let i = 0; i < deliveries.length; i++) {
      const due = start + i * gap - Date.now();
      if (due > 0) await delay(due);
      while (running.size >= CONCURRENCY) await Promise.race(running);
      stats.started = i + 1;
      const p = deliver(deliveries[i]!, i).finally(() => running.delete(p));
      running.add(p);
    }
    await Promise.all(running);

    async function deliver(d: Delivery, index: number): Promise<void> {
      const body = JSON.stringify({ api_version: '1.0', event: d.event });
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        // Behind a load balancer a retry may reach the other instance.
        const base = api((index + attempt) % 2);
        const url =
          d.scope === 'app' ? `${base}/api/saas/iap/billingprovider/webhook?app=${app}` : `${base}/api/billing/billingprovider/webhook`;
        const authorization = d.scope === 'app' ? appAuthorization : TEST_OPERATOR_AUTHORIZATION;
        stats.attempts += 1;
        let outcome: string;
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { Authorization: authorization, 'Content-Type': 'application/json' },
            body,
            signal: AbortSignal.timeout(30_000),
          });
          const text = await res.text();
          if (res.status === 200) {
            stats.acked.add(`${d.scope}|${d.event.id}`);
            const key = `${d.scope}|${d.event.id}`;
            if ((JSON.parse(text) as { duplicate?: boolean }).duplicate) stats.duplicateAnswers += 1;
            else stats.freshAnswers.set(key, (stats.freshAnswers.get(key) ?? 0) + 1);
            return;
          }
          outcome = String(res.status);
          if (res.status < 500 && res.status !== 429)
            throw new Error(`delivery of ${d.event.type} ${d.event.id} refused with ${res.status}: ${text.slice(0, 300)}`);
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('delivery of')) throw err;
          outcome = 'connection error';
        }
        stats.failures.set(outcome, (stats.failures.get(outcome) ?? 0) + 1);
        await delay(Math.min(5_000, 250 * 2 ** Math.min(attempt, 5)));
      }
      stats.gaveUp.push(d);
    }
  }

  async function injectFaults(stats: SendStats, total: number): Promise<void> {
    for (const [share, what] of FAULTS) {
      while (stats.started < share * total) await delay(100);
      const atDelivery = stats.started;
      const down = Date.now();
      if (what === 'temporal') await cluster.killAndRestartTemporal(OUTAGE_MS.temporal);
      else if (what === 'store') await cluster.killAndRestartStore(OUTAGE_MS.store);
      else await cluster.killAndRestart(what);
      stats.faults.push({ what, atDelivery, downMs: Date.now() - down });
    }
  }
});

/** Every subscriber workflow's `state` query against its stored record: same view, same version, same applied ids. */
async function queryStates(client: Client, db: Db, scopes: BillingScope[]): Promise<{ problems: string[]; count: number }> {
  const records = await db
    .collection<SubscriberRecord>(COLLECTIONS.subscribers)
    .find({ scope: { $in: scopes } })
    .toArray();
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const record = records[next++]!;
      try {
        const state = await client.workflow.getHandle(record.workflowId).query(subscriberStateQuery);
        const diff = viewDiff(canonicalView(state), record.view);
        if (state.version !== record.version) diff.push(`version: workflow ${state.version}, stored ${record.version}`);
        if (JSON.stringify(state.appliedEventIds) !== JSON.stringify(record.state?.appliedEventIds)) diff.push('appliedEventIds differ');
        if (diff.length > 0) problems.push(`${record._id}: ${diff.join('; ')}`);
      } catch (err) {
        problems.push(`${record._id}: state query failed: ${String(err)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { problems, count: records.length };
}

interface CheckResult {
  problems: string[];
  /** Changes while anything is still being applied: settled means the same fingerprint on two polls. */
  fingerprint: string;
  figures: {
    applied: number;
    appApplied: number;
    operatorApplied: number;
    appCanonical: number;
    appMerged: number;
    operatorCanonical: number;
    appTotals: BillingTotals;
    operatorTotals: BillingTotals;
    emails: number;
    /** Mails sent again after a crash between the send and its record (same Message-ID). */
    mailCopies: number;
    expectedEmails: number;
  } | null;
}

async function fullCheck(
  db: Db,
  traffic: Traffic,
  stats: SendStats,
  scope: BillingScope,
  mails: ReceivedMail[],
  owners: Map<string, string>,
): Promise<CheckResult> {
  const now = Date.now();
  const problems: string[] = [];
  const subscribers = db.collection<SubscriberRecord>(COLLECTIONS.subscribers);
  const split = (label: 'app' | 'operator', events: BillingEvent[]) => ({
    acked: events.filter((e) => stats.acked.has(`${label}|${e.id}`)),
    unsure: events.filter((e) => !stats.acked.has(`${label}|${e.id}`)),
  });
  const appEvents = split('app', traffic.events.app);
  const opEvents = split('operator', traffic.events.operator);
  const [appRecords, opRecords] = await Promise.all([
    subscribers.find({ scope }).toArray(),
    subscribers.find({ scope: 'operator' }).toArray(),
  ]);
  const app = checkScope(scope, appEvents.acked, appEvents.unsure, appRecords, now);
  const op = checkScope('operator', opEvents.acked, opEvents.unsure, opRecords, now);
  problems.push(...app.problems, ...op.problems);

  // Totals: the running totals (metrics workflow, by deltas) = billing-check's recomputation = the model's sum.
  const { billingTotals: totalsRepo, subscribers: subscriberRepo } = createRepositories(db);
  const seqs: number[] = [];
  const totalsOf: Record<string, BillingTotals> = {};
  for (const [s, model] of [
    [scope, app.modelTotals],
    ['operator', op.modelTotals],
  ] as const) {
    const running = await totalsRepo.stored(s);
    const recomputed = await subscriberRepo.sumContributions(s);
    seqs.push(running?.seq ?? 0);
    totalsOf[s] = recomputed.totals;
    problems.push(...totalsDiff(`${s} recomputed vs model`, model, recomputed.totals));
    problems.push(...totalsDiff(`${s} running vs recomputed`, recomputed.totals, running?.totals ?? { ...ZERO_TOTALS }));
  }

  // Operator entitlements land on the org records.
  const projects = new ProjectRepository(db);
  for (const [org, model] of op.modelStates) {
    const stored = await projects.getOrg(org);
    const expected = model.entitlements.map((e) => ({
      id: e.id,
      productId: e.productId,
      expiresAt: e.expiresAtMs === null ? null : new Date(e.expiresAtMs).toISOString(),
    }));
    const got = (stored?.entitlements ?? []).map((e) => ({ id: e.id, productId: e.productId, expiresAt: e.expiresAt }));
    if (JSON.stringify(got) !== JSON.stringify(expected))
      problems.push(`org ${org}: entitlements expected ${JSON.stringify(expected)}, stored ${JSON.stringify(got)}`);
  }

  // One email per operator billing issue, to the org's owner; none for anything else. Delivery is at least once:
  // a worker killed between the send and its record sends again after the claim's lease, with the same
  // Message-ID, so copies count as one mail (a recipient's client folds them the same way).
  const sentTo = new Map<string, string[]>();
  const seenMessageIds = new Set<string>();
  for (const m of mails) {
    const ref = /Reference: (\S+)/.exec(m.raw)?.[1];
    const messageId = /^Message-ID:\s*(\S+)/im.exec(m.raw)?.[1] ?? m.raw;
    if (!ref || seenMessageIds.has(messageId)) continue;
    seenMessageIds.add(messageId);
    sentTo.set(ref, [...(sentTo.get(ref) ?? []), ...m.to]);
  }
  // Every operator BILLING_ISSUE here comes after its subscription's last renewal (generator.ts), so each is mailed,
  // whatever the order: whether the mail goes out depends on the events alone, not on whether the flag still shows
  // at the end (it ends when the subscription expires, as a past subscriber's has by then).
  const expectedEmails = traffic.operatorBillingIssues;
  const outbox = new MailOutbox(db);
  const outboxStatus = new Map((await outbox.list(10_000)).map((r) => [r._id, r.status]));
  for (const id of expectedEmails) {
    const to = sentTo.get(id) ?? [];
    const org = traffic.events.operator.find((e) => e.id === id)!.app_user_id!;
    if (to.length !== 1)
      problems.push(
        `billing issue ${id} (${org}): ${to.length} emails (outbox: ${outboxStatus.get(`billing_issue:${id}`) ?? 'no record'})`,
      );
    else if (to[0] !== owners.get(org)) problems.push(`billing issue ${id}: mailed ${to[0]}, not the owner ${owners.get(org)}`);
  }
  const unexpected = [...sentTo.keys()].filter((id) => !expectedEmails.includes(id));
  if (unexpected.length > 0) problems.push(`emails nobody should have got: ${unexpected.join(', ')}`);

  // No dead letters: every event sent here is valid. (A missing collection counts 0.)
  for (const s of [scope, 'operator']) {
    const parked = await db.collection(DEAD_LETTERS).countDocuments({ scope: s });
    if (parked > 0)
      problems.push(
        `${parked} dead letters in ${s}: ${JSON.stringify(await db.collection(DEAD_LETTERS).find({ scope: s }).limit(3).toArray())}`,
      );
  }

  // Each killed API instance left a checkpoint; a live instance removes it once it has re-relayed what the dead
  // one accepted since. Two left means the recovery of both killed instances ran (only the live two remain).
  const checkpoints = await db.collection(COLLECTIONS.relayCheckpoints).find({}).toArray();
  if (checkpoints.length !== 2)
    problems.push(`${checkpoints.length} relay checkpoints, 2 expected (the live API instances): ${JSON.stringify(checkpoints)}`);

  const versions = [...appRecords, ...opRecords].reduce((sum, r) => sum + r.version, 0);
  return {
    problems,
    fingerprint: `${appRecords.length}/${opRecords.length}/${versions}/${seqs.join(',')}/${mails.length}`,
    figures: {
      applied: app.applied + op.applied,
      appApplied: app.applied,
      operatorApplied: op.applied,
      appCanonical: app.canonicalRecords,
      appMerged: app.mergedRecords,
      operatorCanonical: op.canonicalRecords,
      appTotals: totalsOf[scope]!,
      operatorTotals: totalsOf.operator!,
      emails: seenMessageIds.size,
      mailCopies: mails.length - seenMessageIds.size,
      expectedEmails: expectedEmails.length,
    },
  };
}
