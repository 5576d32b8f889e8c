/**
 * The console's data routes: scopes a token may see, daily trends from the kept snapshots, downgrades due,
 * and a customer's timeline written as its record is persisted (events sent through the real webhook).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BillingDailyRepository, utcDay } from '../../src/store/billing-daily';
import { COLLECTIONS } from '../../src/store/collections';
import { backfillCustomerListKeys } from '../../src/store/subscribers';
import { billingSuite } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { cliEnv } from '../support/harness';
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
    assert.deepEqual(
      a.body.scopes.map((x: { scope: string }) => x.scope),
      [`app:${APP}`, 'operator'],
    );
    assert.equal(a.body.admin, true);
    const m = await h.request('GET', '/v1/console/scopes', { token: member });
    assert.deepEqual(
      m.body.scopes.map((x: { scope: string }) => x.scope),
      [`app:${APP}`],
    );
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
    // Each applied before the next is sent: the timeline lists writes newest first, and the relay may hand events
    // sent at once over in any order (each then a write of its own).
    await s.deliver(
      providerEvent('INITIAL_PURCHASE', 'tl-1', { at: now - 2 * DAY, aliases: ['tl-1', 'tl-1-device'], expiresAt: now + 3 * DAY }),
    );
    await s.settled('tl-1', 1);
    await s.deliver(providerEvent('BILLING_ISSUE', 'tl-1', { at: now - DAY, purchasedAt: now - 2 * DAY, expiresAt: now + 3 * DAY }));
    await s.settled('tl-1', 2);
    await s.deliver(
      providerEvent('CANCELLATION', 'tl-1', {
        at: now - DAY + 1000,
        purchasedAt: now - 2 * DAY,
        expiresAt: now + 3 * DAY,
        cancel_reason: 'UNSUBSCRIBE',
      }),
    );
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
    const page2 = await h.request(
      'GET',
      `/v1/billing/customers/tl-1/timeline?app=${APP}&limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
      { token: member },
    );
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
    assert.deepEqual(
      due.body.customers.map((c: { id: string }) => c.id),
      ['tl-1'],
    );
    const notYet = await h.request('GET', `/v1/billing/downgrades?app=${APP}&days=1`, { token: member });
    assert.deepEqual(notYet.body.customers, []);
    problem(await h.request('GET', `/v1/billing/downgrades?app=${APP}&days=0`, { token: member }), 400);
    problem(await h.request('GET', `/v1/billing/downgrades?app=${APP}`, { token: stranger }), 403);
  });

  it('trends: one point per day for 30/90/365 days since the first snapshot, from the snapshots the totals write keeps', async () => {
    const h = s.harness();
    const now = Date.now();
    // Today's point is written with the running totals: wait for the metrics workflow to count all of tl-1
    // (its events may reach the totals in more than one delta).
    await eventually(
      () => s.metrics(),
      (m) => m?.activeSubscriptions === 1 && m?.flaggedCustomers === 1,
      { what: 'the running totals to count tl-1', timeoutMs: 30_000 },
    );
    // A point kept 10 days ago carries forward to the days after it that have none.
    await new BillingDailyRepository(h.db).replace(
      `app:${APP}`,
      {
        day: utcDay(now - 10 * DAY),
        mrrMicros: 5_000_000,
        activeSubscriptions: 7,
        activeTrials: 1,
        flaggedCustomers: 0,
        scheduledDowngrades: 0,
        churned: 2,
      },
      new Date(),
    );
    // No point before the first snapshot (no data then: not zero); one a day from it to today.
    for (const days of [30, 90, 365]) {
      const res = await h.request('GET', `/v1/billing/trends?app=${APP}&days=${days}`, { token: member });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.points.length, 11);
      assert.equal(res.body.points[0].day, utcDay(now - 10 * DAY));
      assert.equal(res.body.points[10].day, utcDay(now));
    }
    const res = await h.request('GET', `/v1/billing/trends?app=${APP}&days=30`, { token: member });
    const ten = res.body.points[0];
    assert.equal(ten.day, utcDay(now - 10 * DAY));
    assert.equal(ten.activeSubscriptions, 7);
    assert.equal(ten.churned, 2);
    assert.equal(res.body.points[1].activeSubscriptions, 7, 'carried forward');
    assert.equal(res.body.points[1].churned, 0);
    // The last 7 days of 30 begin after the first snapshot: it is carried into them.
    const week = await new BillingDailyRepository(h.db).series(`app:${APP}`, utcDay(now - 6 * DAY), utcDay(now));
    assert.equal(week.length, 7);
    assert.equal(week[0]!.activeSubscriptions, 7);
    // Today's point is the live totals (tl-1 is an active, flagged subscription).
    const today = res.body.points[10];
    assert.equal(today.activeSubscriptions, 1);
    assert.equal(today.flaggedCustomers, 1);
    problem(await h.request('GET', `/v1/billing/trends?app=${APP}&days=7`, { token: member }), 400);
    problem(await h.request('GET', `/v1/billing/trends?app=${APP}`, { token: stranger }), 403);
    // No app and not an admin: the app was forgotten (not a request for the operator scope).
    for (const path of ['/v1/billing/trends', '/v1/billing/customers/tl-1', '/v1/billing/metrics']) {
      const missing = await h.request('GET', path, { token: member });
      problem(missing, 400);
      assert.equal(missing.body.code, 'missing_app', path);
    }
    const operator = await h.request('GET', '/v1/billing/customers/tl-1', { token: adminToken() });
    problem(operator, 404);
    assert.match(operator.body.detail, /operator scope \(no app parameter given; an app's customer is read with \?app=\{slug\}\)/);
    problem(await h.request('GET', `/v1/billing/trends?app=${APP}`), 401);
  });

  it('billing-backfill-trends rebuilds the daily points from the subscriber records', async () => {
    const h = s.harness();
    const env = cliEnv(h);
    // Asynchronous: the worker runs in this process, and a synchronous spawn would stop it while the CLI runs.
    const child = spawn(
      process.execPath,
      [join(__dirname, '..', '..', 'src', 'cli.js'), 'billing-backfill-trends', '--scope', `app:${APP}`, '--days', '30'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
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

  // Last: it adds customers the totals above do not count.
  it('customer list: filters (status, store, environment), sorts both ways with a cursor, an id prefix; bad values are 400 problem+json', async () => {
    const h = s.harness();
    const now = Date.now();
    const month = { expiresAt: now + 30 * DAY };
    await s.deliver(providerEvent('INITIAL_PURCHASE', 'cl-a', { at: now - 4 * DAY, purchasedAt: now - 4 * DAY, ...month, price: 9.99 }));
    await s.deliver(
      providerEvent('INITIAL_PURCHASE', 'cl-b', {
        at: now - 3 * DAY,
        purchasedAt: now - 3 * DAY,
        ...month,
        price: 4.99,
        store: 'PLAY_STORE',
      }),
    );
    await s.deliver(
      providerEvent('BILLING_ISSUE', 'cl-b', {
        at: now - 3 * DAY + 1000,
        purchasedAt: now - 3 * DAY,
        ...month,
        price: 4.99,
        store: 'PLAY_STORE',
      }),
    );
    await s.deliver(
      providerEvent('INITIAL_PURCHASE', 'cl-c', {
        at: now - 2 * DAY,
        purchasedAt: now - 2 * DAY,
        expiresAt: now + 5 * DAY,
        periodType: 'TRIAL',
        price: 0,
        environment: 'SANDBOX',
      }),
    );
    await s.deliver(
      providerEvent('INITIAL_PURCHASE', 'cl-d', { at: now - DAY, purchasedAt: now - DAY, ...month, price: 19.99, store: 'STRIPE' }),
    );
    await s.deliver(
      providerEvent('CANCELLATION', 'cl-d', {
        at: now - DAY + 1000,
        purchasedAt: now - DAY,
        ...month,
        price: 19.99,
        store: 'STRIPE',
        cancel_reason: 'UNSUBSCRIBE',
      }),
    );
    for (const [id, n] of [
      ['cl-a', 1],
      ['cl-b', 2],
      ['cl-c', 1],
      ['cl-d', 2],
    ] as const)
      await s.settled(id, n);

    type Row = { id: string; status: string };
    const list = async (query: string, token = member) => {
      const res = await h.request('GET', `/v1/billing/customers?app=${APP}${query}`, { token });
      assert.equal(res.status, 200, res.text);
      return res.body as { customers: Row[]; nextCursor: string | null };
    };
    const ids = async (query: string) => (await list(query)).customers.map((c) => c.id).filter((id) => id.startsWith('cl-'));
    /** Every page of limit=1, following nextCursor: the same order as one page. */
    const paged = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { customers: Row[]; nextCursor: string | null } = await list(
          `${query}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        seen.push(...page.customers.map((c) => c.id));
        cursor = page.nextCursor;
      } while (cursor && seen.length < 20);
      return seen.filter((id) => id.startsWith('cl-'));
    };

    assert.deepEqual(await ids('&status=active'), ['cl-a', 'cl-b', 'cl-c']);
    assert.deepEqual(await ids('&status=trial'), ['cl-c']);
    assert.deepEqual(await ids('&status=cancelled'), ['cl-d']);
    assert.deepEqual(await ids('&status=billing_issue'), ['cl-b']);
    assert.deepEqual(await ids('&flagged=false&status=active'), ['cl-a', 'cl-c']);
    assert.deepEqual(await ids('&store=PLAY_STORE'), ['cl-b']);
    assert.deepEqual(await ids('&store=APP_STORE&environment=PRODUCTION'), ['cl-a']);
    assert.deepEqual(await ids('&environment=SANDBOX'), ['cl-c']);
    assert.deepEqual(await ids('&store=AMAZON'), []);

    // Sorts, both ways; ties (no MRR: the trial) in id order; each the same when paged one by one.
    for (const [sort, expected] of [
      ['id', ['cl-a', 'cl-b', 'cl-c', 'cl-d']],
      ['-id', ['cl-d', 'cl-c', 'cl-b', 'cl-a']],
      ['mrr', ['cl-c', 'cl-b', 'cl-a', 'cl-d']],
      ['-mrr', ['cl-d', 'cl-a', 'cl-b', 'cl-c']],
      ['lastEvent', ['cl-a', 'cl-b', 'cl-c', 'cl-d']],
      ['-lastEvent', ['cl-d', 'cl-c', 'cl-b', 'cl-a']],
    ] as const) {
      assert.deepEqual(await ids(`&sort=${sort}`), expected, sort);
      assert.deepEqual(await paged(`&sort=${sort}`), expected, `${sort}, paged`);
    }
    assert.deepEqual(await paged('&sort=-mrr&status=active'), ['cl-a', 'cl-b', 'cl-c']);

    // An id prefix, in id order both ways, with filters, paged.
    assert.deepEqual(
      (await list('&q=cl-')).customers.map((c) => c.id),
      ['cl-a', 'cl-b', 'cl-c', 'cl-d'],
    );
    assert.deepEqual(await paged('&q=cl-&sort=-id'), ['cl-d', 'cl-c', 'cl-b', 'cl-a']);
    assert.deepEqual(
      (await list('&q=cl-&status=active&store=APP_STORE')).customers.map((c) => c.id),
      ['cl-a', 'cl-c'],
    );
    assert.deepEqual(
      (await list('&q=cl-b')).customers.map((c) => c.id),
      ['cl-b'],
    );
    assert.deepEqual((await list('&q=CL-')).customers, [], 'ids are case-sensitive');
    // The customer q names exactly, by an alias a prefix of ids does not find.
    const byAlias = await h.request('GET', `/v1/billing/customers?app=${APP}&q=tl-1-device`, { token: member });
    assert.deepEqual([byAlias.body.customers, byAlias.body.exactMatch?.id], [[], 'tl-1']);
    assert.equal((await h.request('GET', `/v1/billing/customers?app=${APP}&q=cl-b`, { token: member })).body.exactMatch.id, 'cl-b');
    assert.equal((await h.request('GET', `/v1/billing/customers?app=${APP}&q=cl-`, { token: member })).body.exactMatch, null);
    assert.equal('exactMatch' in (await list('')), false);

    // Bad values: 400 problem+json naming the parameter.
    for (const bad of [
      '&status=paying',
      '&store=app store',
      '&store=app_store',
      '&environment=production',
      '&sort=price',
      '&sort=mrr&sort=id',
      '&flagged=yes',
      `&q=${'x'.repeat(201)}`,
      '&q=',
      '&limit=0',
      '&limit=201',
    ]) {
      const res = await h.request('GET', `/v1/billing/customers?app=${APP}${bad}`, { token: member });
      problem(res, 400);
      assert.equal(res.body.code, 'invalid_input', bad);
      assert.ok(res.body.errors?.[0]?.path, `${bad}: ${res.text}`);
    }
    const withQ = await h.request('GET', `/v1/billing/customers?app=${APP}&q=cl-&sort=mrr`, { token: member });
    problem(withQ, 400);
    assert.deepEqual(withQ.body.errors, [{ path: '/sort', message: 'must be id or -id with q' }]);
    // A cursor belongs to its sort.
    const byMrr = await list('&sort=mrr&limit=1');
    const crossed = await h.request(
      'GET',
      `/v1/billing/customers?app=${APP}&sort=lastEvent&cursor=${encodeURIComponent(byMrr.nextCursor!)}`,
      { token: member },
    );
    problem(crossed, 400);
    assert.equal(crossed.body.code, 'invalid_cursor');
    problem(await h.request('GET', `/v1/billing/customers?app=${APP}&sort=-mrr&cursor=zzz`, { token: member }), 400);
    problem(await h.request('GET', `/v1/billing/customers?app=${APP}&status=active`, { token: stranger }), 403);

    // A record stored before the list kept its keys is not listed until the start-up backfill gives it them.
    const records = h.db.collection<{ _id: string }>(COLLECTIONS.subscribers);
    await records.updateOne({ _id: `app:${APP}|cl-a` }, { $unset: { facets: '', aliasesLower: '', mrrMicros: '', lastEventAtMs: '' } });
    assert.deepEqual(await ids('&store=APP_STORE&environment=PRODUCTION'), []);
    await h.db.collection<{ _id: string }>(COLLECTIONS.migrations).deleteOne({ _id: 'billing_subscribers.listKeys.v2' });
    assert.equal(await backfillCustomerListKeys(h.db), 1);
    assert.equal(await backfillCustomerListKeys(h.db), 0, 'recorded as done');
    assert.deepEqual(await ids('&store=APP_STORE&environment=PRODUCTION'), ['cl-a']);
    assert.deepEqual(await ids('&sort=-mrr'), ['cl-d', 'cl-a', 'cl-b', 'cl-c']);
  });
});
