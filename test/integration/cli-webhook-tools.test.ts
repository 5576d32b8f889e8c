/**
 * Trying webhooks by hand through the real stack: `cli trigger` tells one subscriber's story (purchase, renewal,
 * cancellation, expiration, refund, trial conversion) whose effects on the customer and on MRR are what the provider's rules say
 * (/work/shared/docs/billing-provider.md: MRR is the monthly-normalised USD price of active, paid, unexpired,
 * non-sandbox subscriptions; an EXPIRATION ends access at its period's end; a refund ends it now), and
 * `cli listen --forward-to` registers an endpoint, verifies each signed delivery and forwards it to a handler.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { FAST_OUTBOUND_ENV, randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { cliEnv, startHarness, type Harness } from '../support/harness';
import { adminToken } from '../support/tokens';

const CLI = join(__dirname, '..', '..', 'src', 'cli.js');
const DAY = 86_400_000;

const triggerArgs = (type: string, user: string, app: string, authorization: string, api: string) => [
  'trigger',
  ...['--type', type, '--user', user, '--app', app, '--authorization', authorization, '--api', api],
];

describe('cli trigger and cli listen (real stack)', function () {
  this.timeout(120_000);
  let h: Harness;
  let cwd: string;
  const admin = adminToken();
  before(async () => {
    h = await startHarness(FAST_OUTBOUND_ENV);
    await h.startWorker();
    cwd = mkdtempSync(join(tmpdir(), 'cli-hooks-'));
  });
  after(async () => {
    await h?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  // Asynchronously: the API and the worker run in this process.
  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(h), cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // 'close', not 'exit': output can still arrive after the process exits (one run lost a line that way).
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  }

  async function connectApp(): Promise<{ slug: string; authorization: string }> {
    const slug = `story-${randomSuffix()}`;
    const res = await h.request('POST', '/v1/apps', { token: admin, body: { slug, name: slug } });
    assert.equal(res.status, 201, res.text);
    return { slug, authorization: res.body.authorization as string };
  }

  it('trigger: purchase, renewal, expiration and refund of one subscription move entitlement and MRR as the provider’s rules say', async () => {
    const { slug, authorization } = await connectApp();
    const trigger = async (type: string, user: string, ...extra: string[]) => {
      const out = await run([...triggerArgs(type, user, slug, authorization, h.baseUrl), ...extra]);
      assert.equal(out.code, 0, out.stdout + out.stderr);
      return out.stdout;
    };
    const customer = (id: string) => h.request('GET', `/v1/billing/customers/${id}?app=${slug}`, { token: admin });
    const mrr = async () => (await h.request('GET', `/v1/billing/metrics?app=${slug}`, { token: admin })).body;
    const settled = <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string) => eventually(read, ok, { what, timeoutMs: 30_000 });

    const started = Date.now();
    const bought = await trigger('INITIAL_PURCHASE', 'ana');
    assert.match(bought, /INITIAL_PURCHASE of subscription otx_\w+, period 1 .*pro_monthly 9\.99 USD, APP_STORE, PRODUCTION/);
    const first = await settled(
      () => customer('ana'),
      (r) => r.status === 200 && r.body.entitlements.length === 1,
      'the purchase applied',
    );
    assert.equal(first.body.status, 'active');
    assert.equal(first.body.entitlements[0].id, 'pro');
    // A monthly $9.99 subscription counts $9.99 a month.
    await settled(mrr, (m) => m.mrr.amount === 9.99 && m.activeSubscriptions === 1, 'MRR of one monthly subscription');

    await trigger('RENEWAL', 'ana');
    // The same subscription renewed: access to the end of the second period, still one subscription, same MRR.
    const renewed = await settled(
      () => customer('ana'),
      (r) => Date.parse(r.body.entitlements[0]?.expiresAt ?? '') - started > 55 * DAY,
      'the renewal applied',
    );
    assert.equal(renewed.body.entitlements.length, 1);
    const periodEnd = Date.parse(renewed.body.entitlements[0].expiresAt);
    assert.ok(periodEnd - started <= 61 * DAY, 'two 30-day periods, back to back');
    const afterRenewal = await mrr();
    assert.deepEqual([afterRenewal.mrr.amount, afterRenewal.activeSubscriptions], [9.99, 1], 'a renewal is not a second subscription');

    const cancelled = await trigger('CANCELLATION', 'ana');
    assert.match(cancelled, /auto-renew off: access lasts until/);
    // Auto-renew off: the downgrade is scheduled at the current period's end; access and MRR last until then.
    const ending = await settled(
      () => customer('ana'),
      (r) => r.body.scheduledDowngrade !== null,
      'the cancellation applied',
    );
    assert.equal(Date.parse(ending.body.scheduledDowngrade.at), periodEnd);
    assert.deepEqual([ending.body.status, ending.body.entitlements.length], ['cancelled', 1]);
    assert.equal((await mrr()).mrr.amount, 9.99, 'counted until the period ends');
    const expired = await trigger('EXPIRATION', 'ana');
    assert.match(expired, /access is removed at its end/);
    // The EXPIRATION ends that same period: the downgrade stays at its end.
    await settled(
      () => customer('ana'),
      (r) => r.body.lastEvent?.type === 'EXPIRATION',
      'the expiration applied',
    );
    const expiring = await customer('ana');
    assert.equal(Date.parse(expiring.body.scheduledDowngrade.at), periodEnd);
    assert.equal(expiring.body.subscriptions.length, 1, 'one subscription all along');

    // A refund takes effect now: no access, no MRR.
    await trigger('INITIAL_PURCHASE', 'fay');
    await settled(mrr, (m) => Math.abs(m.mrr.amount - 19.98) < 0.005 && m.activeSubscriptions === 2, 'MRR of two monthly subscriptions');
    await trigger('CANCELLATION', 'fay', '--refund');
    await settled(
      () => customer('fay'),
      (r) => r.body.entitlements.length === 0,
      'the refund applied',
    );
    await settled(mrr, (m) => m.mrr.amount === 9.99 && m.activeSubscriptions === 1, 'MRR without the refunded subscription');

    // Sandbox purchases entitle and add no MRR; the trigger says why.
    const sandbox = await trigger('INITIAL_PURCHASE', 'ben', '--sandbox');
    assert.match(sandbox, /SANDBOX purchases add no MRR/);
    await settled(
      () => customer('ben'),
      (r) => r.status === 200 && r.body.entitlements.length === 1,
      'the sandbox purchase applied',
    );
    assert.equal((await mrr()).mrr.amount, 9.99);

    // A yearly product in euros on Play: its USD price divided by 12 (119.99 / 12 = 9.999…, shown as 10.00).
    await trigger(
      'INITIAL_PURCHASE',
      'cai',
      '--product',
      'pro_yearly',
      '--price',
      '119.99',
      '--currency',
      'EUR',
      '--store',
      'PLAY_STORE',
      '--period',
      'P1Y',
    );
    const yearly = await settled(
      () => customer('cai'),
      (r) => r.status === 200 && r.body.entitlements.length === 1,
      'the yearly purchase applied',
    );
    assert.equal(yearly.body.entitlements[0].productId, 'pro_yearly');
    await settled(mrr, (m) => Math.abs(m.mrr.amount - 19.99) < 0.005 && m.activeSubscriptions === 2, 'MRR plus one yearly subscription');

    // A trial adds no MRR until it converts at the product's price.
    await trigger('INITIAL_PURCHASE', 'dee', '--trial');
    await settled(mrr, (m) => m.activeTrials === 1, 'the trial counted as a trial');
    assert.ok(Math.abs((await mrr()).mrr.amount - 19.99) < 0.005, 'a trial adds no MRR');
    await trigger('RENEWAL', 'dee');
    await settled(mrr, (m) => m.activeTrials === 0 && Math.abs(m.mrr.amount - 29.98) < 0.005, 'the conversion adds its price');
  });

  it('trigger run many times at once, for different subscribers: each renewal renews its own purchase', async () => {
    // As a user scripts a burst: 12 purchases at once, then their 12 renewals at once, in one folder. Each
    // subscription is what the provider would renew: the renewal names the purchase's transaction.
    const { slug, authorization } = await connectApp();
    const users = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    const transaction = (out: { code: number | null; stdout: string; stderr: string }) => {
      assert.equal(out.code, 0, out.stdout + out.stderr);
      return /of subscription (otx_\w+)/.exec(out.stdout)?.[1];
    };
    const bought = await Promise.all(users.map((u) => run(triggerArgs('INITIAL_PURCHASE', u, slug, authorization, h.baseUrl))));
    const renewed = await Promise.all(users.map((u) => run(triggerArgs('RENEWAL', u, slug, authorization, h.baseUrl))));
    assert.deepEqual(renewed.map(transaction), bought.map(transaction));
    assert.equal(new Set(bought.map(transaction)).size, users.length);
  });

  it('listen --forward-to registers an endpoint, verifies each delivery’s signature and forwards it; Ctrl-C removes the endpoint', async () => {
    const { slug, authorization } = await connectApp();
    assert.equal((await h.request('PUT', `/v1/apps/${slug}/outbound-access`, { token: admin, body: { enabled: true } })).status, 200);
    const forwarded: { headers: IncomingHttpHeaders; body: string }[] = [];
    const handler = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        forwarded.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => handler.listen(0, '127.0.0.1', r));
    const handlerUrl = `http://127.0.0.1:${(handler.address() as { port: number }).port}/hooks`;

    const listener: ChildProcess = spawn(
      process.execPath,
      [CLI, 'listen', '--app', slug, '--forward-to', handlerUrl, '--api', h.baseUrl, '--token', admin],
      { env: cliEnv(h), cwd },
    );
    let out = '';
    listener.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    listener.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await eventually(
        async () => out,
        (o) => o.includes('ready: listening'),
        { what: 'the listener to register its endpoint', timeoutMs: 30_000 },
      );
      const secret = /webhook signing secret \(for your handler's own check\): (whsec_\S+)/.exec(out)![1]!;
      const endpoints = (await h.request('GET', `/v1/apps/${slug}/webhook-endpoints`, { token: admin })).body.endpoints;
      assert.equal(endpoints.length, 1);
      assert.match(endpoints[0].url, /^http:\/\/127\.0\.0\.1:\d+\/$/);

      const sent = await run(triggerArgs('INITIAL_PURCHASE', 'eve', slug, authorization, h.baseUrl));
      assert.equal(sent.code, 0, sent.stdout + sent.stderr);
      await eventually(
        async () => forwarded.length,
        (n) => n >= 1,
        { what: 'the delivery forwarded to the handler', timeoutMs: 30_000 },
      );
      // The handler gets the body and the Standard Webhooks headers as signed by the service.
      const [delivery] = forwarded;
      const event = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as { type: string };
      assert.equal(event.type, 'INITIAL_PURCHASE');
      await eventually(
        async () => out,
        (o) => /verified \S+ INITIAL_PURCHASE -> http:\/\/127\.0\.0\.1:\d+\/hooks 204/.test(o),
        { what: 'the listener to report the forward' },
      );
      // A forged delivery is refused, not forwarded.
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)![1]!;
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        body: delivery!.body,
        headers: {
          'webhook-id': 'msg_forged',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,Zm9yZ2Vk',
        },
      });
      assert.equal(forged.status, 401);
      assert.equal(forwarded.length, 1);
    } finally {
      listener.kill('SIGINT');
      await new Promise((r) => listener.once('close', r));
      handler.close();
    }
    assert.match(out, /endpoint removed/);
    assert.equal((await h.request('GET', `/v1/apps/${slug}/webhook-endpoints`, { token: admin })).body.endpoints.length, 0);
  });

  it('listen says what to do when the app has no early access', async () => {
    const { slug } = await connectApp();
    const out = await run(['listen', '--app', slug, '--forward-to', 'http://127.0.0.1:9/hooks', '--api', h.baseUrl, '--token', admin]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /403 outbound_preview/);
    assert.match(out.stderr, new RegExp(`outbound-access --slug ${slug} --enable`));
  });
});
