import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { messageIdFor } from '../../src/outbound/signing';
import { outboundDeliveryWorkflowId } from '../../src/contracts/workflows/outbound-delivery';
import { billingClient } from '../support/billing-client';
import { FAST_OUTBOUND_ENV, randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness, cliEnv } from '../support/harness';
import { DAY, providerEvent } from '../support/provider-events';
import { adminToken, projectToken } from '../support/tokens';

/** What the receiver answers a request with: a status (body "ok"), a status and a body, or `hang` (never answers; the sender's timeout ends it). */
type Behaviour = number | { status: number; body: string } | 'hang';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback: per path, a queue of answers (the last one repeats). */
async function startReceiver() {
  const received: Received[] = [];
  const plans = new Map<string, Behaviour[]>();
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const plan = plans.get(path) ?? [200];
      const next = plan.length > 1 ? plan.shift()! : plan[0]!;
      if (next === 'hang') {
        hanging.push(res);
        return;
      }
      res.statusCode = typeof next === 'number' ? next : next.status;
      res.end(typeof next === 'number' ? 'ok' : next.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    plan: (path: string, behaviours: Behaviour[]) => void plans.set(path, [...behaviours]),
    at: (path: string) => received.filter((r) => r.path === path),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const OUTBOUND_ENV = { ...FAST_OUTBOUND_ENV, OUTBOUND_WEBHOOKS_ACCESS_CONTACT: 'preview@example.com' };

const admin = adminToken();

async function connectApp(h: Harness, slug: string, access: boolean): Promise<string> {
  const res = await h.request('POST', '/v1/apps', { token: admin, body: { slug, name: slug } });
  assert.equal(res.status, 201, res.text);
  if (access) {
    const put = await h.request('PUT', `/v1/apps/${slug}/outbound-access`, {
      token: admin,
      body: { enabled: true, contactEmail: 'owner@example.com' },
    });
    assert.equal(put.status, 200, put.text);
  }
  return res.body.authorization as string;
}

describe('outbound webhooks (real stack, real receiver on loopback)', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const APP = `out-${randomSuffix()}`;
  let auth = '';
  const endpointsPath = `/v1/apps/${APP}/webhook-endpoints`;

  before(async () => {
    receiver = await startReceiver();
    h = await startHarness(OUTBOUND_ENV);
    auth = await connectApp(h, APP, true);
    await h.startWorker();
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  async function register(path: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
    const res = await h.request('POST', endpointsPath, { token: admin, body: { url: receiver.url(path), description: path, ...extra } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }
  const log = async (id: string) =>
    (await h.request('GET', `${endpointsPath}/${id}/deliveries`, { token: admin })).body.deliveries as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('an app without early access gets a problem+json 403 that says how to ask', async () => {
    const slug = `noaccess-${randomSuffix()}`;
    await connectApp(h, slug, false);
    const res = await h.request('POST', `/v1/apps/${slug}/webhook-endpoints`, { token: admin, body: { url: receiver.url('/x') } });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(res.body.code, 'outbound_preview');
    assert.match(res.body.detail, /private preview/);
    assert.match(res.body.detail, /preview@example\.com/);
    assert.equal((await h.request('GET', `/v1/apps/${slug}/webhook-endpoints`, { token: admin })).body.code, 'outbound_preview');
    // Only admins grant access.
    const member = projectToken([], [slug]);
    assert.equal((await h.request('PUT', `/v1/apps/${slug}/outbound-access`, { token: member, body: { enabled: true } })).status, 403);
    assert.equal((await h.request('PUT', `/v1/apps/${slug}/outbound-access`, { token: admin, body: { enabled: 'yes' } })).status, 400);
    assert.equal((await h.request('PUT', `/v1/apps/${slug}/outbound-access`, { token: admin, body: { enabled: true } })).status, 200);
    assert.equal((await h.request('GET', `/v1/apps/${slug}/webhook-endpoints`, { token: member })).status, 200);
  });

  it('delivers each applied event, signed, verifiable with standardwebhooks; the secret is shown once', async () => {
    const ep = await register('/events');
    assert.match(ep.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    const got = await h.request('GET', `${endpointsPath}/${ep.id}`, { token: admin });
    const all = await h.request('GET', endpointsPath, { token: admin });
    assert.ok(!got.text.includes(ep.secret) && !all.text.includes(ep.secret));

    const client = billingClient(h, APP, () => auth);
    const t = Date.now();
    const purchase = providerEvent('INITIAL_PURCHASE', 'alice', { at: t, expiresAt: t + 30 * DAY });
    await client.deliver(purchase);
    const [req] = await eventually(
      async () => receiver.at('/events'),
      (r) => r.length >= 1,
      { what: 'the delivery', timeoutMs: 30_000 },
    );
    const body = new Webhook(ep.secret).verify(req!.body, req!.headers as Record<string, string>) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(req!.headers['webhook-id'], messageIdFor(ep.id, purchase.id));
    assert.equal(body.type, 'INITIAL_PURCHASE');
    assert.equal(body.id, purchase.id);
    assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
    assert.deepEqual(body.data.subscriber, { id: 'alice', aliases: ['alice'] });
    assert.equal(body.data.state.status, 'active');
    assert.equal(body.data.state.entitlements[0].id, 'pro');
    assert.equal(body.data.event.id, purchase.id);

    // A redelivered provider event has no second effect and sends nothing new.
    await client.deliver(purchase);
    const entries = await eventually(
      () => log(ep.id),
      (l) => l.length === 1 && l[0].status === 'succeeded',
      { what: 'the log' },
    );
    assert.equal(entries[0].attempts[0].statusCode, 200);
    assert.equal(typeof entries[0].attempts[0].latencyMs, 'number');
  });

  it('pages the delivery log: a last page that is exactly full hands out no cursor', async () => {
    const ep = await register('/pages', { eventTypes: ['INITIAL_PURCHASE'] });
    const client = billingClient(h, APP, () => auth);
    const t = Date.now();
    for (const user of ['pager-1', 'pager-2'])
      await client.deliver(providerEvent('INITIAL_PURCHASE', user, { at: t, expiresAt: t + 30 * DAY }));
    await eventually(
      () => log(ep.id),
      (l) => l.length === 2,
      { what: 'two deliveries', timeoutMs: 30_000 },
    );
    const page = async (query: string) => (await h.request('GET', `${endpointsPath}/${ep.id}/deliveries?${query}`, { token: admin })).body;
    const whole = await page('limit=2');
    assert.equal(whole.deliveries.length, 2);
    assert.equal(whole.nextCursor, null);
    const first = await page('limit=1');
    assert.equal(first.deliveries.length, 1);
    assert.equal(typeof first.nextCursor, 'string');
    const second = await page(`limit=1&cursor=${first.nextCursor}`);
    assert.equal(second.deliveries.length, 1);
    assert.notEqual(second.deliveries[0].id, first.deliveries[0].id);
    assert.equal(second.nextCursor, null);
  });

  it('a scheduled downgrade that fires sends SUBSCRIPTION_DOWNGRADED; the event-type filter applies', async () => {
    const ep = await register('/downgrades', { eventTypes: ['SUBSCRIPTION_DOWNGRADED'] });
    const client = billingClient(h, APP, () => auth);
    const t = Date.now();
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'bob', { at: t - 1000, purchasedAt: t - 1000, expiresAt: t + 3000 }));
    await client.deliver(providerEvent('CANCELLATION', 'bob', { at: t, purchasedAt: t - 1000, expiresAt: t + 3000 }));
    const [req] = await eventually(
      async () => receiver.at('/downgrades'),
      (r) => r.length >= 1,
      { what: 'the downgrade', timeoutMs: 30_000 },
    );
    const body = new Webhook(ep.secret).verify(req!.body, req!.headers as Record<string, string>) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(body.type, 'SUBSCRIPTION_DOWNGRADED');
    assert.equal(body.data.event, null);
    assert.deepEqual(body.data.state.entitlements, []);
    assert.equal(receiver.at('/downgrades').length, 1, 'the purchase and the cancellation were filtered out');
  });

  it('retries after 500s and a timeout with the same webhook-id, then succeeds; every attempt is logged', async () => {
    receiver.plan('/flaky', [500, 500, 'hang', 204]);
    const ep = await register('/flaky');
    const test = await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin });
    assert.equal(test.status, 202, test.text);
    const [entry] = await eventually(
      () => log(ep.id),
      (l) => l[0]?.status === 'succeeded',
      { what: 'success after retries', timeoutMs: 30_000 },
    );
    assert.deepEqual(
      entry.attempts.map((a: { statusCode: number | null }) => a.statusCode),
      [500, 500, null, 204],
    );
    assert.match(entry.attempts[2].error, /timed out/);
    assert.ok(entry.attempts.slice(0, 3).every((a: { nextRetryAt: string | null }) => a.nextRetryAt !== null));
    assert.equal(entry.attempts[3].nextRetryAt, null);
    const ids = new Set(receiver.at('/flaky').map((r) => r.headers['webhook-id']));
    assert.deepEqual([...ids], [test.body.deliveryId]);
    for (const r of receiver.at('/flaky')) new Webhook(ep.secret).verify(r.body, r.headers as Record<string, string>);
  });

  it('a delivery keeps what was sent and the first 4 KiB of each answer (whole characters); the log leaves them out', async () => {
    // 4 KiB ends inside the last "é" kept: the answer keeps the whole characters before it.
    const long = 'abcdef' + '<p onclick="x">é</p>'.repeat(400);
    receiver.plan('/answers', [
      { status: 500, body: long },
      { status: 200, body: '{"ok":true}' },
    ]);
    const ep = await register('/answers');
    const test = await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin });
    assert.equal(test.status, 202, test.text);
    await eventually(
      () => log(ep.id),
      (l) => l[0]?.status === 'succeeded',
      { what: 'success after a retry', timeoutMs: 30_000 },
    );
    const detail = await h.request('GET', `${endpointsPath}/${ep.id}/deliveries/${test.body.deliveryId}`, { token: admin });
    assert.equal(detail.status, 200, detail.text);
    const sent = receiver.at('/answers');
    assert.equal(detail.body.request.body, sent[0]!.body, 'the body as sent, byte for byte');
    assert.equal(detail.body.request.url, receiver.url('/answers'));
    assert.equal(detail.body.request.headers['webhook-id'], test.body.deliveryId);
    assert.equal(detail.body.responseBodyLimitBytes, 4096);
    const [failed, ok] = detail.body.attempts;
    assert.equal(failed.statusCode, 500);
    assert.equal(failed.responseBodyTruncated, true);
    assert.equal(Buffer.byteLength(failed.responseBody), 4095);
    assert.ok(long.startsWith(failed.responseBody));
    assert.deepEqual([ok.statusCode, ok.responseBody, ok.responseBodyTruncated], [200, '{"ok":true}', false]);
    const [entry] = await log(ep.id);
    assert.ok(!('responseBody' in entry.attempts[0]) && !('request' in entry), 'the log stays light');

    const missing = await h.request('GET', `${endpointsPath}/${ep.id}/deliveries/msg_nothing`, { token: admin });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'unknown_delivery');
    assert.equal((await h.request('GET', `${endpointsPath}/${ep.id}/deliveries/not-an-id`, { token: admin })).status, 400);
    assert.equal(
      (await h.request('GET', `${endpointsPath}/${ep.id}/deliveries/${test.body.deliveryId}`, { token: projectToken([], ['other']) }))
        .status,
      403,
    );
  });

  it('410 Gone disables the endpoint at once', async () => {
    receiver.plan('/gone', [410]);
    const ep = await register('/gone');
    await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin });
    const got = await eventually(
      async () => (await h.request('GET', `${endpointsPath}/${ep.id}`, { token: admin })).body,
      (e) => e.disabled === true,
      { what: 'disabled' },
    );
    assert.equal(got.disabledReason, 'gone');
    assert.equal(receiver.at('/gone').length, 1, 'no retry after 410');
    const metrics = await eventually(
      async () => (await h.request('GET', '/metrics')).text,
      (m) => /outbound_webhook_endpoints_disabled_total [1-9]/.test(m),
      { what: 'metrics' },
    );
    assert.match(metrics, /outbound_webhook_deliveries_total\{outcome="sent"\} [1-9]/);
    assert.equal((await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin })).status, 409);
  });

  it('rotation: during the overlap both secrets sign, and either verifies', async () => {
    const ep = await register('/rotate');
    const rotated = await h.request('POST', `${endpointsPath}/${ep.id}/secret/rotate`, { token: admin });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, ep.secret);
    assert.ok(Date.parse(rotated.body.previousSecretValidUntil) > Date.now());
    await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin });
    const [req] = await eventually(
      async () => receiver.at('/rotate'),
      (r) => r.length >= 1,
      { what: 'the delivery' },
    );
    assert.equal(String(req!.headers['webhook-signature']).split(' ').length, 2);
    new Webhook(ep.secret).verify(req!.body, req!.headers as Record<string, string>);
    new Webhook(rotated.body.secret).verify(req!.body, req!.headers as Record<string, string>);
  });

  it('redeliver one delivery (same webhook-id), and every failed one since a time', async () => {
    receiver.plan('/redeliver', [500]);
    const ep = await register('/redeliver');
    const first = (await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin })).body.deliveryId as string;
    await eventually(
      () => log(ep.id),
      (l) => l[0]?.status === 'failed',
      { what: 'the schedule to run out', timeoutMs: 30_000 },
    );
    // The log says "failed" as soon as the last attempt is recorded; the workflow closes just after.
    const closed = () => h.temporal.client.workflow.getHandle(outboundDeliveryWorkflowId(APP, ep.id, first)).result();
    assert.equal(await closed(), 'failed');
    const tries = receiver.at('/redeliver').length;
    assert.ok(tries >= 5, `${tries} attempts`);

    receiver.plan('/redeliver', [200]);
    const again = await h.request('POST', `${endpointsPath}/${ep.id}/redeliver-failed`, {
      token: admin,
      body: { since: new Date(Date.now() - 60_000).toISOString() },
    });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.body.redelivered, 1);
    await eventually(
      () => log(ep.id),
      (l) => l[0]?.status === 'succeeded',
      { what: 'redelivered' },
    );
    assert.equal(await closed(), 'succeeded');

    const one = await h.request('POST', `${endpointsPath}/${ep.id}/deliveries/${first}/redeliver`, { token: admin });
    assert.equal(one.status, 202, one.text);
    await eventually(
      async () => receiver.at('/redeliver').length,
      (n) => n === tries + 2,
      { what: 'the manual redelivery' },
    );
    assert.ok(receiver.at('/redeliver').every((r) => r.headers['webhook-id'] === first));

    assert.equal((await h.request('POST', `${endpointsPath}/${ep.id}/deliveries/msg_unknown/redeliver`, { token: admin })).status, 404);
    assert.equal(
      (await h.request('POST', `${endpointsPath}/${ep.id}/redeliver-failed`, { token: admin, body: { since: 'yesterday' } })).status,
      400,
    );
  });

  it('checks the address again at delivery time (DNS or the record may have changed since registration)', async () => {
    const ep = await register('/rebind');
    await h.db.collection('outbound_webhook_endpoints').updateOne({ _id: ep.id as never }, { $set: { url: 'https://10.0.0.1/hook' } });
    await h.request('POST', `${endpointsPath}/${ep.id}/test`, { token: admin });
    const [entry] = await eventually(
      () => log(ep.id),
      (l) => l[0]?.attempts.length >= 1,
      { what: 'an attempt' },
    );
    assert.match(entry.attempts[0].error, /^refused: .*10\.0\.0\.1/);
    assert.equal(entry.attempts[0].statusCode, null);
    await h.request('PATCH', `${endpointsPath}/${ep.id}`, { token: admin, body: { disabled: true } });
  });

  it('refuses private, metadata and link-local URLs even with the development setting, bad input with 4xx, and more than 10 endpoints', async () => {
    for (const url of [
      'https://10.0.0.1/hook',
      'http://192.168.1.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://metadata.google.internal/',
      'https://[fd00:ec2::254]/',
      'https://100.64.0.1/',
      'ftp://127.0.0.1/',
    ]) {
      const res = await h.request('POST', endpointsPath, { token: admin, body: { url } });
      assert.equal(res.status, 422, `${url}: ${res.text}`);
      assert.equal(res.body.code, 'unsafe_url');
    }
    for (const body of [
      {},
      { url: 'x'.repeat(3000) },
      { url: receiver.url('/a'), eventTypes: ['lower'] },
      { url: receiver.url('/a'), extra: 1 },
      { url: receiver.url('/a'), description: 'd'.repeat(501) },
    ]) {
      const res = await h.request('POST', endpointsPath, { token: admin, body });
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 100));
    }
    assert.equal((await h.request('GET', `${endpointsPath}/nope`, { token: admin })).status, 404);
    assert.equal(
      (await h.request('GET', `${endpointsPath}/ep_01ARZ3NDEKTSV4RRFFQ69G5FAV/deliveries?limit=1000`, { token: admin })).status,
      404,
    );

    const slug = `limit-${randomSuffix()}`;
    await connectApp(h, slug, true);
    for (let i = 0; i < 10; i++) {
      assert.equal(
        (
          await h.request('POST', `/v1/apps/${slug}/webhook-endpoints`, {
            token: admin,
            body: { url: receiver.url(`/l${i}`), disabled: true },
          })
        ).status,
        201,
      );
    }
    const eleventh = await h.request('POST', `/v1/apps/${slug}/webhook-endpoints`, { token: admin, body: { url: receiver.url('/l10') } });
    assert.equal(eleventh.status, 409);
    assert.equal(eleventh.body.code, 'too_many_endpoints');
  });
});

