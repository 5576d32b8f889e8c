/**
 * The operator console in a real browser: Debian's chromium driven by puppeteer-core. Opens the console with a
 * token in the URL fragment, picks an app, checks the trend chart's points, opens a customer found by an alias
 * and reads its timeline after events sent through the real webhook, works the lists, and follows an
 * invocation to its rendered document. Screenshots of each view go to test-output/screenshots/ (git-ignored).
 * Without chromium (scripts/ensure-chromium.sh installs it when it can) the suite is skipped, loudly.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core' with { 'resolution-mode': 'import' };
import { BillingDailyRepository, utcDay } from '../../src/store/billing-daily';
import { billingClient } from '../support/billing-client';
import { axeCheck, launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { rewrite, startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { DeadLetterRepository } from '../../src/store/dead-letters';
import { DeliveryRepository, EndpointRepository } from '../../src/store/outbound';
import { startHarness, type Harness } from '../support/harness';
import { DAY, providerEvent } from '../support/provider-events';
import { repoRoot } from '../support/repo-root';
import { adminToken, expiredToken, projectToken } from '../support/tokens';
import { invoke, loadDemo, PROJECT } from './skills-helpers';

const APP = 'console-ui';
/** Where the screenshots go: CONSOLE_SCREENSHOTS_DIR (e.g. outside the repository, for a reviewer), else test-output/. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS_DIR || join(repoRoot(), 'test-output', 'screenshots');
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

describe('operator console in a real browser (chromium)', function () {
  this.timeout(180_000);
  let h: Harness;
  let browser: Browser | null = null;
  let page: Page;
  let llm: FakeLlm | null = null;
  let auth = '';
  const problems: string[] = [];

  before(async function () {
    // In CI a missing browser is a failure, never a pass by omission (elsewhere the suite is skipped, loudly).
    browser = await launchChromium(this);
    // A model that rewrites release notes and never answers for a proposal, so one invocation stays running.
    llm = await startFakeLlm();
    llm.handle((req) => (JSON.stringify(req.body).includes('Harbor') ? { hang: true } : rewrite(req)));
    h = await startHarness({
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '120000',
    });
    await loadDemo(h);
    await h.startWorker();
    auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Console UI' } })).body.authorization;
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    // A CSP violation or a script error fails the suite: the page must work under its strict policy.
    // A failed request is reported with its address below; the one expected is the private preview's 403 for an app
    // without outbound webhooks, which the work list shows as such.
    const expected = (status: number, url: string) => status === 403 && /\/v1\/apps\/[^/]+\/webhook-endpoints$/.test(url);
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 403/.test(m.text())) problems.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !expected(r.status(), r.url())) problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await h?.close();
    await llm?.close();
  });

  /** A full-page screenshot once the page has drawn a frame with what it shows now (so its full height is known). */
  const capture = async (p: Page, name: string) => {
    await p.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const shot = (name: string) => capture(page, name);
  const ready = (view: string) => page.waitForSelector(`#view [data-view="${view}"][data-ready="true"]`, { timeout: 30_000 });
  it('opens with a token in the fragment, lists the scopes, and keeps the picked app in the URL (not the token)', async () => {
    // Yesterday's point, as kept by the totals write (or the backfill); today's comes from the events below.
    await new BillingDailyRepository(h.db).replace(
      `app:${APP}`,
      {
        day: utcDay(Date.now() - DAY),
        mrrMicros: 4_990_000,
        activeSubscriptions: 1,
        activeTrials: 0,
        flaggedCustomers: 0,
        scheduledDowngrades: 0,
        churned: 0,
      },
      new Date(),
    );
    const member = projectToken([PROJECT], [APP]);
    await page.goto(`${h.baseUrl}/dashboard#token=${member}`);
    await page.waitForSelector(`#scope option[value="app:${APP}"]`);
    assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
    const options = await page.$$eval('#scope option', (os) => os.map((o) => (o as unknown as { value: string }).value).filter(Boolean));
    assert.deepEqual(options, [`app:${APP}`], 'a member sees its app only, not the operator scope');
    await page.select('#scope', `app:${APP}`);
    await ready('trends');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('app'), APP);
    assert.doesNotMatch(page.url(), /token|eyJ/);
  });

  it('draws the trend charts with one point per day, and no value before the first point', async () => {
    await page.waitForSelector('#chart-mrr[data-points="30"] canvas');
    await page.waitForSelector('#chart-counts[data-points="30"] canvas');
    // The first point is yesterday's (kept above): the days before it have no value, not a zero.
    const rows = await page.$$eval('#points-table tbody tr', (trs) => trs.length);
    assert.equal(rows, 2);
    assert.equal(await page.$eval('#chart-mrr', (e) => e.getAttribute('data-first-day')), utcDay(Date.now() - DAY));
    await shot('trends-30');
    await page.click('a[href*="days=90"]');
    await page.waitForSelector('#chart-mrr[data-points="90"] canvas', { timeout: 30_000 });
    assert.equal(new URL(page.url()).searchParams.get('days'), '90');
    await shot('trends-90');
  });

  it('finds a customer by an alias and shows its timeline after events sent through the webhook', async () => {
    const client = billingClient(h, APP, () => auth);
    const now = Date.now();
    // Each applied before the next is sent: events relayed together may be applied in any order (each write's
    // entries come after the previous write's), and this test reads the timeline, not the relay's order.
    await client.deliver(
      providerEvent('INITIAL_PURCHASE', 'ui-1', { at: now - 2 * DAY, aliases: ['ui-1', 'ui-1-device'], expiresAt: now + 5 * DAY }),
    );
    await client.settled('ui-1', 1);
    await client.deliver(providerEvent('BILLING_ISSUE', 'ui-1', { at: now - DAY }));
    await client.settled('ui-1', 2);
    await client.deliver(
      providerEvent('CANCELLATION', 'ui-1', {
        at: now - DAY + 1000,
        purchasedAt: now - 2 * DAY,
        expiresAt: now + 5 * DAY,
        cancel_reason: 'UNSUBSCRIBE',
      }),
    );
    await client.settled('ui-1', 3);

    // Keyboard: the nav link is focused and followed with Enter.
    await page.focus('#nav a[data-view="customers"]');
    await page.keyboard.press('Enter');
    await ready('customers');
    await page.type('#customer-search', 'ui-1-device');
    await page.keyboard.press('Enter');
    await ready('customers');
    // No id starts with it; the customer it is an alias of is offered.
    assert.equal(new URL(page.url()).searchParams.get('q'), 'ui-1-device');
    assert.match(await page.$eval('#exact-match', (e) => e.textContent ?? ''), /“ui-1-device” is an alias of ui-1/);
    await page.click('#exact-match a');
    await ready('customer');
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get('view'), 'customer');
    assert.equal(params.get('id'), 'ui-1-device');
    const entries = await page.$$eval('#timeline li[data-event-id] strong', (els) => els.map((e) => e.textContent));
    assert.deepEqual(entries, ['CANCELLATION', 'BILLING_ISSUE', 'INITIAL_PURCHASE']);
    const changes = await page.$$eval('#timeline li[data-event-id] .change', (els) => els.map((e) => e.textContent ?? ''));
    assert.ok(
      changes.every((c) => !c.startsWith('applied with')),
      `each event was applied alone, in a write of its own: ${changes.join(' | ')}`,
    );
    assert.match(changes[2]!, /^new record → active/);
    const text = await page.$eval('#view', (e) => e.textContent ?? '');
    assert.match(text, /Customer ui-1/);
    assert.match(text, /billing_issue/);
    assert.match(text, /CANCELLATION · in 4 d/, 'the scheduled downgrade with the time left');
    // The Temporal UI is the operator's (every tenant's workflows): an app token sees the workflow id, no link.
    assert.equal(await page.$('#view a[href^="http://127.0.0.1:8233/"]'), null);
    assert.match(text, new RegExp(`billing/app:${APP}/ui-1`));
    await shot('customer');

    // The same link opens the same view in a fresh page (with a token given again in the fragment).
    const again = await browser!.newPage();
    await again.goto(`${page.url()}#token=${projectToken([PROJECT], [APP])}`);
    await again.waitForSelector('#view [data-view="customer"][data-ready="true"]');
    assert.equal(await again.$$eval('#timeline li[data-event-id]', (els) => els.length), 3);
    await again.close();
  });

  it('customer list: status, store, environment, sort and search are in the URL; a reload and a fresh page keep the view', async () => {
    const client = billingClient(h, APP, () => auth);
    const now = Date.now();
    await client.deliver(
      providerEvent('INITIAL_PURCHASE', 'ui-trial', {
        at: now - 3 * 3600_000,
        expiresAt: now + 5 * DAY,
        periodType: 'TRIAL',
        price: 0,
        environment: 'SANDBOX',
      }),
    );
    await client.deliver(
      providerEvent('INITIAL_PURCHASE', 'ui-play', { at: now - 2 * 3600_000, expiresAt: now + 30 * DAY, price: 4.99, store: 'PLAY_STORE' }),
    );
    await client.deliver(
      providerEvent('INITIAL_PURCHASE', 'ui-stripe', { at: now - 3600_000, expiresAt: now + 30 * DAY, price: 19.99, store: 'STRIPE' }),
    );
    for (const id of ['ui-trial', 'ui-play', 'ui-stripe']) await client.settled(id, 1);

    const rows = async (p: Page = page) =>
      (await p.$$eval('#customers tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-customer') ?? ''))).filter((id) =>
        id.startsWith('ui-'),
      );
    const param = (name: string) => new URL(page.url()).searchParams.get(name);
    /** Changes a filter as a person does, then waits for the list it asks for. */
    const choose = async (select: string, value: string) => {
      await page.select(select, value);
      await ready('customers');
    };
    await page.click('#nav a[data-view="customers"]');
    await ready('customers');
    assert.deepEqual(await rows(), ['ui-1', 'ui-play', 'ui-stripe', 'ui-trial']);

    await choose('#filter-status', 'active');
    assert.equal(param('status'), 'active');
    assert.deepEqual(await rows(), ['ui-play', 'ui-stripe', 'ui-trial'], 'ui-1 is cancelled');
    await choose('#filter-sort', '-mrr');
    assert.equal(param('sort'), '-mrr');
    assert.deepEqual(await rows(), ['ui-stripe', 'ui-play', 'ui-trial']);
    assert.equal(
      await page.$eval('#customers th[aria-sort]', (th) => `${th.textContent} ${th.getAttribute('aria-sort')}`),
      'MRR ↓ descending',
    );
    // The sorted column's header sorts the other way.
    await page.click('#customers th a[data-sort="mrr"]');
    await ready('customers');
    assert.equal(param('sort'), 'mrr');
    assert.deepEqual(await rows(), ['ui-trial', 'ui-play', 'ui-stripe']);
    assert.match(
      await page.$eval('#customers tr[data-customer="ui-trial"]', (tr) => tr.textContent ?? ''),
      /active.*trial.*sandbox/,
      'a trial in the sandbox says so',
    );
    await choose('#filter-store', 'PLAY_STORE');
    assert.deepEqual(await rows(), ['ui-play']);
    await choose('#filter-store', '');
    await choose('#filter-status', 'trial');
    await choose('#filter-environment', 'SANDBOX');
    assert.deepEqual(await rows(), ['ui-trial']);
    await choose('#filter-status', 'billing_issue');
    await choose('#filter-environment', '');
    assert.deepEqual(await rows(), ['ui-1']);
    await choose('#filter-status', 'cancelled');
    await choose('#filter-sort', '-lastEvent');
    assert.deepEqual(await rows(), ['ui-1']);
    await choose('#filter-status', '');
    assert.deepEqual(await rows(), ['ui-stripe', 'ui-play', 'ui-trial', 'ui-1'], 'newest last event first');
    assert.deepEqual([param('status'), param('sort')], [null, '-lastEvent']);
    await shot('customers-sorted');

    // A reload keeps the view: the same filters in the form and the same rows.
    await choose('#filter-store', 'APP_STORE');
    const address = page.url();
    await page.reload();
    await ready('customers');
    assert.equal(page.url(), address);
    assert.deepEqual(await rows(), ['ui-trial', 'ui-1']);
    assert.deepEqual(
      await page.$eval('form.filters', (f) =>
        ['store', 'sort', 'status'].map((n) => (f as unknown as { elements: Record<string, { value: string }> }).elements[n]!.value),
      ),
      ['APP_STORE', '-lastEvent', ''],
    );
    // So does a shared link, opened with another token for the same app.
    const shared = await browser!.newPage();
    await shared.goto(`${address}#token=${projectToken([PROJECT], [APP])}`);
    await shared.waitForSelector('#view [data-view="customers"][data-ready="true"]');
    assert.deepEqual(await rows(shared), ['ui-trial', 'ui-1']);
    await shared.close();

    // A search: an id prefix, in id order (the other orders are not offered with it); Clear starts over.
    await page.click('#view a[href$="view=customers"]');
    await ready('customers');
    assert.equal(new URL(page.url()).search, `?app=${APP}&view=customers`);
    await page.type('#customer-search', 'ui-');
    await page.select('#filter-sort', '-id');
    await ready('customers');
    assert.deepEqual([param('q'), param('sort')], ['ui-', '-id']);
    assert.deepEqual(await rows(), ['ui-trial', 'ui-stripe', 'ui-play', 'ui-1']);
    assert.equal(await page.$('#customers th a[data-sort$="mrr"]'), null, 'no MRR order with a search');
    await page.$eval('#customer-search', (i) => {
      (i as unknown as { value: string }).value = '';
    });
    await page.type('#customer-search', 'ui-s');
    await page.keyboard.press('Enter');
    await ready('customers');
    assert.deepEqual(await rows(), ['ui-stripe']);
    await shot('customers-search');
    await page.setViewport(PHONE);
    await page.reload();
    await ready('customers');
    await shot('customers-search-mobile');
    await page.setViewport(DESKTOP);
  });

  it('work lists: flagged customers, downgrades due, dead letters (an admin retries one)', async () => {
    // An event the relay gave up on, as it parks one.
    const parked = providerEvent('INITIAL_PURCHASE', 'ui-parked', { at: Date.now(), expiresAt: Date.now() + 30 * DAY });
    const id = await new DeadLetterRepository(h.db).park(
      {
        key: `app:${APP}|relay|${parked.id}`,
        scope: `app:${APP}`,
        stage: 'relay',
        eventId: parked.id,
        type: parked.type,
        subscriberId: 'ui-parked',
        workflowId: null,
        reason: 'not relayed for 24 h',
        payload: JSON.stringify(parked),
      },
      new Date(),
    );
    await page.click('#nav a[data-view="work"]');
    await ready('work');
    const text = await page.$eval('#view', (e) => e.textContent ?? '');
    assert.match(text, /ui-1/);
    await page.waitForSelector(`#dead-letters td ::-p-text(${parked.id})`);
    assert.equal(await page.$(`#dead-letters button[data-retry="${id}"]`), null, 'only admins may retry');
    await page.waitForSelector('#outbound-preview');

    // With early access, an endpoint whose deliveries fail is listed (as the delivery workflow marks one).
    assert.equal((await h.request('PUT', `/v1/apps/${APP}/outbound-access`, { token: adminToken(), body: { enabled: true } })).status, 200);
    const at = new Date();
    await new EndpointRepository(h.db).insert({
      _id: 'ep_01JCONSOLE0000000000000000',
      app: APP,
      url: 'https://hooks.console.example/billing',
      eventTypes: null,
      description: 'prod',
      disabled: false,
      disabledReason: null,
      secret: 'whsec_c2VjcmV0',
      previousSecret: null,
      previousSecretValidUntil: null,
      failingSince: new Date(at.getTime() - DAY),
      createdAt: at,
      updatedAt: at,
    });
    // The token lives in the page's memory only: reopen the same view with it.
    await new DeliveryRepository(h.db).ensure({
      _id: 'msg_console',
      app: APP,
      endpointId: 'ep_01JCONSOLE0000000000000000',
      eventId: 'evt-console',
      eventType: 'RENEWAL',
      body: '{}',
      status: 'failed',
      attempts: [{ attempt: 1, at, statusCode: 500, latencyMs: 120, error: 'HTTP 500', nextRetryAt: null }],
      nextRetryAt: null,
      createdAt: at,
      updatedAt: at,
    });
    const view = page.url().split('#')[0]!;
    const reopened = await browser!.newPage();
    await reopened.goto(`${view}#token=${projectToken([PROJECT], [APP])}`);
    await reopened.waitForSelector('#failing-endpoints tr[data-endpoint="ep_01JCONSOLE0000000000000000"]');
    // The endpoint's delivery log: each attempt with its status code and latency.
    await reopened.click('#failing-endpoints tr[data-endpoint="ep_01JCONSOLE0000000000000000"] a');
    await reopened.waitForSelector('#view [data-view="deliveries"][data-ready="true"]');
    const row = await reopened.$eval('#deliveries tr[data-delivery="msg_console"]', (e) => e.textContent ?? '');
    assert.match(row, /evt-console/);
    assert.match(row, /500 · 120 ms · HTTP 500/);
    assert.ok(await reopened.$('#deliveries button[data-redeliver="msg_console"]'), 'a failed delivery can be redelivered');
    await capture(reopened, 'delivery-log');
    await reopened.close();
    await shot('work-lists');

    const admin = await browser!.newPage();
    await admin.goto(`${view}#token=${adminToken()}`);
    await admin.waitForSelector('#view [data-view="work"][data-ready="true"]');
    await admin.click(`#dead-letters button[data-retry="${id}"]`);
    await admin.waitForSelector(`#dead-letters button[data-retry="${id}"]::-p-text(Retry requested)`);
    await admin.close();
    await eventually(
      () => h.request('GET', `/v1/billing/customers/ui-parked?app=${APP}`, { token: adminToken() }),
      (r) => r.body?.status === 'active',
      {
        what: 'the retried event to entitle ui-parked',
      },
    );
  });

  it("a delivery's payload and each answer open in place, as text (an answer's markup is never parsed), and the open one is in the URL", async () => {
    const at = new Date();
    const payload = JSON.stringify({
      type: 'RENEWAL',
      id: 'evt-detail',
      timestamp: at.toISOString(),
      data: { subscriber: { id: 'ui-1', aliases: ['ui-1'] } },
    });
    const hostile = '<img src=x onerror="window.__hostile = 1"><b>bold</b>' + ' <p>server error</p>'.repeat(300);
    await new DeliveryRepository(h.db).ensure({
      _id: 'msg_detail',
      app: APP,
      endpointId: 'ep_01JCONSOLE0000000000000000',
      eventId: 'evt-detail',
      eventType: 'RENEWAL',
      body: payload,
      status: 'succeeded',
      attempts: [
        {
          attempt: 1,
          at: new Date(at.getTime() - 60_000),
          statusCode: 500,
          latencyMs: 80,
          error: 'HTTP 500',
          nextRetryAt: at,
          responseBody: hostile.slice(0, 4096),
          responseBodyTruncated: true,
        },
        {
          attempt: 2,
          at,
          statusCode: null,
          latencyMs: null,
          error: 'timed out after 1000 ms',
          nextRetryAt: at,
          responseBody: null,
          responseBodyTruncated: false,
        },
        {
          attempt: 3,
          at,
          statusCode: 200,
          latencyMs: 12,
          error: null,
          nextRetryAt: null,
          responseBody: '{"received":true}',
          responseBodyTruncated: false,
        },
      ],
      nextRetryAt: null,
      createdAt: new Date(at.getTime() + 1000),
      updatedAt: at,
    });
    const detail = await browser!.newPage();
    await detail.setViewport(DESKTOP);
    await detail.goto(
      `${h.baseUrl}/dashboard?app=${APP}&view=deliveries&endpoint=ep_01JCONSOLE0000000000000000#token=${projectToken([PROJECT], [APP])}`,
    );
    await detail.waitForSelector('#view [data-view="deliveries"][data-ready="true"]');
    assert.equal(
      await detail.$eval('tr[data-detail-of="msg_detail"]', (tr) => (tr as unknown as { hidden: boolean }).hidden),
      true,
      'closed until asked',
    );
    await detail.click('button[data-details="msg_detail"]');
    await detail.waitForSelector('tr[data-detail-of="msg_detail"] ol.responses');
    assert.equal(await detail.$eval('button[data-details="msg_detail"]', (b) => b.getAttribute('aria-expanded')), 'true');
    assert.equal(new URL(detail.url()).searchParams.get('delivery'), 'msg_detail');
    const text = await detail.$eval('tr[data-detail-of="msg_detail"]', (tr) => tr.textContent ?? '');
    assert.match(text, /"type": "RENEWAL"/, 'the payload, indented');
    assert.match(text, /webhook-id\s*msg_detail/);
    assert.match(text, /no answer.*timed out after 1000 ms/s);
    assert.match(text, /The first 4 KiB of a longer answer/);
    assert.match(text, /"received": true/);
    const answers = await detail.$$eval('tr[data-detail-of="msg_detail"] pre', (pres) => pres.map((p) => p.textContent ?? ''));
    assert.equal(answers[1], hostile.slice(0, 4096), 'the answer as text, character for character');
    assert.equal(
      await detail.$$eval(
        'tr[data-detail-of="msg_detail"] img, tr[data-detail-of="msg_detail"] b, tr[data-detail-of="msg_detail"] p p',
        (els) => els.length,
      ),
      0,
      'no element from the answer',
    );
    assert.equal(await detail.evaluate('window.__hostile'), undefined);
    await capture(detail, 'delivery-detail');
    // The address opens the same delivery, at a phone's width too.
    await detail.setViewport(PHONE);
    await detail.reload();
    await detail.waitForSelector('tr[data-detail-of="msg_detail"]:not([hidden]) ol.responses');
    await capture(detail, 'delivery-detail-mobile');
    assert.ok(
      Number(await detail.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) <= 1,
      'fits a phone',
    );
    // Closed again: gone from the address.
    await detail.click('button[data-details="msg_detail"]');
    assert.equal(new URL(detail.url()).searchParams.get('delivery'), null);
    await detail.close();
  });

  it('loading and error states: a slow answer shows Loading…, a 500 its problem with Retry, a refused token asks for a new one', async () => {
    const states = await browser!.newPage();
    await states.setViewport(DESKTOP);
    // Requests for the customer list are held or answered here instead of by the API.
    let mode: 'hold' | 'fail' | 'pass' = 'hold';
    const held: HTTPRequest[] = [];
    await states.setRequestInterception(true);
    states.on('request', (req) => {
      if (!/\/v1\/billing\/customers(\/ui-play)?\?/.test(req.url())) return void req.continue();
      if (mode === 'hold') return void held.push(req);
      if (mode === 'fail') {
        return void req.respond({
          status: 500,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Internal Server Error',
            status: 500,
            detail: 'The store did not answer in time',
            code: 'internal',
          }),
        });
      }
      return void req.continue();
    });
    const member = projectToken([PROJECT], [APP]);
    const address = `${h.baseUrl}/dashboard?app=${APP}&view=customers&status=active`;
    await states.goto(`${address}#token=${member}`);
    await states.waitForSelector('#view .loading[role="status"]');
    await eventually(
      async () => held.length,
      (n) => n > 0,
      { what: 'the held request' },
    );
    assert.match(await states.$eval('#view', (e) => e.textContent ?? ''), /Loading/);
    assert.equal(await states.$eval('#view [data-view="customers"]', (e) => e.getAttribute('aria-busy')), 'true');
    await capture(states, 'state-loading');
    mode = 'pass';
    for (const req of held.splice(0)) await req.continue();
    await states.waitForSelector('#view [data-view="customers"][data-ready="true"]');
    assert.equal(await states.$('#view .loading'), null, 'no loading line once loaded');
    // A view with nothing to show yet says it is loading (the customer page waits for its one request).
    mode = 'hold';
    await states.click('#customers a[href*="id=ui-play"]');
    await states.waitForSelector('#view .view-loading', { visible: true });
    await eventually(
      async () => held.length,
      (n) => n > 0,
      { what: 'the held customer request' },
    );
    await capture(states, 'state-loading-view');
    mode = 'pass';
    for (const req of held.splice(0)) await req.continue();
    await states.waitForSelector('#view [data-view="customer"][data-ready="true"]');
    assert.equal(await states.$('#view .view-loading'), null);
    await states.goBack();
    await states.waitForSelector('#view [data-view="customers"][data-ready="true"]');

    // A 500: its title and detail, and Retry loads the view again.
    mode = 'fail';
    await states.reload();
    await states.waitForSelector('#view .problem[data-status="500"]');
    const box = await states.$eval('#view .problem', (e) => e.textContent ?? '');
    assert.match(box, /Internal Server Error \(500, internal\)/);
    assert.match(box, /The store did not answer in time/);
    await axeCheck(states, 'the error state');
    await capture(states, 'state-error');
    await states.setViewport(PHONE);
    await capture(states, 'state-error-mobile');
    await states.setViewport(DESKTOP);
    mode = 'pass';
    await states.click('#view .problem button.retry');
    await states.waitForSelector('#view [data-view="customers"][data-ready="true"]');
    assert.equal(await states.$('#view .problem'), null);

    await states.setRequestInterception(false);
    await states.close();

    // A token the API refuses (expired): the view says so, the tab forgets it, and the token field asks for one.
    const refused = await browser!.newPage();
    await refused.setViewport(DESKTOP);
    await refused.goto(`${address}#token=${expiredToken()}`);
    await refused.waitForSelector('#view .problem[data-status="401"]');
    assert.match(await refused.$eval('#view .problem', (e) => e.textContent ?? ''), /Unauthorized.*Paste a new token above/s);
    assert.equal(await refused.evaluate('document.activeElement && document.activeElement.id'), 'token');
    assert.equal(await refused.evaluate('sessionStorage.length'), 0, 'the refused token is forgotten');
    assert.equal(await refused.$eval('#token-form', (f) => f.className), 'inline needs-token');
    await capture(refused, 'state-token-refused');
    await refused.setViewport(PHONE);
    await capture(refused, 'state-token-refused-mobile');
    await refused.setViewport(DESKTOP);
    // A new token opens the view that was asked for.
    await refused.type('#token', member);
    await refused.keyboard.press('Enter');
    await refused.waitForSelector('#view [data-view="customers"][data-ready="true"]');
    assert.equal(new URL(refused.url()).searchParams.get('status'), 'active');
    await refused.close();
  });

  it('lists invocations per project and follows one to its rendered document with working citations', async () => {
    const member = projectToken([PROJECT], [APP]);
    const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' }, { Prefer: 'wait=30' });
    assert.ok([200, 202].includes(res.status), res.text);
    // With a model the draft comes first; the model's version replaces it.
    const done = (
      await eventually(
        () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${res.body.id}`, { token: member }),
        (r) => r.body.status === 'completed' && r.body.revision?.final === true,
        { timeoutMs: 30_000, what: 'the model’s version' },
      )
    ).body;
    await page.click('#nav a[data-view="skills"]');
    await ready('skills');
    const row = await page.$eval('#view tbody tr', (tr) => tr.textContent ?? '');
    assert.match(row, /release_notes_composer/);
    assert.match(row, /member/, 'who asked');
    assert.match(row, /llm:fake-model/, 'the generator');
    await shot('skills');
    await page.click(`#view a[href*="id=${res.body.id}"]`);
    await ready('invocation');
    const heading = await page.$eval('#document h1, #document h2', (e) => e.textContent ?? '');
    assert.ok(heading.length > 0);
    const links = await page.$$eval('#document a.citation', (as) =>
      as.map((a) => ({ id: a.getAttribute('data-citation'), href: a.getAttribute('href') })),
    );
    assert.ok(links.length > 0, 'citations are links: ' + (await page.$eval('#document', (e) => e.innerHTML.slice(0, 1500))));
    const byId = new Map((done.result.citations as { id: string; url: string | null }[]).map((c) => [c.id, c]));
    for (const l of links) {
      const c = byId.get(l.id!);
      assert.ok(c, `${l.id} is one of the result's citations`);
      if (c.url && /^https?:/.test(c.url)) assert.equal(l.href, c.url);
      else assert.equal(l.href, `#cite-${l.id}`);
    }
    assert.equal(await page.$$eval('#citations li', (lis) => lis.length), byId.size);
    // Nothing from the document became a script or an inline handler.
    assert.equal(await page.$$eval('#document script, #document [onclick], #document [style]', (els) => els.length), 0);
    await shot('invocation');
  });

  /** A proposal the model never answers, so its draft waits for a rewrite that does not come; the skills view freshly opened. */
  async function runningProposal(format: string): Promise<{ member: string; id: string }> {
    const member = projectToken([PROJECT], [APP]);
    const res = await invoke(h, member, 'proposal_writer', { customerName: 'Harbor & Vine Market', industry: 'Retail', format });
    assert.equal(res.status, 202, res.text);
    await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${res.body.id}`, { token: member }),
      (r) => r.body.status === 'completed' && r.body.revision?.final === false && llm!.pending > 0,
      { timeoutMs: 30_000, what: 'the proposal’s draft, with the model rewriting it' },
    );
    await page.click('#nav a[data-view="trends"]');
    await ready('trends');
    await page.click('#nav a[data-view="skills"]');
    await ready('skills');
    return { member, id: res.body.id as string };
  }

  it('cancels a running invocation from its row', async () => {
    const { member, id } = await runningProposal('email');
    const button = await page.waitForSelector(`xpath/.//tr[.//a[contains(@href, "${id}")]]//button[text()="Cancel"]`);
    await shot('skills-running');
    await button!.click();
    // The rewrite stops; the draft becomes the final version.
    const final = await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${id}`, { token: member }),
      (r) => r.body.revision?.final === true,
      { timeoutMs: 30_000, what: 'the rewrite to be cancelled' },
    );
    assert.equal(final.body.result.notes.at(-1), "The model's rewrite was cancelled. This is the deterministic draft.");
  });

  it('a running invocation shows its progress live (Server-Sent Events) and its end without a reload', async () => {
    const { member, id } = await runningProposal('one-pager');
    await page.click(`#view a[href*="id=${id}"]`);
    await ready('invocation');
    await page.waitForFunction("/the model's rewrite follows/.test(document.querySelector('#progress')?.textContent ?? '')", {
      timeout: 10_000,
    });
    assert.ok(await page.$('#document'), 'the draft is shown meanwhile');
    // A mark on this document: a reload would lose it.
    await page.evaluate('window.__sameDocument = true');
    // Cancelled elsewhere: the open view learns it from its stream and shows the final state.
    assert.equal((await h.request('POST', `/v1/agents/${PROJECT}/invocations/${id}/cancel`, { token: member })).status, 202);
    await page.waitForFunction(
      "!document.querySelector('#progress') && /The model's rewrite was cancelled/.test(document.querySelector('#view')?.textContent ?? '')",
      { timeout: 15_000 },
    );
    assert.equal(await page.evaluate('window.__sameDocument === true'), true, 'no page reload');
  });

  it('keeps the token for the tab across a reload (sessionStorage, not localStorage), labels chart days in UTC and times with their zone', async () => {
    // A navigation without the token in the URL: the tab still has it.
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=trends`);
    await ready('trends');
    const stored = await page.evaluate('JSON.stringify([Object.keys(sessionStorage), Object.keys(localStorage), document.cookie])');
    const [session, local, cookie] = JSON.parse(String(stored)) as [string[], string[], string];
    assert.equal(session.length, 1, 'the token is kept for this tab');
    assert.deepEqual([local, cookie], [[], ''], 'never in localStorage or a cookie');
    // West of UTC, a UTC day must still be labelled as that day.
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'America/Los_Angeles' });
    await page.reload();
    await ready('trends');
    // The ticks are drawn on a canvas (in UTC, tzDate); the legend names the day's zone.
    const legend = String(await page.evaluate("document.querySelector('#chart-mrr .u-legend')?.textContent ?? ''"));
    assert.match(legend, /Day \(UTC\)/);
    const updated = String(await page.evaluate("document.querySelector('.cards')?.textContent ?? ''"));
    assert.match(updated, /PST|PDT|GMT-[78]/, 'times name their zone');
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'UTC' });
  });

  it('a customer page lists its subscriptions (store, environment, price; a trial says so), and fits a phone', async () => {
    const t = Date.now();
    await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${APP}`, {
      body: { api_version: '1.0', event: { ...providerEvent('INITIAL_PURCHASE', 'trialist', { at: t, periodType: 'TRIAL', price: 0 }) } },
      headers: { Authorization: auth },
    });
    await eventually(
      () => h.request('GET', `/v1/billing/customers/trialist?app=${APP}`, { token: adminToken() }),
      (r) => r.status === 200,
      { what: 'the trial applied' },
    );
    await page.setViewport({ width: 375, height: 800 });
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customer&id=trialist`);
    await ready('customer');
    const row = String(await page.evaluate("document.querySelector('#subscriptions tbody tr')?.textContent ?? ''"));
    assert.match(row, /APP_STORE/);
    assert.match(row, /PRODUCTION/);
    assert.match(row, /trial/);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    const wide = await page.evaluate(
      "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 6).map((e) => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).join(' ')",
    );
    assert.ok(overflow <= 1, `the page is ${overflow}px wider than a phone: ${String(wide)}`);
    await shot('customer-mobile');
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('axe-core finds no serious or critical accessibility violation in the main views', async () => {
    const checker = await browser!.newPage();
    const views = [
      'view=trends',
      'view=customers',
      'view=customers&status=active&store=APP_STORE&sort=-mrr',
      'view=customers&q=ui-&sort=-id',
      'view=customer&id=ui-1',
      'view=work',
      'view=deliveries&endpoint=ep_01JCONSOLE0000000000000000&delivery=msg_detail',
      'view=skills',
    ];
    for (const width of [DESKTOP, PHONE]) {
      await checker.setViewport(width);
      for (const view of views) {
        await checker.goto(`${h.baseUrl}/dashboard?app=${APP}&${view}#token=${adminToken()}`);
        await checker.waitForSelector(`#view [data-view="${new URLSearchParams(view).get('view')}"][data-ready="true"]`, {
          timeout: 30_000,
        });
        await axeCheck(checker, `${view} at ${width.width}px`);
      }
    }
    await checker.close();
  });

  it('each view at desktop and phone widths: screenshots, and none wider than a phone', async () => {
    const viewer = await browser!.newPage();
    const views: [string, string][] = [
      ['trends', 'view=trends'],
      ['customers', 'view=customers&status=active&sort=-mrr'],
      ['customer', 'view=customer&id=ui-1'],
      ['work', 'view=work'],
      ['deliveries', 'view=deliveries&endpoint=ep_01JCONSOLE0000000000000000&delivery=msg_detail'],
      ['skills', 'view=skills'],
    ];
    await viewer.goto(`${h.baseUrl}/dashboard#token=${adminToken()}`);
    await viewer.waitForSelector(`#scope option[value="app:${APP}"]`);
    for (const [name, view] of views) {
      for (const [suffix, width] of [
        ['desktop', DESKTOP],
        ['mobile', PHONE],
      ] as const) {
        await viewer.setViewport(width);
        await viewer.goto(`${h.baseUrl}/dashboard?app=${APP}&${view}`);
        await viewer.waitForSelector(`#view [data-view="${new URLSearchParams(view).get('view')}"][data-ready="true"]`, {
          timeout: 30_000,
        });
        await capture(viewer, `view-${name}-${suffix}`);
        const overflow = Number(await viewer.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
        assert.ok(overflow <= 1, `${name} is ${overflow}px wider than ${width.width}px`);
      }
    }
    await viewer.close();
  });

  it('an admin also sees the operator scope, and a link to it opens it', async () => {
    const admin = await browser!.newPage();
    await admin.goto(`${h.baseUrl}/dashboard?scope=operator&view=trends#token=${adminToken()}`);
    await admin.waitForSelector('#view [data-view="trends"][data-ready="true"]');
    assert.equal(await admin.$eval('#scope', (sel) => (sel as unknown as { value: string }).value), 'operator');
    const options = await admin.$$eval('#scope option', (os) => os.map((o) => (o as unknown as { value: string }).value).filter(Boolean));
    assert.deepEqual(options, [`app:${APP}`, 'operator']);
    assert.match(await admin.$eval('#view h2', (e) => e.textContent ?? ''), /operator/);
    await admin.close();
  });

  it('ran without a script error or a CSP violation', () => {
    assert.deepEqual(problems, []);
  });
});
