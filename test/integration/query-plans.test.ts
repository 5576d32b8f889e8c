/**
 * Every query the service makes on a collection that grows with use is served by an index. The suite drives
 * the service through its HTTP API and worker (skills, documents, invocations, both webhook receivers, the
 * dashboard, the relay's recovery read), records each query shape the driver sends, and runs `explain` on
 * each against the real store: a COLLSCAN on a growing collection fails the test, naming the query.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { COLLECTIONS } from '../../src/store/collections';
import { DeadLetterRepository } from '../../src/store/dead-letters';
import { EventLogRepository } from '../../src/store/event-log';
import { DeliveryLog } from '../../src/billing-intake/delivery-log';
import { createLogger } from '../../src/logging/logger';
import { WebhookEventRepository } from '../../src/store/webhook-events';
import { startHarness, type Harness } from '../support/harness';
import { adminToken, projectToken } from '../support/tokens';
import { captureQueries, explainStages, type CapturedQuery } from '../support/query-plans';
import { DAY, envelope, providerEvent } from '../support/provider-events';
import { eventually } from '../support/eventually';
import { RETAIL } from '../unit/skills/cases';
import { invoke, loadDemo, PROJECT, settle } from './skills-helpers';

/** Collections whose size is bounded by configuration, not by use: a scan of them costs nothing worth an index. */
const SMALL = new Set<string>([
  COLLECTIONS.orgs,
  COLLECTIONS.projects,
  COLLECTIONS.apps,
  COLLECTIONS.relayCheckpoints,
  COLLECTIONS.billingMetrics,
  COLLECTIONS.outboundCounters,
  COLLECTIONS.eventLogCounters,
]);

