/**
 * The operator console in a real browser: Debian's chromium driven by puppeteer-core. Opens the console with a
 * token in the URL fragment, picks an app, checks the trend chart's points, opens a customer found by an alias
 * and reads its timeline after events sent through the real webhook, works the lists, and follows an
 * invocation to its rendered document. Screenshots of each view go to test-output/screenshots/ (git-ignored).
 * Without chromium (scripts/ensure-chromium.sh installs it when it can) the suite is skipped, loudly.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core' with { 'resolution-mode': 'import' };
import { BillingDailyRepository, utcDay } from '../../src/store/billing-daily';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { rewrite, startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { DeadLetterRepository } from '../../src/store/dead-letters';
import { DeliveryRepository, EndpointRepository } from '../../src/store/outbound';
import { startHarness, type Harness } from '../support/harness';
import { DAY, providerEvent } from '../support/provider-events';
import { repoRoot } from '../support/repo-root';
import { adminToken, projectToken } from '../support/tokens';
import { invoke, loadDemo, PROJECT, settle } from './skills-helpers';

const APP = 'console-ui';
const SHOTS = join(repoRoot(), 'test-output', 'screenshots');

function chromiumPath(): string | null {
  for (const candidate of [process.env.CHROMIUM_PATH, 'chromium', 'chromium-browser']) {
    if (!candidate) continue;
    try {
      return execFileSync('sh', ['-c', 'command -v "$1"', 'sh', candidate], { encoding: 'utf8' }).trim() || null;
    } catch {
      /* not this one */
    }
  }
  return null;
}

