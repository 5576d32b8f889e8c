/**
 * The console's data routes: scopes a token may see, daily trends from the kept snapshots, downgrades due,
 * and a customer's timeline written as its record is persisted (events sent through the real webhook).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BillingDailyRepository, utcDay } from '../../src/store/billing-daily';
import { billingSuite } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { DAY, providerEvent } from '../support/provider-events';
import { adminToken, projectToken } from '../support/tokens';

const APP = 'console-api';

describe('console API', function () {
  this.timeout(90_000);
  const s = billingSuite(APP, { worker: true });
  const admin = adminToken();
  const member = projectToken(['acme-web'], [APP]);
  const stranger = projectToken([], ['other-app']);

  const problem = (res: { status: number; headers: Headers; body: { status?: number; code?: string } }, status: number) => {
    assert.equal(res.status, status);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(res.body.status, status);
    assert.ok(res.body.code);
  };

  it('GET /v1/console/scopes lists the apps a token may see, and the operator scope for admins', async () => {
    const h = s.harness();
    const a = await h.request('GET', '/v1/console/scopes', { token: admin });
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(a.body.scopes.map((x: { scope: string }) => x.scope), [`app:${APP}`, 'operator']);
    assert.equal(a.body.admin, true);
    const m = await h.request('GET', '/v1/console/scopes', { token: member });
    assert.deepEqual(m.body.scopes.map((x: { scope: string }) => x.scope), [`app:${APP}`]);
    const none = await h.request('GET', '/v1/console/scopes', { token: stranger });
    assert.deepEqual(none.body.scopes, []);
    problem(await h.request('GET', '/v1/console/scopes'), 401);
    const p = await h.request('GET', '/v1/console/projects', { token: member });
    assert.deepEqual(p.body.projects, [{ id: 'acme-web' }]);
    problem(await h.request('GET', '/v1/console/projects', { token: 'nonsense' }), 401);
  });

  it('timeline: every event applied, newest first, with what changed; paged; any alias finds it', async () => {
    const h = s.harness();
    const now = Date.now();
    await s.deliver(providerEvent('INITIAL_PURCHASE', 'tl-1', { at: now - 2 * DAY, aliases: ['tl-1', 'tl-1-device'], expiresAt: now + 3 * DAY }));
    await s.deliver(providerEvent('BILLING_ISSUE', 'tl-1', { at: now - DAY, purchasedAt: now - 2 * DAY, expiresAt: now + 3 * DAY }));
    await s.deliver(providerEvent('CANCELLATION', 'tl-1', { at: now - DAY + 1000, purchasedAt: now - 2 * DAY, expiresAt: now + 3 * DAY, cancel_reason: 'UNSUBSCRIBE' }));
    await s.settled('tl-1', 3);
    const res = await h.request('GET', `/v1/billing/customers/${encodeURIComponent('tl-1-device')}/timeline?app=${APP}`, { token: member });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, 'tl-1');
    const types = res.body.entries.map((e: { type: string }) => e.type);
    assert.deepEqual(types, ['CANCELLATION', 'BILLING_ISSUE', 'INITIAL_PURCHASE'], 'newest first, by provider time within one write');
    for (const e of res.body.entries) {
      assert.ok(e.receivedAt && e.providerAt && e.appliedAt, JSON.stringify(e));
      assert.ok(e.after.status);
    }
    const purchase = res.body.entries.find((e: { type: string }) => e.type === 'INITIAL_PURCHASE');
    assert.equal(purchase.after.entitlements[0].id, 'pro');
    const page1 = await h.request('GET', `/v1/billing/customers/tl-1/timeline?app=${APP}&limit=2`, { token: member });
    assert.equal(page1.body.entries.length, 2);
    assert.ok(page1.body.nextCursor);
    const page2 = await h.request('GET', `/v1/billing/customers/tl-1/timeline?app=${APP}&limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { token: member });
    assert.equal(page2.body.entries.length, 1);
    assert.equal(page2.body.nextCursor, null);
    const all = [...page1.body.entries, ...page2.body.entries].map((e: { eventId: string }) => e.eventId);
    assert.equal(new Set(all).size, 3);

    problem(await h.request('GET', `/v1/billing/customers/nobody/timeline?app=${APP}`, { token: member }), 404);
    problem(await h.request('GET', `/v1/billing/customers/tl-1/timeline?app=${APP}`, { token: stranger }), 403);
    problem(await h.request('GET', `/v1/billing/customers/tl-1/timeline?app=${APP}`), 401);
    problem(await h.request('GET', `/v1/billing/customers/tl-1/timeline?app=${APP}&cursor=zzz`, { token: member }), 400);
    problem(await h.request('GET', `/v1/billing/customers/tl-1/timeline?app=${APP}&limit=0`, { token: member }), 400);

    // Downgrades due: tl-1's period ends in 3 days.
    const due = await h.request('GET', `/v1/billing/downgrades?app=${APP}&days=7`, { token: member });
    assert.equal(due.status, 200, due.text);
    assert.deepEqual(due.body.customers.map((c: { id: string }) => c.id), ['tl-1']);
    const notYet = await h.request('GET', `/v1/billing/downgrades?app=${APP}&days=1`, { token: member });
    assert.deepEqual(notYet.body.customers, []);
    problem(await h.request('GET', `/v1/billing/downgrades?app=${APP}&days=0`, { token: member }), 400);
    problem(await h.request('GET', `/v1/billing/downgrades?app=${APP}`, { token: stranger }), 403);
  });

  it('trends: one point per day for 30/90/365 days, from the snapshots the totals write keeps', async () => {
    const h = s.harness();
    const now = Date.now();
    // Today's point is written with the running totals: wait for the metrics workflow to count all of tl-1
    // (its events may reach the totals in more than one delta).
    await eventually(() => s.metrics(), (m) => m?.activeSubscriptions === 1 && m?.flaggedCustomers === 1, { what: 'the running totals to count tl-1', timeoutMs: 30_000 });
    // A point kept 10 days ago carries forward to the days after it that have none.
    await new BillingDailyRepository(h.db).replace(`app:${APP}`, {
      day: utcDay(now - 10 * DAY), mrrMicros: 5_000_000, activeSubscriptions: 7, activeTrials: 1, flaggedCustomers: 0, scheduledDowngrades: 0, churned: 2,
    }, new Date());
    for (const days of [30, 90, 365]) {
      const res = await h.request('GET', `/v1/billing/trends?app=${APP}&days=${days}`, { token: member });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.points.length, days);
      assert.equal(res.body.points[days - 1].day, utcDay(now));
    }
    const res = await h.request('GET', `/v1/billing/trends?app=${APP}&days=30`, { token: member });
    const ten = res.body.points[30 - 11];
    assert.equal(ten.day, utcDay(now - 10 * DAY));
    assert.equal(ten.activeSubscriptions, 7);
    assert.equal(ten.churned, 2);
    assert.equal(res.body.points[30 - 10].activeSubscriptions, 7, 'carried forward');
    assert.equal(res.body.points[30 - 10].churned, 0);
    // Today's point is the live totals (tl-1 is an active, flagged subscription).
    const today = res.body.points[29];
    assert.equal(today.activeSubscriptions, 1);
    assert.equal(today.flaggedCustomers, 1);
    problem(await h.request('GET', `/v1/billing/trends?app=${APP}&days=7`, { token: member }), 400);
    problem(await h.request('GET', `/v1/billing/trends?app=${APP}`, { token: stranger }), 403);
    problem(await h.request('GET', '/v1/billing/trends', { token: member }), 403);
    problem(await h.request('GET', `/v1/billing/trends?app=${APP}`), 401);
  });

  it('billing-backfill-trends rebuilds the daily points from the subscriber records', async () => {
    const h = s.harness();
    const env = { ...process.env, LOG_LEVEL: 'silent', TEMPORAL_ADDRESS: h.config.temporal.address, MONGODB_URI: h.config.mongo.uri, MONGODB_DB: h.config.mongo.dbName, JWT_SECRET: h.config.jwt.secret! };
    // Asynchronous: the worker runs in this process, and a synchronous spawn would stop it while the CLI runs.
    const child = spawn(process.execPath, [join(__dirname, '..', '..', 'src', 'cli.js'), 'billing-backfill-trends', '--scope', `app:${APP}`, '--days', '30'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    assert.equal(code, 0, out);
    assert.match(out, /1 subscriber records, 30 daily points rebuilt/);
    const res = await h.request('GET', `/v1/billing/trends?app=${APP}&days=30`, { token: member });
    const active = res.body.points.map((p: { activeSubscriptions: number }) => p.activeSubscriptions);
    // tl-1 was bought two days ago and runs for three more days.
    assert.deepEqual(active.slice(-4), [0, 1, 1, 1]);
    assert.equal(res.body.points[30 - 11].activeSubscriptions, 0, 'the hand-written point of 10 days ago is rebuilt from the records');
  });
});
