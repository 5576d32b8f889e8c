/**
 * The event log through the real stack: deliveries to both receivers (accepted, duplicate, ignored, conflict,
 * and refused for every reason the receiver can tell), each found in its scope's log with its reason, body and
 * links; the caller's 401 stays one answer whatever the reason; filters and paging; the per-scope cap (one app's
 * flood leaves another's log alone) and the unattributed bucket; and no Authorization value in the store.
 */
import assert from 'node:assert/strict';
import { COLLECTIONS } from '../../src/store/collections';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { envelope, providerEvent } from '../support/provider-events';
import { adminToken, projectToken } from '../support/tokens';
import { TEST_OPERATOR_AUTHORIZATION } from '../support/config';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
type Json = Record<string, any>;

const APP = 'evlog';
const OTHER = 'evlog-other';
const WEBHOOK = '/api/saas/iap/billingprovider/webhook';

describe('event log: every webhook delivery, with refusal reasons, payloads and links (real stack)', function () {
  this.timeout(120_000);
  let h: Harness;
  let auth = '';
  let otherAuth = '';
  const admin = adminToken();

  before(async () => {
    h = await startHarness({ EVENT_LOG_MAX_PER_SCOPE: '100' });
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Event log' } })).body.authorization;
    otherAuth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: OTHER, name: 'Other' } })).body.authorization;
    await h.startWorker();
  });
  after(async () => h?.close());

  const post = (app: string | null, body: unknown, headers: Record<string, string>) =>
    h.request('POST', app === null ? WEBHOOK : `${WEBHOOK}?app=${app}`, { body, headers });
  const log = (query: string, token = admin) => h.request('GET', `/v1/billing/events?${query}`, { token });
  /** The log's entries once `done` holds (it is written within a moment of the answers). */
  const entries = async (query: string, done: (events: Json[]) => boolean, what: string) =>
    (
      await eventually(
        () => log(query),
        (r) => r.status === 200 && done(r.body.events),
        { what },
      )
    ).body.events as Json[];

  it('lists accepted, duplicate, ignored and conflicting deliveries, with the body and links to the customer, its timeline entry and workflow', async () => {
    const at = Date.now();
    const purchase = providerEvent('INITIAL_PURCHASE', 'log-1', { at, aliases: ['log-1', 'log-1-device'] });
    assert.equal((await post(APP, envelope(purchase), { Authorization: auth })).status, 200);
    assert.equal((await post(APP, envelope(purchase), { Authorization: auth })).body.duplicate, true);
    const other = { ...purchase, type: 'RENEWAL' };
    assert.equal((await post(APP, envelope(other), { Authorization: auth })).body.conflict, true);
    const unknown = providerEvent('SOMETHING_NEW', 'log-1', { at });
    assert.equal((await post(APP, envelope(unknown), { Authorization: auth })).body.ignoredReason, 'unknown_type');

    const events = await entries(`app=${APP}&subscriber=log-1`, (es) => es.length === 4, 'four deliveries for log-1');
    assert.deepEqual(
      events.map((e) => [e.outcome, e.reason, e.eventId, e.status]),
      [
        ['ignored', 'unknown_type', unknown.id, 200],
        ['conflict', null, purchase.id, 200],
        ['duplicate', null, purchase.id, 200],
        ['accepted', null, purchase.id, 200],
      ],
    );
    const accepted = events[3]!;
    assert.equal(accepted.type, 'INITIAL_PURCHASE');
    assert.equal(accepted.subscriberId, 'log-1');
    assert.equal(accepted.workflowId, `billing/app:${APP}/log-1`);
    assert.equal(accepted.links.customer, `/v1/billing/customers/log-1?app=${APP}`);
    assert.ok(events[1]!.deadLetterId, 'the conflict names its dead letter');
    // Any id the event named finds it.
    const byAlias = await entries(`app=${APP}&subscriber=log-1-device`, (es) => es.length === 3, 'the deliveries naming the alias');
    assert.deepEqual(
      byAlias.map((e) => e.outcome),
      ['conflict', 'duplicate', 'accepted'],
    );

    // The body as delivered, from the inbox; the timeline entry once the workflow applied it.
    const detail = await eventually(
      () => h.request('GET', accepted.links.self, { token: admin }),
      (r) => r.status === 200 && r.body.timeline !== null,
      { what: 'the timeline entry of the purchase' },
    );
    assert.equal(detail.body.bodySource, 'inbox');
    assert.deepEqual(detail.body.body, purchase);
    assert.equal(detail.body.timeline.customerId, 'log-1');
    assert.equal(detail.body.timeline.entry.eventId, purchase.id);
    assert.equal(detail.body.timeline.entry.after.status, 'active');
    const timeline = await h.request('GET', accepted.links.timelineEntry, { token: admin });
    assert.equal(timeline.status, 200);
    assert.deepEqual(timeline.body.entry, detail.body.timeline.entry);
    // The conflict shows the second body, from its dead letter.
    const conflict = await h.request('GET', events[1]!.links.self, { token: admin });
    assert.equal(conflict.body.bodySource, 'dead_letter');
    assert.equal(conflict.body.body.type, 'RENEWAL');
  });

  it('refuses for many reasons with one 401 to the caller, and tells the operator which', async () => {
    const jwt = adminToken();
    const attempts: [string, Record<string, string>][] = [
      ['missing_authorization', {}],
      ['authorization_mismatch', { Authorization: 'whsec_not-the-value' }],
      ['bearer_prefix', { Authorization: `Bearer ${auth}` }],
      ['token_not_webhook_value', { Authorization: `Bearer ${jwt}` }],
    ];
    const body = envelope(providerEvent('RENEWAL', 'log-2', { at: Date.now() }));
    const answers = new Set<string>();
    for (const [, headers] of attempts) {
      const res = await post(APP, body, headers);
      assert.equal(res.status, 401);
      answers.add(JSON.stringify({ ...res.body, requestId: undefined }) + res.headers.get('www-authenticate'));
    }
    const unknownApp = await post('no-such-app', body, { Authorization: auth });
    assert.equal(unknownApp.status, 401);
    answers.add(JSON.stringify({ ...unknownApp.body, requestId: undefined }) + unknownApp.headers.get('www-authenticate'));
    assert.equal(answers.size, 1, `one answer for every refusal: ${[...answers].join(' | ')}`);

    const rejected = await entries(
      `app=${APP}&outcome=rejected`,
      (es) => attempts.every(([reason]) => es.some((e) => e.reason === reason)),
      'every refusal reason',
    );
    for (const e of rejected.filter((x) => x.status === 401)) {
      assert.equal(e.eventId, null, 'nothing of an unauthorized body is read');
      assert.ok(e.count >= 1);
    }
    // The unknown app cannot be attributed: its own bucket, for admins.
    const unattributed = await entries(
      'unattributed=true',
      (es) => es.some((e) => e.reason === 'unknown_app' && e.app === 'no-such-app'),
      'the unknown app',
    );
    assert.equal(unattributed[0]!.bucket, 'unattributed');
    assert.equal((await log('unattributed=true', projectToken([], ['*']))).status, 403);
    // Operator receiver: its own scope.
    assert.equal(
      (
        await h.request('POST', '/api/billing/billingprovider/webhook', {
          body,
          headers: { Authorization: `Bearer ${TEST_OPERATOR_AUTHORIZATION}` },
        })
      ).status,
      401,
    );
    await entries(
      'outcome=rejected',
      (es) => es.some((e) => e.reason === 'bearer_prefix' && e.endpoint === 'operator'),
      'the operator refusal',
    );
    // Counted for alerting too.
    const metrics = (await h.request('GET', '/metrics')).text;
    assert.match(metrics, /billing_webhook_refusals_total\{endpoint="app",reason="bearer_prefix"\} [1-9]/);
    assert.match(metrics, /billing_webhook_refusals_total\{endpoint="app",reason="unknown_app"\} [1-9]/);
  });

  it('records refusals after authorization with the parse error or the schema errors and the body as sent', async () => {
    assert.equal(
      (
        await h.request('POST', `${WEBHOOK}?app=${APP}`, {
          raw: '{"event":',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
        })
      ).status,
      400,
    );
    assert.equal((await post(APP, { api_version: '1.0', event: { type: 'RENEWAL' } }, { Authorization: auth })).status, 400);
    assert.equal(
      (
        await h.request('POST', `${WEBHOOK}?app=${APP}`, {
          raw: 'x'.repeat(300 * 1024),
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
        })
      ).status,
      413,
    );
    assert.equal(
      (await h.request('POST', `${WEBHOOK}?app=${APP}`, { raw: 'hello', headers: { Authorization: auth, 'Content-Type': 'text/plain' } }))
        .status,
      415,
    );
    assert.equal((await h.request('POST', WEBHOOK, { body: {}, headers: { Authorization: auth } })).status, 400);
    const rejected = await entries(
      `app=${APP}&outcome=rejected`,
      (es) => ['malformed_json', 'invalid_event', 'too_large', 'unsupported_media_type'].every((r) => es.some((e) => e.reason === r)),
      'the refusals after authorization',
    );
    const invalid = rejected.find((e) => e.reason === 'invalid_event')!;
    assert.equal(invalid.status, 400);
    assert.match(invalid.detail, /id/);
    assert.equal(invalid.type, 'RENEWAL');
    const detail = await h.request('GET', invalid.links.self, { token: admin });
    assert.equal(detail.body.bodySource, 'excerpt');
    assert.deepEqual(JSON.parse(detail.body.bodyExcerpt), { api_version: '1.0', event: { type: 'RENEWAL' } });
    assert.equal(rejected.find((e) => e.reason === 'too_large')!.status, 413);
    await entries('unattributed=true', (es) => es.some((e) => e.reason === 'missing_app' && e.status === 400), 'the missing app');
  });

  it('filters by type, outcome, subscriber and time, and pages by cursor', async () => {
    const t0 = new Date();
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await post(APP, envelope(providerEvent('RENEWAL', `page-${i}`, { at: Date.now() })), { Authorization: auth })).status,
        200,
      );
    const since = `since=${encodeURIComponent(t0.toISOString())}`;
    const all = await entries(`app=${APP}&type=RENEWAL&outcome=accepted&${since}`, (es) => es.length === 5, 'five renewals');
    assert.deepEqual(
      all.map((e) => e.subscriberId),
      ['page-4', 'page-3', 'page-2', 'page-1', 'page-0'],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await log(`app=${APP}&type=RENEWAL&outcome=accepted&${since}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      seen.push(...res.body.events.map((e: { subscriberId: string }) => e.subscriberId));
      cursor = res.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['page-4', 'page-3', 'page-2', 'page-1', 'page-0']);
    const until = (await log(`app=${APP}&type=RENEWAL&${since}&until=${encodeURIComponent(t0.toISOString())}`)).body.events;
    assert.deepEqual(until, []);
    assert.equal((await log(`app=${APP}&outcome=lost`)).status, 400);
    assert.equal((await log(`app=${APP}&since=yesterday`)).status, 400);
  });

  it("keeps each scope's log to its cap: a flood into one app leaves another's entries and counts refusals before authorization", async () => {
    assert.equal(
      (await post(OTHER, envelope(providerEvent('RENEWAL', 'calm', { at: Date.now() })), { Authorization: otherAuth })).status,
      200,
    );
    await entries(`app=${OTHER}`, (es) => es.length === 1, "the other app's one delivery");
    // 150 authorized but invalid deliveries (each its own entry) and 150 with a wrong value (counted per minute).
    await Promise.all(
      Array.from({ length: 150 }, (_, i) => post(APP, { api_version: '1.0', event: { type: `FLOOD_${i}` } }, { Authorization: auth })),
    );
    await Promise.all(Array.from({ length: 150 }, () => post(APP, {}, { Authorization: 'whsec_guess' })));
    // One more once every flood delivery was answered: the newest for certain (the flood's own arrive in any order,
    // and the log writes each after its answer, in batches).
    await post(APP, { api_version: '1.0', event: { type: 'FLOOD_LAST' } }, { Authorization: auth });
    await eventually(
      async () => ({
        n: await h.db.collection(COLLECTIONS.eventLog).countDocuments({ bucket: `app:${APP}` }),
        last: (await log(`app=${APP}&type=FLOOD_LAST`)).body.events.length,
      }),
      ({ n, last }) => n <= 100 && n > 0 && last === 1,
      { what: `app:${APP} trimmed to its cap, its newest entry kept` },
    );
    const other = (await log(`app=${OTHER}`)).body.events;
    assert.deepEqual(
      other.map((e: { subscriberId: string }) => e.subscriberId),
      ['calm'],
    );
    const counted = (es: Json[]) => es.filter((e) => e.reason === 'authorization_mismatch');
    const guesses = counted(
      await entries(
        `app=${APP}&reason=authorization_mismatch`,
        (es) => counted(es).reduce((n, e) => n + e.count, 0) >= 150,
        'every guess counted',
      ),
    );
    assert.ok(guesses.length <= 3, `counted per minute, not one entry each: ${guesses.length}`);
  });

  it('reads like the dashboard: a token for another app gets 403, and no Authorization value is ever stored', async () => {
    assert.equal((await log(`app=${APP}`, projectToken([], [OTHER]))).status, 403);
    assert.equal((await log(`app=${APP}`, projectToken([], [APP]))).status, 200);
    // No app and not an admin: the app was forgotten; the operator scope is for admins.
    const missing = await log('outcome=accepted', projectToken([], [APP]));
    assert.deepEqual([missing.status, missing.body.code], [400, 'missing_app']);
    const stored = JSON.stringify(await h.db.collection(COLLECTIONS.eventLog).find({}).toArray());
    assert.ok(stored.length > 1000);
    for (const secret of [auth, otherAuth, TEST_OPERATOR_AUTHORIZATION, 'whsec_guess', 'whsec_not-the-value'])
      assert.ok(!stored.includes(secret), 'no Authorization value in the event log');
  });
});