describe('outbound webhooks: an endpoint failing for days', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const APP = `failing-${randomSuffix()}`;
  let clock = Date.now();

  before(async () => {
    receiver = await startReceiver();
    h = await startHarness(OUTBOUND_ENV);
    await connectApp(h, APP, true);
    // The worker's activities read this clock: three days pass between two deliveries without waiting for them.
    await h.startWorker({ now: () => new Date(clock) });
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('is disabled automatically after 3 days of failures, and the contact is emailed once', async () => {
    receiver.plan('/down', [503]);
    const path = `/v1/apps/${APP}/webhook-endpoints`;
    const ep = (await h.request('POST', path, { token: admin, body: { url: receiver.url('/down') } })).body as { id: string };
    const deliveries = async () =>
      (await h.request('GET', `${path}/${ep.id}/deliveries`, { token: admin })).body.deliveries as { status: string }[];
    clock = Date.now();
    await h.request('POST', `${path}/${ep.id}/test`, { token: admin });
    await eventually(deliveries, (l) => l[0]?.status === 'failed', { what: 'the first delivery to fail for good', timeoutMs: 30_000 });
    // The attempt is recorded before the endpoint's failing streak is: wait for both.
    const failing = await eventually(
      async () => (await h.request('GET', `${path}/${ep.id}`, { token: admin })).body,
      (e) => e.failingSince !== null,
      { what: 'the endpoint to be marked failing' },
    );
    assert.equal(failing.disabled, false);
    assert.equal(failing.failingSince, new Date(clock).toISOString());

    clock += 73 * 3_600_000;
    await h.request('POST', `${path}/${ep.id}/test`, { token: admin });
    const disabled = await eventually(
      async () => (await h.request('GET', `${path}/${ep.id}`, { token: admin })).body,
      (e) => e.disabled === true,
      { what: 'disabled' },
    );
    assert.equal(disabled.disabledReason, 'failing');
    // The mail is recorded just after the endpoint is disabled, by the same activity.
    const mails = await eventually(
      () =>
        h.db
          .collection('mail_outbox')
          .find({ _id: { $regex: `^outbound_disabled:${ep.id}:` } as never })
          .toArray(),
      (m) => m.length > 0,
      { what: 'the mail telling the contact' },
    );
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.to, 'owner@example.com');
    assert.match(String(mails[0]!.text), /disabled/);
    assert.equal((await h.request('POST', `${path}/${ep.id}/test`, { token: admin })).status, 409);
  });
});

