import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness';
import { adminToken, projectToken } from '../support/tokens';

import { TEST_OPERATOR_AUTHORIZATION, randomSuffix } from '../support/config';
import { envelope, eventId, providerEvent } from '../support/provider-events';

// A slug of its own: suites share one Temporal namespace, and workflow ids are derived from the scope.
const APP = `acme-${randomSuffix()}`;

const APP_HOOK = '/api/saas/iap/billingprovider/webhook';
const OPERATOR_HOOK = '/api/billing/billingprovider/webhook';

describe('billing webhooks: receivers, authorization, bad input (real stack)', () => {
  let h: Harness;
  let auth: string;
  before(async () => {
    h = await startHarness();
    const res = await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Acme iOS' } });
    assert.equal(res.status, 201, res.text);
    auth = res.body.authorization;
    assert.match(auth, /^whsec_[A-Za-z0-9_-]{40,}$/);
    assert.equal(res.body.webhookUrl, `${h.config.http.publicBaseUrl}${APP_HOOK}?app=${APP}`);
    assert.equal((await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: 'other', name: 'Other' } })).status, 201);
  });
  after(async () => h?.close());

  const post = (path: string, body: unknown, authorization?: string, headers: Record<string, string> = {}) =>
    h.request('POST', path, { body, headers: { ...(authorization ? { Authorization: authorization } : {}), ...headers } });

  it('never shows the stored secret again', async () => {
    const one = await h.request('GET', `/v1/apps/${APP}`, { token: adminToken() });
    const all = await h.request('GET', '/v1/apps', { token: adminToken() });
    assert.equal(one.status, 200);
    assert.ok(!one.text.includes(auth) && !all.text.includes(auth));
    assert.ok(!/digest/i.test(one.text + all.text), 'no digest in responses');
    assert.equal((await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'again' } })).status, 409);
    assert.equal((await h.request('GET', '/v1/apps', { token: projectToken(['*'], ['*']) })).status, 403);
  });

  it('401 for a missing, wrong, other app’s or unknown-slug authorization, with no hint which', async () => {
    const other = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: 'third', name: 'Third' } })).body
      .authorization as string;
    const ev = envelope(providerEvent('INITIAL_PURCHASE', 'u-auth', { at: Date.now() }));
    const answers = await Promise.all([
      post(`${APP_HOOK}?app=${APP}`, ev),
      post(`${APP_HOOK}?app=${APP}`, ev, 'wrong'),
      post(`${APP_HOOK}?app=${APP}`, ev, other),
      post(`${APP_HOOK}?app=ghost`, ev, auth),
    ]);
    for (const res of answers) {
      assert.equal(res.status, 401);
      assert.equal(res.body.detail, answers[0]!.body.detail);
    }
  });

  it('400 without the app parameter; the operator endpoint refuses anything but its configured value', async () => {
    const ev = envelope(providerEvent('INITIAL_PURCHASE', 'u-x', { at: Date.now() }));
    assert.equal((await post(APP_HOOK, ev, auth)).status, 400);
    assert.equal((await post(OPERATOR_HOOK, ev, auth)).status, 401);
    assert.equal((await post(OPERATOR_HOOK, ev)).status, 401);
  });

  it('415, 400 (malformed JSON), 400 (no event.id or event.type), 413 past 256 KiB', async () => {
    assert.equal(
      (await h.request('POST', `${APP_HOOK}?app=${APP}`, { raw: 'x=1', headers: { Authorization: auth, 'Content-Type': 'text/plain' } }))
        .status,
      415,
    );
    const malformed = await h.request('POST', `${APP_HOOK}?app=${APP}`, {
      raw: '{"event":',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.match(malformed.headers.get('content-type') ?? '', /problem\+json/);
    const noId = await post(`${APP_HOOK}?app=${APP}`, { api_version: '1.0', event: { type: 'RENEWAL' } }, auth);
    assert.equal(noId.status, 400);
    assert.deepEqual(
      noId.body.errors.map((e: { path: string }) => e.path),
      ['/event/id'],
    );
    assert.equal((await post(`${APP_HOOK}?app=${APP}`, { api_version: '1.0', event: { id: 'x' } }, auth)).status, 400);
    const big = envelope(providerEvent('RENEWAL', 'u-big', { at: Date.now(), padding: 'x'.repeat(300 * 1024) }));
    assert.equal((await post(`${APP_HOOK}?app=${APP}`, big, auth)).status, 413);
  });

  it('acknowledges unknown types with exactly 200 and no effect', async () => {
    const res = await post(
      `${APP_HOOK}?app=${APP}`,
      { api_version: '1.0', event: { id: eventId('future'), type: 'SOMETHING_NEW', app_user_id: 'u-new', extra: { nested: true } } },
      auth,
    );
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['duplicate', 'eventId', 'ignored', 'ignoredReason', 'received']);
    assert.equal(res.body.ignored, true);
    assert.equal(res.body.ignoredReason, 'unknown_type');
    assert.equal(res.body.duplicate, false);
  });

  it('says why an event is ignored: a TEST event, an event that names no subscriber (also on redelivery)', async () => {
    const test = await post(`${APP_HOOK}?app=${APP}`, envelope(providerEvent('TEST', 'u-test', { at: Date.now() })), auth);
    assert.deepEqual([test.body.ignored, test.body.ignoredReason], [true, 'test_event']);
    const nobody = { api_version: '1.0', event: { id: eventId('nobody'), type: 'RENEWAL', product_id: 'p' } };
    for (const duplicate of [false, true]) {
      const res = await post(`${APP_HOOK}?app=${APP}`, nobody, auth);
      assert.deepEqual([res.status, res.body.duplicate, res.body.ignored, res.body.ignoredReason], [200, duplicate, true, 'no_subscriber']);
    }
    const applied = await post(`${APP_HOOK}?app=${APP}`, envelope(providerEvent('INITIAL_PURCHASE', 'u-reason', { at: Date.now() })), auth);
    assert.equal('ignoredReason' in applied.body, false);
  });

  it('a redelivered event id is 200 with duplicate: true', async () => {
    const ev = envelope(providerEvent('TEST', 'u-dup', { at: Date.now() }));
    assert.equal((await post(`${APP_HOOK}?app=${APP}`, ev, auth)).body.duplicate, false);
    const again = await post(`${APP_HOOK}?app=${APP}`, ev, auth);
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
  });

  it('the operator endpoint accepts its configured value', async () => {
    const res = await post(OPERATOR_HOOK, envelope(providerEvent('TEST', 'org-x', { at: Date.now() })), TEST_OPERATOR_AUTHORIZATION);
    assert.equal(res.status, 200);
  });

  it('rotation: old and new value both work within the grace period', async () => {
    const rotated = await h.request('POST', '/v1/apps/other/webhook-authorization/rotate', { token: adminToken() });
    assert.equal(rotated.status, 200);
    assert.ok(new Date(rotated.body.previousValidUntil).getTime() > Date.now() + 23 * 3600 * 1000);
    const created = await h.request('GET', '/v1/apps/other', { token: adminToken() });
    assert.ok(created.body.previousAuthorizationValidUntil);
    const ev = () => envelope(providerEvent('TEST', 'u-rot', { at: Date.now() }));
    assert.equal((await post(`${APP_HOOK}?app=other`, ev(), rotated.body.authorization)).status, 200);
  });

  it('two rotations at once keep the value in use working; a revoking rotation stops every earlier value at once', async () => {
    const created = await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: 'twice', name: 'Twice' } });
    const inUse = created.body.authorization;
    const rotate = (query = '') => h.request('POST', `/v1/apps/twice/webhook-authorization/rotate${query}`, { token: adminToken() });
    const [a, b] = await Promise.all([rotate(), rotate()]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    const ev = () => envelope(providerEvent('TEST', 'u-twice', { at: Date.now() }));
    for (const value of [inUse, a.body.authorization, b.body.authorization])
      assert.equal((await post(`${APP_HOOK}?app=twice`, ev(), value)).status, 200);
    assert.equal((await rotate('?revokePrevious=maybe')).status, 400);
    const revoked = await rotate('?revokePrevious=true');
    assert.equal(revoked.status, 200);
    for (const value of [inUse, a.body.authorization, b.body.authorization])
      assert.equal((await post(`${APP_HOOK}?app=twice`, ev(), value)).status, 401);
    assert.equal((await post(`${APP_HOOK}?app=twice`, ev(), revoked.body.authorization)).status, 200);
    assert.equal((await h.request('GET', '/v1/apps/twice', { token: adminToken() })).body.previousAuthorizationValidUntil, null);
  });
});

describe('billing webhooks: rotated-out value after the grace period', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ WEBHOOK_ROTATION_GRACE_HOURS: '0' });
  });
  after(async () => h?.close());

  it('401 for the previous value once the grace period has passed; 200 for the new one', async () => {
    const first = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Acme' } })).body
      .authorization as string;
    const ev = () => envelope(providerEvent('TEST', 'u', { at: Date.now() }));
    assert.equal((await h.request('POST', `${APP_HOOK}?app=${APP}`, { body: ev(), headers: { Authorization: first } })).status, 200);
    const second = (await h.request('POST', `/v1/apps/${APP}/webhook-authorization/rotate`, { token: adminToken() })).body
      .authorization as string;
    assert.equal((await h.request('POST', `${APP_HOOK}?app=${APP}`, { body: ev(), headers: { Authorization: first } })).status, 401);
    assert.equal((await h.request('POST', `${APP_HOOK}?app=${APP}`, { body: ev(), headers: { Authorization: second } })).status, 200);
  });
});