describe('query plans: every query on a growing collection uses an index', function () {
  this.timeout(120_000);
  let h: Harness;
  let capture: ReturnType<typeof captureQueries>;
  let receiver: Server;

  before(async () => {
    // Outbound webhooks go to a receiver on loopback (the development setting).
    receiver = createServer((_req, res) => void res.end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    h = await startHarness({ OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK: 'true' }, { monitorCommands: true });
    capture = captureQueries(h.store.client, h.config.mongo.dbName);
    await loadDemo(h);
    await h.startWorker();
  });
  after(async () => {
    capture?.stop();
    await h?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('drives every read and write path of the service', async () => {
    const admin = adminToken();
    const member = projectToken([PROJECT], ['plans']);
    // Skills: all three, one with an Idempotency-Key and Prefer: wait, then the listings and a cancel.
    const started = await Promise.all([
      invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' }, { 'Idempotency-Key': 'plans-1' }),
      invoke(h, member, 'proposal_writer', { ...RETAIL, format: 'one-pager' }),
      invoke(h, member, 'incident_rca', { incidentId: 'INC-2025-014', severity: 'SEV-1' }, { Prefer: 'wait=20' }),
    ]);
    for (const res of started) assert.ok([200, 202].includes(res.status), res.text);
    for (const res of started) await settle(h, member, res.body.id);
    await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' }, { 'Idempotency-Key': 'plans-1' });
    for (const query of ['', '?skill=proposal_writer', '?status=completed', '?skill=incident_rca&status=completed', '?limit=1']) {
      const list = await h.request('GET', `/v1/agents/${PROJECT}/invocations${query}`, { token: member });
      assert.equal(list.status, 200, list.text);
      if (list.body.nextCursor) {
        const next = await h.request(
          'GET',
          `/v1/agents/${PROJECT}/invocations${query}${query ? '&' : '?'}cursor=${encodeURIComponent(list.body.nextCursor)}`,
          { token: member },
        );
        assert.equal(next.status, 200, next.text);
      }
    }
    await h.request('POST', `/v1/agents/${PROJECT}/invocations/${started[0]!.body.id}/cancel`, { token: member });

    // Project data: upserts, listings by kind, text, cursor.
    const docs = await h.request('POST', `/v1/projects/${PROJECT}/documents`, {
      token: admin,
      body: {
        documents: [
          {
            kind: 'ticket',
            externalId: 'PLAN-1',
            title: 'Plans',
            body: 'Query plans',
            key: 'PLAN-1',
            type: 'task',
            status: 'done',
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
    });
    assert.equal(docs.status, 200, docs.text);
    for (const query of ['?limit=2', '?kind=commit&limit=2', '?q=checkout&limit=2', '?kind=ticket&q=plans']) {
      const list = await h.request('GET', `/v1/projects/${PROJECT}/documents${query}`, { token: member });
      assert.equal(list.status, 200, list.text);
      if (list.body.nextCursor)
        await h.request('GET', `/v1/projects/${PROJECT}/documents${query}&cursor=${encodeURIComponent(list.body.nextCursor)}`, {
          token: member,
        });
    }

    // Billing: an app's receiver with every effect, a duplicate, a merge; the dashboard; the relay's recovery read.
    const auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: 'plans', name: 'Plans' } })).body
      .authorization as string;
    // Outbound webhooks for the same app: an endpoint receives every event below.
    await h.request('PUT', '/v1/apps/plans/outbound-access', { token: admin, body: { enabled: true } });
    const port = (receiver.address() as { port: number }).port;
    const endpoints = '/v1/apps/plans/webhook-endpoints';
    const ep = (await h.request('POST', endpoints, { token: admin, body: { url: `http://127.0.0.1:${port}/hook` } })).body as {
      id: string;
    };
    const now = Date.now();
    const events = [
      providerEvent('INITIAL_PURCHASE', 'plan-a', { at: now - 2 * DAY, purchasedAt: now - 2 * DAY }),
      providerEvent('INITIAL_PURCHASE', 'plan-b', { at: now - DAY }),
      providerEvent('BILLING_ISSUE', 'plan-b', { at: now - DAY + 1000 }),
      providerEvent('CANCELLATION', 'plan-a', { at: now - DAY, purchasedAt: now - 2 * DAY, cancel_reason: 'UNSUBSCRIBE' }),
      providerEvent('SUBSCRIBER_ALIAS', 'plan-c', { at: now, aliases: ['plan-c', 'plan-a'] }),
    ];
    for (const event of [...events, events[0]!]) {
      const res = await h.request('POST', '/api/saas/iap/billingprovider/webhook?app=plans', {
        body: envelope(event),
        headers: { Authorization: auth },
      });
      assert.equal(res.status, 200, res.text);
    }
    await eventually(
      () => h.request('GET', '/v1/billing/customers/plan-b?app=plans', { token: admin }),
      (r) => r.status === 200 && r.body.flags?.length === 1,
      { what: 'plan-b flagged', timeoutMs: 30_000 },
    );
    // The console's customer list: every filter, every sort both ways, the id prefix search, each with a next page.
    const listQueries = [
      '',
      '&flagged=true',
      '&status=active',
      '&limit=1',
      '&sort=-id&limit=1',
      '&sort=mrr&limit=1',
      '&sort=-mrr&limit=1',
      '&sort=lastEvent&limit=1',
      '&sort=-lastEvent&status=active&limit=1',
      '&status=trial',
      '&status=billing_issue&store=APP_STORE&limit=1',
      '&environment=PRODUCTION&sort=-mrr&limit=1',
      '&store=APP_STORE&environment=PRODUCTION&flagged=false&sort=lastEvent&limit=1',
      '&q=plan-&limit=1',
      '&q=plan-&sort=-id&status=active&limit=1',
    ];
    for (const query of listQueries) {
      const list = await h.request('GET', `/v1/billing/customers?app=plans${query}`, { token: admin });
      assert.equal(list.status, 200, list.text);
      if (list.body.nextCursor)
        await h.request('GET', `/v1/billing/customers?app=plans${query}&cursor=${encodeURIComponent(list.body.nextCursor)}`, {
          token: admin,
        });
    }
    // plan-c's alias is applied by plan-a's workflow (the smaller id): the lookup answers once it has.
    await eventually(
      () => h.request('GET', '/v1/billing/customers/plan-c?app=plans', { token: admin }),
      (r) => r.status === 200,
      { what: 'plan-c to resolve' },
    );
    await h.request('GET', '/v1/billing/metrics?app=plans', { token: admin });
    // Outbound: the delivery log (paged), an endpoint's life, a test event, redeliveries.
    await eventually(
      async () => (await h.request('GET', `${endpoints}/${ep.id}/deliveries`, { token: admin })).body.deliveries,
      (d: { status: string }[]) => d.length >= 3 && d.every((x) => x.status === 'succeeded'),
      { what: 'outbound deliveries', timeoutMs: 30_000 },
    );
    const page = await h.request('GET', `${endpoints}/${ep.id}/deliveries?limit=1`, { token: admin });
    await h.request('GET', `${endpoints}/${ep.id}/deliveries?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`, { token: admin });
    await h.request('GET', endpoints, { token: admin });
    const one = await h.request('GET', `${endpoints}/${ep.id}/deliveries/${page.body.deliveries[0].id}`, { token: admin });
    assert.equal(one.status, 200, one.text);
    await h.request('PATCH', `${endpoints}/${ep.id}`, { token: admin, body: { description: 'plans' } });
    await h.request('POST', `${endpoints}/${ep.id}/secret/rotate`, { token: admin });
    await h.request('POST', `${endpoints}/${ep.id}/test`, { token: admin });
    await h.request('POST', `${endpoints}/${ep.id}/deliveries/${page.body.deliveries[0].id}/redeliver`, { token: admin });
    await h.request('POST', `${endpoints}/${ep.id}/redeliver-failed`, { token: admin, body: { since: new Date(now - DAY).toISOString() } });
    await h.request('GET', '/metrics');
    // The console: scopes, trends (daily snapshots), downgrades due, a customer's timeline, each paged.
    await h.request('GET', '/v1/console/scopes', { token: admin });
    await h.request('GET', '/v1/console/projects', { token: admin });
    const trends = await h.request('GET', '/v1/billing/trends?app=plans&days=90', { token: admin });
    assert.equal(trends.status, 200, trends.text);
    for (const path of ['/v1/billing/downgrades?app=plans&days=365&limit=1', '/v1/billing/customers/plan-c/timeline?app=plans&limit=1']) {
      const res = await h.request('GET', path, { token: admin });
      assert.equal(res.status, 200, res.text);
      if (res.body.nextCursor) await h.request('GET', `${path}&cursor=${encodeURIComponent(res.body.nextCursor)}`, { token: admin });
    }
    const inbox = new WebhookEventRepository(h.db);
    await inbox.acceptedSince('no-such-instance', new Date(now - DAY), 10);
    await inbox.reacceptedSince('no-such-instance', new Date(now - DAY), 10);
    await inbox.getMany(['app:plans|no-such-event']);
    // The event log: refusals (counted and single), every filter alone and together, a time range, a next page,
    // one entry with its body and timeline entry, and the trim of a bucket over its cap.
    await h.request('POST', '/api/saas/iap/billingprovider/webhook?app=plans', { body: {}, headers: { Authorization: 'whsec_wrong' } });
    await h.request('POST', '/api/saas/iap/billingprovider/webhook?app=plans', {
      body: { event: { type: 'X' } },
      headers: { Authorization: auth },
    });
    await h.request('POST', '/api/saas/iap/billingprovider/webhook?app=nobody', { body: {}, headers: { Authorization: auth } });
    const logged = await eventually(
      () => h.request('GET', '/v1/billing/events?app=plans&outcome=rejected', { token: admin }),
      (r) => r.status === 200 && r.body.events.length === 2,
      { what: 'the refusals in the event log' },
    );
    const since = encodeURIComponent(new Date(now - DAY).toISOString());
    for (const query of [
      '&limit=1',
      '&outcome=accepted&limit=1',
      '&reason=authorization_mismatch',
      '&type=INITIAL_PURCHASE&limit=1',
      '&subscriber=plan-a&limit=1',
      `&outcome=accepted&type=INITIAL_PURCHASE&since=${since}&until=${encodeURIComponent(new Date().toISOString())}&limit=1`,
    ]) {
      const list = await h.request('GET', `/v1/billing/events?app=plans${query}`, { token: admin });
      assert.equal(list.status, 200, list.text);
      if (list.body.nextCursor)
        await h.request('GET', `/v1/billing/events?app=plans${query}&cursor=${encodeURIComponent(list.body.nextCursor)}`, { token: admin });
    }
    await h.request('GET', '/v1/billing/events?unattributed=true', { token: admin });
    const accepted = (await h.request('GET', '/v1/billing/events?app=plans&outcome=accepted&subscriber=plan-b', { token: admin })).body
      .events[0];
    assert.equal((await h.request('GET', accepted.links.self, { token: admin })).status, 200);
    assert.equal((await h.request('GET', logged.body.events[0].links.self, { token: admin })).status, 200);
    const trimmed = new DeliveryLog(new EventLogRepository(h.db), { maxPerScope: 1, maxUnattributed: 1 }, createLogger(h.config, 'test'));
    for (const at of [new Date(now - 1000), new Date()])
      trimmed.record({ endpoint: 'app', app: 'trim', scope: 'app:trim', at, status: 200, outcome: 'accepted', reason: null });
    await trimmed.stop();
    // Dead letters: the listing with and without a status, a page after a cursor, a retry's read, the /metrics gauge.
    const deadLetters = new DeadLetterRepository(h.db);
    const parkedId = await deadLetters.park(
      {
        key: 'plans-dl',
        scope: 'app:plans',
        stage: 'relay',
        eventId: 'e',
        type: 'RENEWAL',
        subscriberId: 'plan-a',
        workflowId: null,
        reason: 'r',
        payload: '{}',
      },
      new Date(),
    );
    for (const query of ['', '&status=all', '&limit=1']) {
      const list = await h.request('GET', `/v1/billing/dead-letters?app=plans${query}`, { token: admin });
      assert.equal(list.status, 200, list.text);
    }
    await deadLetters.list('app:plans', { status: 'parked', limit: 2, after: { parkedAt: new Date(), id: parkedId } });
    await deadLetters.markRetried(parkedId, new Date());
    await h.request('GET', '/metrics');
    assert.ok(capture.queries.size > 10, `only ${capture.queries.size} query shapes were recorded`);
  });

  it('explains each recorded query shape: no collection scan on a growing collection', async () => {
    const scans: string[] = [];
    const sorts: string[] = [];
    const explained: string[] = [];
    for (const q of capture.queries.values() as Iterable<CapturedQuery>) {
      if (SMALL.has(q.collection)) continue;
      const stages = await explainStages(h.db, q);
      explained.push(`${q.shape} → ${stages.join('/')}`);
      if (stages.includes('COLLSCAN')) scans.push(q.shape);
      // An in-memory sort reads every match before the first row: only a filter bounded by a release range may.
      if (stages.includes('SORT') && !/"(versionKey|fixVersionKey)":\{"\$gte?"/.test(q.shape)) sorts.push(q.shape);
    }
    if (process.env.TEST_SHOW_PLANS === '1') console.log(explained.join('\n'));
    assert.ok(explained.length > 10, `explained only ${explained.length} shapes:\n${explained.join('\n')}`);
    assert.deepEqual(scans, [], `collection scans:\n${scans.join('\n')}\n\nall plans:\n${explained.join('\n')}`);
    assert.deepEqual(sorts, [], `in-memory sorts of an unbounded set:\n${sorts.join('\n')}\n\nall plans:\n${explained.join('\n')}`);
  });
});