describe('outbound webhooks without the development setting', () => {
  let h: Harness;
  const APP = `prod-${randomSuffix()}`;
  before(async () => {
    h = await startHarness({ OUTBOUND_WEBHOOKS_TIMEOUT_MS: '1000' });
    await connectApp(h, APP, true);
  });
  after(async () => h?.close());

  it('the CLI grants and takes away early access', async () => {
    const slug = `cli-${randomSuffix()}`;
    await connectApp(h, slug, false);
    const env = cliEnv(h);
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(__dirname, '..', '..', 'src', 'cli.js'), 'outbound-access', ...args], { env, encoding: 'utf8' });
    const list = () => h.request('GET', `/v1/apps/${slug}/webhook-endpoints`, { token: admin });
    assert.equal((await list()).status, 403);
    const on = cli('--slug', slug, '--enable', '--contact-email', 'owner@example.com');
    assert.equal(on.status, 0, on.stderr);
    assert.equal((await list()).status, 200);
    assert.equal(cli('--slug', slug, '--disable').status, 0);
    assert.equal((await list()).status, 403);
    assert.equal(cli('--slug', slug).status, 1, 'neither --enable nor --disable');
    assert.equal(cli('--slug', 'no-such-app', '--enable').status, 1);
  });

  it('refuses http, loopback addresses and names that resolve to loopback', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]/hook',
      'https://localhost/hook',
      'http://example.com/hook',
      'https://10.1.1.1/',
    ]) {
      const res = await h.request('POST', `/v1/apps/${APP}/webhook-endpoints`, { token: admin, body: { url } });
      assert.equal(res.status, 422, `${url}: ${res.text}`);
      assert.equal(res.body.code, 'unsafe_url');
    }
  });
});