describe('operator console in a real browser (chromium)', function () {
  this.timeout(180_000);
  let h: Harness;
  let browser: Browser | null = null;
  let page: Page;
  let llm: FakeLlm | null = null;
  let auth = '';
  const problems: string[] = [];

  before(async function () {
    const executablePath = chromiumPath();
    if (!executablePath) {
      // In CI a missing browser is a failure, never a pass by omission.
      if (process.env.CI === 'true') throw new Error('CI=true and no chromium: the browser tests cannot run (bash scripts/ensure-chromium.sh installs it as root)');
      console.error('\n[browser] !!! chromium not found: THE BROWSER TESTS DID NOT RUN (bash scripts/ensure-chromium.sh installs it as root) !!!\n');
      this.skip();
    }
    // A model that rewrites release notes and never answers for a proposal, so one invocation stays running.
    llm = await startFakeLlm();
    llm.handle((req) => (JSON.stringify(req.body).includes('Harbor') ? { hang: true } : rewrite(req)));
    h = await startHarness({ TEMPORAL_UI_URL: 'http://127.0.0.1:8233', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '120000' });
    await loadDemo(h);
    await h.startWorker();
    auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Console UI' } })).body.authorization;
    const { launch } = await import('puppeteer-core');
    browser = await launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    // A CSP violation or a script error fails the suite: the page must work under its strict policy.
    // A failed request is reported with its address below; the one expected is the private preview's 403 for an app
    // without outbound webhooks, which the work list shows as such.
    const expected = (status: number, url: string) => status === 403 && /\/v1\/apps\/[^/]+\/webhook-endpoints$/.test(url);
    page.on('console', (m) => { if (m.type() === 'error' && !/status of 403/.test(m.text())) problems.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400 && !expected(r.status(), r.url())) problems.push(`${r.status()} ${r.url()}`); });
    page.on('pageerror', (e) => problems.push(String(e)));
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await h?.close();
    await llm?.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const ready = (view: string) => page.waitForSelector(`#view [data-view="${view}"][data-ready="true"]`, { timeout: 30_000 });

  it('opens with a token in the fragment, lists the scopes, and keeps the picked app in the URL (not the token)', async () => {
    // Yesterday's point, as kept by the totals write (or the backfill); today's comes from the events below.
    await new BillingDailyRepository(h.db).replace(`app:${APP}`, {
      day: utcDay(Date.now() - DAY), mrrMicros: 4_990_000, activeSubscriptions: 1, activeTrials: 0, flaggedCustomers: 0, scheduledDowngrades: 0, churned: 0,
    }, new Date());
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

  it('draws the trend charts with one point per day', async () => {
    await page.waitForSelector('#chart-mrr[data-points="30"] canvas');
    await page.waitForSelector('#chart-counts[data-points="30"] canvas');
    const rows = await page.$$eval('details table tbody tr', (trs) => trs.length);
    assert.equal(rows, 30);
    await shot('trends-30');
    await page.click('a[href*="days=90"]');
    await page.waitForSelector('#chart-mrr[data-points="90"] canvas', { timeout: 30_000 });
    assert.equal(new URL(page.url()).searchParams.get('days'), '90');
    await shot('trends-90');
  });

  it('finds a customer by an alias and shows its timeline after events sent through the webhook', async () => {
    const client = billingClient(h, APP, () => auth);
    const now = Date.now();
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'ui-1', { at: now - 2 * DAY, aliases: ['ui-1', 'ui-1-device'], expiresAt: now + 5 * DAY }));
    await client.deliver(providerEvent('BILLING_ISSUE', 'ui-1', { at: now - DAY }));
    await client.deliver(providerEvent('CANCELLATION', 'ui-1', { at: now - DAY + 1000, purchasedAt: now - 2 * DAY, expiresAt: now + 5 * DAY, cancel_reason: 'UNSUBSCRIBE' }));
    await client.settled('ui-1', 3);

    // Keyboard: the nav link is focused and followed with Enter.
    await page.focus('#nav a[data-view="customers"]');
    await page.keyboard.press('Enter');
    await ready('customers');
    await page.type('#customer-search', 'ui-1-device');
    await page.keyboard.press('Enter');
    await ready('customer');
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get('view'), 'customer');
    assert.equal(params.get('id'), 'ui-1-device');
    const entries = await page.$$eval('#timeline li[data-event-id] strong', (els) => els.map((e) => e.textContent));
    assert.deepEqual(entries, ['CANCELLATION', 'BILLING_ISSUE', 'INITIAL_PURCHASE']);
    const text = await page.$eval('#view', (e) => e.textContent ?? '');
    assert.match(text, /Customer ui-1/);
    assert.match(text, /billing_issue/);
    assert.match(text, /CANCELLATION · in 4 d/, 'the scheduled downgrade with the time left');
    const wf = await page.$eval('#view a[href^="http://127.0.0.1:8233/"]', (a) => a.getAttribute('href'));
    assert.equal(wf, `http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(`billing/app:${APP}/ui-1`)}`);
    await shot('customer');

    // The same link opens the same view in a fresh page (with a token given again in the fragment).
    const again = await browser!.newPage();
    await again.goto(`${page.url()}#token=${projectToken([PROJECT], [APP])}`);
    await again.waitForSelector('#view [data-view="customer"][data-ready="true"]');
    assert.equal(await again.$$eval('#timeline li[data-event-id]', (els) => els.length), 3);
    await again.close();
  });

  it('work lists: flagged customers, downgrades due, dead letters (an admin retries one)', async () => {
    // An event the relay gave up on, as it parks one.
    const parked = providerEvent('INITIAL_PURCHASE', 'ui-parked', { at: Date.now(), expiresAt: Date.now() + 30 * DAY });
    const id = await new DeadLetterRepository(h.db).park(
      { key: `app:${APP}|relay|${parked.id}`, scope: `app:${APP}`, stage: 'relay', eventId: parked.id, type: parked.type, subscriberId: 'ui-parked', workflowId: null, reason: 'not relayed for 24 h', payload: JSON.stringify(parked) },
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
      _id: 'ep_01JCONSOLE0000000000000000', app: APP, url: 'https://hooks.console.example/billing', eventTypes: null, description: 'prod', disabled: false, disabledReason: null,
      secret: 'whsec_c2VjcmV0', previousSecret: null, previousSecretValidUntil: null, failingSince: new Date(at.getTime() - DAY), createdAt: at, updatedAt: at,
    });
    // The token lives in the page's memory only: reopen the same view with it.
    await new DeliveryRepository(h.db).ensure({
      _id: 'msg_console', app: APP, endpointId: 'ep_01JCONSOLE0000000000000000', eventId: 'evt-console', eventType: 'RENEWAL', body: '{}', status: 'failed',
      attempts: [{ attempt: 1, at, statusCode: 500, latencyMs: 120, error: 'HTTP 500', nextRetryAt: null }], nextRetryAt: null, createdAt: at, updatedAt: at,
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
    await reopened.screenshot({ path: join(SHOTS, 'delivery-log.png'), fullPage: true });
    await reopened.close();
    await shot('work-lists');

    const admin = await browser!.newPage();
    await admin.goto(`${view}#token=${adminToken()}`);
    await admin.waitForSelector('#view [data-view="work"][data-ready="true"]');
    await admin.click(`#dead-letters button[data-retry="${id}"]`);
    await admin.waitForSelector(`#dead-letters button[data-retry="${id}"]::-p-text(Retry requested)`);
    await admin.close();
    await eventually(() => h.request('GET', `/v1/billing/customers/ui-parked?app=${APP}`, { token: adminToken() }), (r) => r.body?.status === 'active', {
      what: 'the retried event to entitle ui-parked',
    });
  });

  it('lists invocations per project and follows one to its rendered document with working citations', async () => {
    const member = projectToken([PROJECT], [APP]);
    const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' }, { Prefer: 'wait=30' });
    assert.ok([200, 202].includes(res.status), res.text);
    const done = await settle(h, member, res.body.id);
    assert.equal(done.status, 'completed');
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
    const links = await page.$$eval('#document a.citation', (as) => as.map((a) => ({ id: a.getAttribute('data-citation'), href: a.getAttribute('href') })));
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

  /** A proposal the model never answers, so it stays drafting; the skills view freshly opened. */
  async function runningProposal(format: string): Promise<{ member: string; id: string }> {
    const member = projectToken([PROJECT], [APP]);
    const res = await invoke(h, member, 'proposal_writer', { customerName: 'Harbor & Vine Market', industry: 'Retail', format });
    assert.equal(res.status, 202, res.text);
    await eventually(() => h.request('GET', `/v1/agents/${PROJECT}/invocations/${res.body.id}`, { token: member }), (r) => r.body.status === 'drafting', { timeoutMs: 30_000, what: 'the proposal to be drafting' });
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
    await settle(h, member, id, ['cancelled']);
  });

  it('a running invocation shows its progress live (Server-Sent Events) and its end without a reload', async () => {
    const { member, id } = await runningProposal('one-pager');
    await page.click(`#view a[href*="id=${id}"]`);
    await ready('invocation');
    await page.waitForFunction("/drafting/.test(document.querySelector('#progress')?.textContent ?? '')", { timeout: 10_000 });
    // A mark on this document: a reload would lose it.
    await page.evaluate('window.__sameDocument = true');
    // Cancelled elsewhere: the open view learns it from its stream and shows the final state.
    assert.equal((await h.request('POST', `/v1/agents/${PROJECT}/invocations/${id}/cancel`, { token: member })).status, 202);
    await page.waitForFunction("!document.querySelector('#progress') && /status cancelled/.test(document.querySelector('#view')?.textContent ?? '')", { timeout: 15_000 });
    assert.equal(await page.evaluate('window.__sameDocument === true'), true, 'no page reload');
  });

  it('keeps the token for the tab across a reload (sessionStorage, not localStorage), labels chart days in UTC and times with their zone', async () => {
    // A navigation without the token in the URL: the tab still has it.
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=trends`);
    await ready('trends');
    const stored = await page.evaluate("JSON.stringify([Object.keys(sessionStorage), Object.keys(localStorage), document.cookie])");
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
    await eventually(() => h.request('GET', `/v1/billing/customers/trialist?app=${APP}`, { token: adminToken() }), (r) => r.status === 200, { what: 'the trial applied' });
    await page.setViewport({ width: 375, height: 800 });
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customer&id=trialist`);
    await ready('customer');
    const row = String(await page.evaluate("document.querySelector('#subscriptions tbody tr')?.textContent ?? ''"));
    assert.match(row, /APP_STORE/);
    assert.match(row, /PRODUCTION/);
    assert.match(row, /trial/);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    const wide = await page.evaluate("[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 6).map((e) => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).join(' ')");
    assert.ok(overflow <= 1, `the page is ${overflow}px wider than a phone: ${String(wide)}`);
    await shot('customer-mobile');
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('axe-core finds no serious or critical accessibility violation in the main views', async () => {
    const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const checker = await browser!.newPage();
    // The console's CSP allows only its own scripts: axe is injected for the check with the policy bypassed.
    await checker.setBypassCSP(true);
    for (const view of ['trends', 'customers', 'work', 'skills']) {
      await checker.goto(`${h.baseUrl}/dashboard?app=${APP}&view=${view}#token=${adminToken()}`);
      await checker.waitForSelector(`#view [data-view="${view}"][data-ready="true"]`, { timeout: 30_000 });
      await checker.addScriptTag({ content: axe });
      const found = JSON.parse(String(await checker.evaluate("axe.run(document, { resultTypes: ['violations'] }).then((r) => JSON.stringify(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.length)))"))) as string[];
      assert.deepEqual(found, [], `${view}: ${found.join(', ')}`);
    }
    await checker.close();
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
