/**
 * Input a hostile or unlucky provider sends, and faults around acceptance: each gets a documented 4xx (never a
 * 5xx), and an event stored by a delivery that was answered 503 is still applied when it comes again.
 */
import assert from 'node:assert/strict';
import { EVENT_LIMITS } from '../../src/billing/provider-events';
import { PAGE_BYTE_BUDGET } from '../../src/api/http/page-budget';
import { COLLECTIONS } from '../../src/store/collections';
import { createRepositories } from '../../src/store/repositories';
import { eventKey } from '../../src/store/webhook-events';
import { workflowIdFor } from '../../src/billing/subscriber-id';
import { subscriberStateQuery } from '../../src/contracts/workflows/billing-subscriber';
import { MAX_REPORTED_ERRORS } from '../../src/contracts/validation';
import { EventForwarder } from '../../src/billing-intake/event-forwarder';
import { createLogger } from '../../src/logging/logger';
import { randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { envelope, providerEvent } from '../support/provider-events';
import { adminToken } from '../support/tokens';
import { replayLiveHistory } from '../support/replay-live';

const APP = `hostile-${randomSuffix()}`;
const HOOK = `/api/saas/iap/billingprovider/webhook?app=${APP}`;

describe('billing webhooks: hostile input and acceptance faults (real stack)', () => {
  let h: Harness;
  let auth: string;
  before(async () => {
    h = await startHarness();
    auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Hostile' } })).body.authorization;
    await h.startWorker();
  });
  after(async () => h?.close());

  const post = (body: unknown, raw?: string) =>
    h.request('POST', HOOK, {
      ...(raw !== undefined
        ? { raw, headers: { Authorization: auth, 'Content-Type': 'application/json' } }
        : { body, headers: { Authorization: auth } }),
    });

  it('a timestamp outside any date is refused with 400 naming the member, and the customer list keeps working', async () => {
    const res = await post(envelope(providerEvent('INITIAL_PURCHASE', 'far-future', { at: Date.now(), expiresAt: 9e15 })));
    assert.equal(res.status, 400, res.text);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.ok(
      res.body.errors.some((e: { path: string }) => e.path === '/event/expiration_at_ms'),
      res.text,
    );
    assert.equal((await h.request('GET', `/v1/billing/customers?app=${APP}`, { token: adminToken() })).status, 200);
  });

  it('ids longer than the limit and alias lists longer than the limit are 400 with the limit named', async () => {
    const longId = 'x'.repeat(EVENT_LIMITS.idLength + 1);
    const res = await post(envelope(providerEvent('INITIAL_PURCHASE', longId, { at: Date.now() })));
    assert.equal(res.status, 400, res.text);
    assert.match(res.text, new RegExp(`more than ${EVENT_LIMITS.idLength} characters`));
    const flood = Array.from({ length: EVENT_LIMITS.ids + 1 }, (_, i) => `alias-${i}`);
    const many = await post(envelope(providerEvent('SUBSCRIBER_ALIAS', 'flood', { at: Date.now(), aliases: flood })));
    assert.equal(many.status, 400, many.text);
    assert.match(many.text, new RegExp(`more than ${EVENT_LIMITS.ids} items`));
  });

  it('30,000 invalid aliases: a 400 whose body lists a bounded number of problems', async () => {
    const res = await post(
      envelope({
        ...providerEvent('SUBSCRIBER_ALIAS', 'bad', { at: Date.now() }),
        aliases: Array.from({ length: 30_000 }, () => 7) as never,
      }),
    );
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.ok(res.body.errors.length <= MAX_REPORTED_ERRORS + 1, `${res.body.errors.length} errors listed`);
    assert.ok(res.text.length < 20_000, `a ${res.text.length}-byte answer`);
  });

  it('deeply nested JSON and lone surrogates are 400, not 500', async () => {
    const depth = 60_000;
    const deep = `{"event":{"id":"deep","type":"TEST","x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const res = await post(undefined, deep);
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.equal(res.body.code, 'malformed_json');
    const surrogate = await post(undefined, '{"event":{"id":"s\\ud800","type":"TEST"}}');
    assert.equal(surrogate.status, 400, surrogate.text);
    const doc = await h.request('POST', '/v1/projects/nowhere/documents', {
      token: adminToken(),
      raw: '{"documents":[{"kind":"ticket","externalId":"\\ud800"}]}',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(doc.status, 400, doc.text);
    assert.equal((await h.request('GET', '/healthz')).status, 200, 'still serving');
  });

  it('an event stored by a delivery that was answered 503 is applied when the provider redelivers it', async () => {
    const event = providerEvent('INITIAL_PURCHASE', 'stored-then-503', { at: Date.now() });
    // As if the insert committed but the driver reported an error: stored, acknowledged to nobody, relayed by nobody.
    await h.db.collection(COLLECTIONS.webhookEvents).insertOne({
      _id: eventKey(`app:${APP}`, event.id) as never,
      scope: `app:${APP}`,
      eventId: event.id,
      type: event.type,
      workflowId: workflowIdFor(`app:${APP}`, 'stored-then-503'),
      subscriberId: 'stored-then-503',
      eventJson: JSON.stringify(event),
      receivedAt: new Date(),
      acceptedBy: 'an-instance-that-answered-503',
      ignored: false,
      deliveries: 1,
    });
    const res = await post(envelope(event));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.duplicate, true);
    const customer = await eventually(
      () => h.request('GET', `/v1/billing/customers/stored-then-503?app=${APP}`, { token: adminToken() }),
      (r) => r.status === 200 && r.body.status === 'active',
      { what: 'the redelivered event to be applied', timeoutMs: 30_000 },
    );
    assert.deepEqual(
      customer.body.entitlements.map((e: { id: string }) => e.id),
      ['pro'],
    );
  });

  it('an event id delivered again with another body: the first body stands, the second is parked as a conflict and never applied', async () => {
    const first = providerEvent('INITIAL_PURCHASE', 'conflict-a', { at: Date.now(), price: 9.99 });
    assert.equal((await post(envelope(first))).body.duplicate, false);
    // The same id naming another subscriber and another type, then with the first body's members reordered.
    const other = { ...providerEvent('RENEWAL', 'conflict-b', { at: Date.now(), price: 99 }), id: first.id };
    const res = await post(envelope(other));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { received: true, eventId: first.id, duplicate: true, ignored: false, conflict: true });
    const reordered = Object.fromEntries(Object.entries(first).reverse()) as typeof first;
    assert.deepEqual((await post(envelope(reordered))).body, { received: true, eventId: first.id, duplicate: true, ignored: false });

    const customer = (id: string) => h.request('GET', `/v1/billing/customers/${id}?app=${APP}`, { token: adminToken() });
    await eventually(
      () => customer('conflict-a'),
      (r) => r.status === 200 && r.body.status === 'active',
      { what: 'the first body applied' },
    );
    const list = await eventually(
      () => h.request('GET', `/v1/billing/dead-letters?app=${APP}`, { token: adminToken() }),
      (r) => r.body.deadLetters.some((d: { eventId: string }) => d.eventId === first.id),
      { what: 'the conflict parked' },
    );
    const parked = list.body.deadLetters.find((d: { eventId: string }) => d.eventId === first.id);
    assert.equal(parked.stage, 'intake');
    assert.equal(parked.subscriberId, 'conflict-a');
    assert.match(parked.reason, /different body/);
    const retry = await h.request('POST', `/v1/billing/dead-letters/${parked.id}/retry`, { token: adminToken() });
    assert.equal(retry.status, 422, retry.text);
    // Nothing of the second body anywhere: no record for the subscriber it named, the first customer unchanged.
    const settledA = await eventually(
      () => customer('conflict-a'),
      (r) => r.body.lastEvent?.id === first.id,
      { what: 'the first customer' },
    );
    assert.equal(settledA.body.mrrContribution, 9.99);
    assert.equal((await customer('conflict-b')).status, 404);
  });

  it('list pages stay within their byte budget however large the records, and their cursors reach every customer', async () => {
    const t = Date.now();
    const ids = Array.from({ length: 12 }, (_, i) => `big-${String(i).padStart(2, '0')}`);
    const entitlements = (id: string) => Array.from({ length: EVENT_LIMITS.entitlements }, (_, k) => `${id}-${k}-`.padEnd(1000, 'e'));
    for (const id of ids) {
      const res = await post(
        envelope(providerEvent('INITIAL_PURCHASE', id, { at: t, entitlement_ids: entitlements(id), original_transaction_id: `otx-${id}` })),
      );
      assert.equal(res.status, 200, res.text);
    }
    await eventually(
      () => h.request('GET', `/v1/billing/customers/${ids.at(-1)}?app=${APP}`, { token: adminToken() }),
      (r) => r.status === 200 && r.body.entitlements.length === EVENT_LIMITS.entitlements,
      { what: 'the last large customer', timeoutMs: 30_000 },
    );
    await eventually(
      () => Promise.all(ids.map((id) => h.request('GET', `/v1/billing/customers/${id}?app=${APP}`, { token: adminToken() }))),
      (rs) => rs.every((r) => r.status === 200 && r.body.entitlements.length === EVENT_LIMITS.entitlements),
      { what: 'every large customer', timeoutMs: 30_000 },
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await h.request(
        'GET',
        `/v1/billing/customers?app=${APP}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: adminToken() },
      );
      assert.equal(res.status, 200, res.text.slice(0, 300));
      assert.ok(res.text.length <= PAGE_BYTE_BUDGET + 4096, `a ${res.text.length}-byte page`);
      seen.push(...res.body.customers.map((c: { id: string }) => c.id));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor && pages < 50);
    assert.ok(pages > 1, 'the records are large enough to need several pages');
    for (const id of ids) assert.ok(seen.includes(id), id);
    assert.equal(new Set(seen).size, seen.length, 'no customer twice');
  });

  it('a deleted app: its authorization stops working, and its slug cannot be taken by a new app', async () => {
    const slug = `gone-${randomSuffix()}`;
    const created = await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug, name: 'Gone' } });
    assert.equal((await h.request('DELETE', `/v1/apps/${slug}`, { token: adminToken() })).status, 204);
    const hook = await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${slug}`, {
      body: envelope(providerEvent('TEST', 'x', { at: Date.now() })),
      headers: { Authorization: created.body.authorization },
    });
    assert.equal(hook.status, 401);
    const again = await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug, name: 'Reused' } });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'app_slug_retired');
    assert.equal((await h.request('GET', `/v1/apps/${slug}`, { token: adminToken() })).status, 404);
  });

  it('opposite alias events relayed together: one customer with both histories, never two merged into each other', async () => {
    const t = Date.now();
    for (const id of ['race-a', 'race-b']) {
      const res = await post(envelope(providerEvent('INITIAL_PURCHASE', id, { at: t, original_transaction_id: `otx-${id}` })));
      assert.equal(res.status, 200, res.text);
    }
    await eventually(
      () =>
        Promise.all(['race-a', 'race-b'].map((id) => h.request('GET', `/v1/billing/customers/${id}?app=${APP}`, { token: adminToken() }))),
      (rs) => rs.every((r) => r.status === 200 && r.body.status === 'active'),
      { what: 'both purchases applied', timeoutMs: 30_000 },
    );
    const [one, two] = await Promise.all([
      post(envelope(providerEvent('SUBSCRIBER_ALIAS', 'race-a', { at: t + 1, aliases: ['race-a', 'race-b'] }))),
      post(envelope(providerEvent('SUBSCRIBER_ALIAS', 'race-b', { at: t + 1, aliases: ['race-b', 'race-a'] }))),
    ]);
    assert.equal(one!.status, 200);
    assert.equal(two!.status, 200);
    const merged = await eventually(
      () =>
        Promise.all(['race-a', 'race-b'].map((id) => h.request('GET', `/v1/billing/customers/${id}?app=${APP}`, { token: adminToken() }))),
      // race-b is stored as merged before race-a takes its state over, so for a moment race-b already resolves to a
      // race-a that does not list it yet: the merge is over once race-a does.
      (rs) =>
        rs.every(
          (r) => r.status === 200 && r.body.id === 'race-a' && r.body.entitlements.length === 1 && r.body.aliases.includes('race-b'),
        ),
      { what: 'both ids to resolve to one customer (race-a, the smaller id) that lists race-b', timeoutMs: 30_000 },
    );
    assert.equal(merged[0]!.body.mergedInto, null);
    assert.deepEqual(merged[0]!.body.aliases, ['race-b']);
    const metrics = await eventually(
      () => h.request('GET', `/v1/billing/metrics?app=${APP}`, { token: adminToken() }),
      (r) => r.status === 200 && r.body.mrr.amount > 0,
      { what: 'totals' },
    );
    assert.ok(metrics.body.activeSubscriptions >= 2, 'both subscriptions still count once each');
  });

  it("relay recovery judges peers by the store's clock: an instance whose own clock runs ahead never takes a live peer for dead", async () => {
    const relayOptions = {
      repos: h.repos,
      client: h.temporal.relay,
      taskQueue: h.config.temporal.taskQueue,
      logger: createLogger(h.config, 'test'),
    };
    const live = new EventForwarder(relayOptions);
    await live.checkpoint();
    // An instance whose clock is two minutes ahead of everyone else's.
    const ahead = new EventForwarder({ ...relayOptions, now: () => new Date(Date.now() + 120_000) });
    await ahead.recover();
    const kept = await h.db.collection(COLLECTIONS.relayCheckpoints).findOne({ _id: live.instanceId as never });
    assert.ok(kept, "the live peer's checkpoint is still there");
    await live.stop();
    await ahead.stop();
  });

  it('the relay holds a bounded number of events in memory and reads the rest back from the inbox', async () => {
    const relay = new EventForwarder({
      repos: h.repos,
      client: h.temporal.relay,
      taskQueue: `relay-bound-${randomSuffix()}`,
      logger: createLogger(h.config, 'test'),
      maxQueued: 20,
    });
    await relay.start();
    const now = new Date();
    const records = Array.from({ length: 60 }, (_, i) => {
      const event = providerEvent('INITIAL_PURCHASE', `bounded-${i}`, { at: now.getTime() });
      return {
        _id: eventKey(`app:${APP}`, event.id),
        scope: `app:${APP}` as const,
        eventId: event.id,
        type: event.type,
        workflowId: `relay-bound/${randomSuffix()}/${i}`,
        subscriberId: `bounded-${i}`,
        eventJson: JSON.stringify(event),
        receivedAt: new Date(now.getTime() + i),
        acceptedBy: relay.instanceId,
        ignored: false,
        deliveries: 1,
      };
    });
    await h.db.collection(COLLECTIONS.webhookEvents).insertMany(records as never[]);
    for (const r of records) relay.forwardSoon(r);
    const held = relay.stats();
    assert.ok(held.queued <= 20, `${held.queued} queued`);
    assert.equal(held.owed, 60);
    await eventually(
      async () => relay.stats(),
      (st) => st.owed === 0,
      { what: 'every event relayed, the overflow read back from the inbox', timeoutMs: 30_000 },
    );
    await relay.stop();
  });

  it("an alias event's new ids: each new record merges without sending anything back, and both histories replay", async () => {
    const id = `merge-${randomSuffix()}`;
    const t = Date.now();
    const news = [`${id}-alias-a`, `${id}-alias-b`];
    assert.equal((await post(envelope(providerEvent('INITIAL_PURCHASE', id, { at: t })))).status, 200);
    assert.equal((await post(envelope(providerEvent('SUBSCRIBER_ALIAS', id, { at: t + 1, aliases: [id, ...news] })))).status, 200);
    const canonical = h.temporal.client.workflow.getHandle(workflowIdFor(`app:${APP}`, id));
    const state = await eventually(
      () => canonical.query(subscriberStateQuery),
      (st) => st.appliedEventIds.length === 2 && st.aliases.length === 3,
      { what: 'both events applied', timeoutMs: 30_000, intervalMs: 250 },
    );
    assert.deepEqual(state.aliases, [id, ...news].sort());
    const alias = h.temporal.client.workflow.getHandle(workflowIdFor(`app:${APP}`, news[0]!));
    const merged = await eventually(
      () => alias.query(subscriberStateQuery).catch(() => null),
      (st) => st?.mergedInto === id,
      { what: 'the new record merged into the canonical one', timeoutMs: 30_000, intervalMs: 250 },
    );
    assert.equal(merged!.version, 1, 'the merge is its only change');
    const activities = (events: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null }[]) =>
      events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    // Later events for the new id alone reach its record, which forwards each: its only signals out. (Two, one
    // after the other, so that a replay of its history by code that still sent the absorb sees a different command.)
    for (const [n, type] of ['INITIAL_PURCHASE', 'RENEWAL'].entries()) {
      assert.equal((await post(envelope(providerEvent(type, news[0]!, { at: t + 2 + n })))).status, 200);
      await eventually(
        () => canonical.query(subscriberStateQuery),
        (st) => st.appliedEventIds.length === 3 + n,
        { what: `forwarded event ${n + 1} applied`, timeoutMs: 30_000, intervalMs: 250 },
      );
    }
    const aliasHistory = await alias.fetchHistory();
    assert.deepEqual(
      activities(aliasHistory.events ?? []),
      ['signalSubscriber', 'signalSubscriber'],
      'the forwards only, no absorb signal sent back: the canonical record already lists it',
    );
    // The canonical's fan-out done (one signal per new id), then its history and the new record's replay against
    // today's code; saved (UPDATE_HISTORIES=1) as the fixtures of this version's merge path.
    const canonicalHistory = await eventually(
      () => canonical.fetchHistory(),
      (hist) => activities(hist.events ?? []).filter((name) => name === 'signalSubscriber').length === news.length,
      { what: "the canonical's fan-out", timeoutMs: 30_000, intervalMs: 250 },
    );
    assert.ok(
      !(canonicalHistory.events ?? []).some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'absorb'),
      'the canonical record got no absorb',
    );
    await replayLiveHistory('merge-canonical', canonical.workflowId, canonicalHistory, { fixture: 'billing-subscriber-merge-canonical' });
    await replayLiveHistory('merge-listed', alias.workflowId, aliasHistory, { fixture: 'billing-subscriber-merge-listed' });
  });

  it('an alias flood continues as new between events: no run grows far past the history threshold', async function () {
    // Its own deadlines (90 s to apply, 30 s to list) and not the file's 60 s: alone it takes ~45 s, and under the
    // whole suite's load the 60 s ran out while the events were still being applied.
    this.timeout(150_000);
    const id = `flood-${randomSuffix()}`;
    const t = Date.now();
    assert.equal((await post(envelope(providerEvent('INITIAL_PURCHASE', id, { at: t })))).status, 200);
    // Five events at once, each naming the limit of new aliases: each fans out to 100 other records.
    const floods = Array.from({ length: 5 }, (_, n) =>
      providerEvent('SUBSCRIBER_ALIAS', id, {
        at: t + n + 1,
        aliases: [id, ...Array.from({ length: EVENT_LIMITS.ids - 1 }, (_, i) => `${id}-alias-${n}-${i}`)],
      }),
    );
    const answers = await Promise.all(floods.map((e) => post(envelope(e))));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const handle = h.temporal.client.workflow.getHandle(workflowIdFor(`app:${APP}`, id));
    const state = await eventually(
      () => handle.query(subscriberStateQuery),
      (st) => st.appliedEventIds.length === 6,
      { what: 'all six events applied', timeoutMs: 90_000, intervalMs: 250 },
    );
    assert.equal(state.aliases.length, 1 + 5 * (EVENT_LIMITS.ids - 1));
    // The runs as Temporal's visibility lists them, which may trail the newest run by a moment: listed again
    // until every new alias's signal is among them (or the deadline, and the assertions below say what is missing).
    const listRuns = async () => {
      const found: { events: number; fanOut: number; absorbs: number }[] = [];
      for await (const run of h.temporal.client.workflow.list({ query: `WorkflowId = '${workflowIdFor(`app:${APP}`, id)}'` })) {
        const history = await h.temporal.client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
        const fanOut = (history.events ?? []).filter(
          (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'signalSubscriber',
        ).length;
        // A new alias record has no state to hand back (mergeInto's `listed`): no absorb signal returns.
        const absorbs = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'absorb').length;
        found.push({ events: history.events?.length ?? 0, fanOut, absorbs });
      }
      return found;
    };
    const runs = await eventually(listRuns, (found) => found.reduce((n, r) => n + r.fanOut, 0) >= 5 * (EVENT_LIMITS.ids - 1), {
      what: 'every run of the flooded record listed with its fan-out',
      timeoutMs: 30_000,
      intervalMs: 500,
    }).catch(listRuns);
    const shown = runs.map((r) => `${r.events} events/${r.fanOut} signals`).join(', ');
    assert.ok(runs.length >= 3, `continued as new between the floods (${runs.length} runs: ${shown})`);
    // Past the suite's threshold of 120 events a run takes no further flood: at most one event's fan-out (one
    // signal to each of its new aliases) per run. How many workflow tasks that fan-out takes depends on timing,
    // so the activity count is the measure, not the history length.
    assert.ok(Math.max(...runs.map((r) => r.fanOut)) <= EVENT_LIMITS.ids, `runs: ${shown}`);
    assert.ok(runs.reduce((n, r) => n + r.fanOut, 0) >= 5 * (EVENT_LIMITS.ids - 1), `every new alias was signalled (${shown})`);
    assert.equal(
      runs.reduce((n, r) => n + r.absorbs, 0),
      0,
      'no new alias record signalled back',
    );
  });

  /** The scope's metrics once its running totals equal the sum of its stored contributions (and `also` holds). */
  const settledMetrics = (also: (m: { flaggedCustomers: number }) => boolean = () => true) =>
    eventually(
      async () => {
        const repos = createRepositories(h.db);
        const [full, stored] = await Promise.all([
          repos.subscribers.sumContributions(`app:${APP}`),
          repos.billingTotals.stored(`app:${APP}`),
        ]);
        const agree = stored !== null && JSON.stringify(stored.totals) === JSON.stringify({ ...stored.totals, ...full.totals });
        return { agree, body: (await h.request('GET', `/v1/billing/metrics?app=${APP}`, { token: adminToken() })).body };
      },
      (r) => r.agree && also(r.body),
      { what: 'the scope totals to settle', timeoutMs: 30_000, intervalMs: 250 },
    ).then((r) => r.body);

  it('a subscriber run that was terminated: the next event resumes from the stored state, and nothing is counted twice', async () => {
    const id = `resume-${randomSuffix()}`;
    const t = Date.now();
    assert.equal((await post(envelope(providerEvent('INITIAL_PURCHASE', id, { at: t })))).status, 200);
    const handle = h.temporal.client.workflow.getHandle(workflowIdFor(`app:${APP}`, id));
    await eventually(
      () => handle.query(subscriberStateQuery),
      (st) => st.appliedEventIds.length === 1,
      { what: 'the purchase applied', timeoutMs: 30_000 },
    );
    await eventually(
      () => h.request('GET', `/v1/billing/customers/${id}?app=${APP}`, { token: adminToken() }),
      (r) => r.status === 200 && r.body.status === 'active',
      { what: 'the projection', timeoutMs: 30_000 },
    );
    // The scope's totals settled: the running totals equal the sum of the stored records' contributions (earlier
    // tests' merges, and this purchase's own delta, may still be on their way to the metrics workflow).
    const before = await settledMetrics();
    await handle.terminate('an operator ended the run');
    assert.equal((await post(envelope(providerEvent('BILLING_ISSUE', id, { at: t + 1000 })))).status, 200);
    const resumed = await eventually(
      () => handle.query(subscriberStateQuery),
      (st) => st.appliedEventIds.length === 2,
      { what: 'a new run with both events', timeoutMs: 30_000 },
    );
    assert.equal(resumed.status, 'active');
    const customer = await eventually(
      () => h.request('GET', `/v1/billing/customers/${id}?app=${APP}`, { token: adminToken() }),
      (r) => r.status === 200 && r.body.flags.length === 1,
      { what: 'the flag written by the new run (not dropped by the version guard)', timeoutMs: 30_000 },
    );
    assert.equal(customer.body.entitlements.length, 1);
    const after = { body: await settledMetrics((m) => m.flaggedCustomers === before.flaggedCustomers + 1) };
    assert.equal(after.body.activeSubscriptions, before.activeSubscriptions, 'the subscription is not counted twice');
    assert.equal(after.body.mrr.amount, before.mrr.amount);
  });

  it('a terminated metrics workflow: the next delta restarts it from the stored totals, not from zero', async () => {
    const slug = `totals-${randomSuffix()}`;
    const created = await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug, name: 'Totals' } });
    const send = (id: string) =>
      h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${slug}`, {
        body: envelope(providerEvent('INITIAL_PURCHASE', id, { at: Date.now() })),
        headers: { Authorization: created.body.authorization },
      });
    const metrics = () => h.request('GET', `/v1/billing/metrics?app=${slug}`, { token: adminToken() });
    assert.equal((await send('first')).status, 200);
    await eventually(metrics, (r) => r.body.activeSubscriptions === 1, { what: 'the first subscription counted', timeoutMs: 30_000 });
    await h.temporal.client.workflow.getHandle(`billing-metrics/app:${slug}`).terminate('an operator ended the run');
    assert.equal((await send('second')).status, 200);
    const after = await eventually(metrics, (r) => r.body.activeSubscriptions === 2, {
      what: 'both subscriptions counted by the new run',
      timeoutMs: 30_000,
    });
    assert.equal(after.body.mrr.amount, 2 * 9.99);
  });

  it('a store outage on an authenticated route is a 503 with Retry-After, not a 500', async () => {
    await h.store.client.close();
    const res = await h.request('GET', `/v1/billing/customers?app=${APP}`, { token: adminToken() });
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.code, 'store_unavailable');
    assert.ok(res.headers.get('retry-after'));
  });
});