describe('outbound webhooks: a worker killed mid-delivery', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const APP = `crash-${randomSuffix()}`;

  before(async () => {
    receiver = await startReceiver();
    h = await startHarness(OUTBOUND_ENV);
    await connectApp(h, APP, true);
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('the attempt runs again on another worker and the delivery is made, with one attempt record per answered attempt', async () => {
    // The first request is held open (the worker dies during it); the next is answered.
    receiver.plan('/crash', ['hang', 200]);
    const res = await h.request('POST', `/v1/apps/${APP}/webhook-endpoints`, { token: admin, body: { url: receiver.url('/crash') } });
    assert.equal(res.status, 201, res.text);
    const ep = res.body as { id: string; secret: string };
    const child = await h.spawnWorkerProcess();
    const test = await h.request('POST', `/v1/apps/${APP}/webhook-endpoints/${ep.id}/test`, { token: admin });
    assert.equal(test.status, 202);
    await eventually(
      async () => receiver.at('/crash').length,
      (n) => n >= 1,
      { what: 'the first request', timeoutMs: 30_000 },
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await h.startWorker();
    const [entry] = await eventually(
      async () => (await h.request('GET', `/v1/apps/${APP}/webhook-endpoints/${ep.id}/deliveries`, { token: admin })).body.deliveries,
      (l: any[]) => l[0]?.status === 'succeeded', // eslint-disable-line @typescript-eslint/no-explicit-any
      { what: 'the delivery after the crash', timeoutMs: 45_000 },
    );
    assert.equal(entry.attempts.length, 1);
    assert.equal(entry.attempts[0].statusCode, 200);
    const requests = receiver.at('/crash');
    assert.ok(requests.every((r) => r.headers['webhook-id'] === test.body.deliveryId));
    new Webhook(ep.secret).verify(requests.at(-1)!.body, requests.at(-1)!.headers as Record<string, string>);
  });
});

describe('outbound webhooks: deliveries started by hand are rate limited (real stack)', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const APP = `limited-${randomSuffix()}`;
  const path = `/v1/apps/${APP}/webhook-endpoints`;

  before(async () => {
    receiver = await startReceiver();
    h = await startHarness({ ...OUTBOUND_ENV, OUTBOUND_WEBHOOKS_MANUAL_PER_MINUTE: '2' });
    await connectApp(h, APP, true);
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('past the limit per endpoint, then per app: 429 with Retry-After, and nothing is started', async () => {
    const endpoints = [];
    for (let i = 0; i < 4; i++)
      endpoints.push((await h.request('POST', path, { token: admin, body: { url: receiver.url(`/l${i}`) } })).body.id as string);
    const test = (id: string) => h.request('POST', `${path}/${id}/test`, { token: admin });
    assert.deepEqual([(await test(endpoints[0]!)).status, (await test(endpoints[0]!)).status], [202, 202]);
    const refused = await test(endpoints[0]!);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    assert.ok(
      Number(refused.headers.get('retry-after')) >= 1 && Number(refused.headers.get('retry-after')) <= 60,
      refused.headers.get('retry-after') ?? '',
    );
    const redeliverAll = await h.request('POST', `${path}/${endpoints[0]}/redeliver-failed`, {
      token: admin,
      body: { since: new Date(0).toISOString() },
    });
    assert.equal(redeliverAll.status, 429, 'redeliveries count against the same limit');
    // The app's limit is three endpoints' worth: two more endpoints take two each, the fourth is refused.
    for (const id of [endpoints[1]!, endpoints[2]!]) assert.deepEqual([(await test(id)).status, (await test(id)).status], [202, 202]);
    assert.equal((await test(endpoints[3]!)).status, 429);
    const started = await h.db.collection('outbound_webhook_deliveries').countDocuments({ app: APP });
    assert.equal(started, 6, 'only the accepted test events were recorded');
  });
});
