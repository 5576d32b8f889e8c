/**
 * The console's operations in a real browser (Debian's chromium, puppeteer-core), against the real stack: the
 * event log (refusal reasons, payloads, links), one rule for times in two zones, charts by the provider's event
 * time with nothing before the first event, the actions (copy and download an invocation's Markdown, start a
 * skill, workflow links, discard a dead letter, search by any id, transaction and product, CSV exports), the
 * header and a phone's width, and axe at 1280×800 and 390×844. Without chromium the suite is skipped, loudly
 * (a failure with CI=true).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'puppeteer-core' with { 'resolution-mode': 'import' };
import { DeadLetterRepository } from '../../src/store/dead-letters';
import { utcDay } from '../../src/store/billing-daily';
import { billingClient } from '../support/billing-client';
import { axeCheck, capture, DESKTOP, downloadsOf, launchChromium, overflow, PHONE, watchProblems } from '../support/browser';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { DAY, envelope, providerEvent } from '../support/provider-events';
import { repoRoot } from '../support/repo-root';
import { adminToken, projectToken } from '../support/tokens';
import { join } from 'node:path';
import { loadDemo, PROJECT, settle } from './skills-helpers';

const APP = 'ops-console';
/** A long display name: the phone's width must hold it. */
const APP_NAME = 'Operations console app with a rather long display name that a phone has to hold, 2026 edition';
const SHOTS = process.env.CONSOLE_SCREENSHOTS_DIR || join(repoRoot(), 'test-output', 'screenshots');
const HOUR = 3_600_000;

describe('operator console: event log, times, charts, actions, phone (chromium)', function () {
  this.timeout(240_000);
  let h: Harness;
  let browser: Browser;
  let auth = '';
  const problems: string[] = [];
  const admin = adminToken();
  const member = projectToken([PROJECT], [APP]);
  // Fixed to the hour, so each instant's expected text can be worked out here, independently of the console.
  const t0 = Math.floor((Date.now() - 2 * DAY) / HOUR) * HOUR;
  const at = {
    purchase: t0,
    issue: t0 + HOUR,
    cancel: t0 + 2 * HOUR,
    expires: t0 + 30 * DAY,
    chartFirst: t0 - 8 * DAY,
    chartSecond: t0 - DAY,
  };

  before(async function () {
    browser = await launchChromium(this);
    h = await startHarness({ TEMPORAL_UI_URL: 'http://127.0.0.1:8233' });
    await loadDemo(h);
    await h.startWorker();
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: APP_NAME } })).body.authorization;
    const client = billingClient(h, APP, () => auth);
    const sub = { product_id: 'pro_monthly', original_transaction_id: 'OTX-TZ', country_code: 'IN' };
    await client.deliver(
      providerEvent('INITIAL_PURCHASE', 'Tz-User', { at: at.purchase, expiresAt: at.expires, transaction_id: 'TX-TZ-1', ...sub }),
    );
    await client.settled('Tz-User', 1);
    await client.deliver(providerEvent('BILLING_ISSUE', 'Tz-User', { at: at.issue, expiresAt: at.expires, ...sub }));
    await client.settled('Tz-User', 2);
    await client.deliver(
      providerEvent('CANCELLATION', 'Tz-User', {
        at: at.cancel,
        purchasedAt: at.purchase,
        expiresAt: at.expires,
        cancel_reason: 'UNSUBSCRIBE',
        ...sub,
      }),
    );
    await client.settled('Tz-User', 3);
    // Two purchases dated days ago, delivered now: the charts place them on their own days.
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'chart-a', { at: at.chartFirst, price: 4.99, store: 'PLAY_STORE' }));
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'chart-b', { at: at.chartSecond, price: 19.99, country_code: 'DE' }));
    await client.settled('chart-a', 1);
    await client.settled('chart-b', 1);
    // A purchase refunded the next day (the provider sends the refund as a negative price).
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'refunder', { at: at.chartSecond, original_transaction_id: 'OTX-R' }));
    await client.settled('refunder', 1);
    await client.deliver(
      providerEvent('CANCELLATION', 'refunder', {
        at: at.purchase,
        purchasedAt: at.chartSecond,
        price: -9.99,
        cancel_reason: 'CUSTOMER_SUPPORT',
        original_transaction_id: 'OTX-R',
      }),
    );
    await client.settled('refunder', 2);
  });
  after(async () => {
    await browser?.close();
    await h?.close();
  });

  /**
   * The failed requests these tests cause on purpose: the private preview's 403 for an app without outbound
   * webhooks (the work list says so), a skill start the API refuses (shown), a linked event that does not exist.
   */
  const expected = (status: number, url: string) =>
    (status === 403 && /\/v1\/apps\/[^/]+\/webhook-endpoints$/.test(url)) ||
    (status === 422 && /\/skills\/release_notes_composer$/.test(url)) ||
    (status === 404 && /\/timeline\/x\?/.test(url));

  /** A fresh page signed in with `token`, at `view` (query string without `app`). */
  async function open(view: string, token = admin, size = DESKTOP): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport(size);
    watchProblems(page, problems, expected);
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&${view}#token=${token}`);
    await page.waitForSelector(`#view [data-view="${new URLSearchParams(view).get('view')}"][data-ready="true"]`, { timeout: 30_000 });
    return page;
  }
  const ready = (page: Page, view: string) => page.waitForSelector(`#view [data-view="${view}"][data-ready="true"]`, { timeout: 30_000 });
  const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? '');

  it('event log: refusals with their reason, an accepted delivery with its body and links to its customer, timeline entry and workflow', async () => {
    const refused = await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${APP}`, {
      body: envelope(providerEvent('RENEWAL', 'Tz-User', { at: Date.now() })),
      headers: { Authorization: `Bearer ${auth}` },
    });
    assert.equal(refused.status, 401);
    assert.equal(
      (await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=no-such-app`, { body: {}, headers: { Authorization: auth } }))
        .status,
      401,
    );
    await eventually(
      () => h.request('GET', `/v1/billing/events?app=${APP}&reason=bearer_prefix`, { token: admin }),
      (r) => r.body.events.length === 1,
      { what: 'the refusal in the log' },
    );
    const page = await open('view=events');
    await page.select('#event-outcome', 'rejected');
    await ready(page, 'events');
    assert.equal(new URL(page.url()).searchParams.get('outcome'), 'rejected');
    const row = await text(page, '#events tr[data-outcome="rejected"]');
    assert.match(row, /bearer_prefix/);
    assert.match(row, /401/);
    await page.click('#events tr[data-outcome="rejected"] button[data-event-details]');
    await page.waitForSelector('tr.delivery-detail:not([hidden]) dl.facts');
    assert.match(await text(page, 'tr.delivery-detail:not([hidden])'), /without “Bearer ”/, 'the reason explained');
    assert.match(await text(page, 'tr.delivery-detail:not([hidden])'), /Nothing of an unauthorized delivery is read or kept/);
    await capture(page, join(SHOTS, 'event-log-refusal.png'));

    // The accepted purchase: its body as delivered, and its links.
    await page.select('#event-outcome', 'accepted');
    await ready(page, 'events');
    await page.type('#event-subscriber', 'Tz-User');
    await page.keyboard.press('Enter');
    await ready(page, 'events');
    assert.equal(await page.$$eval('#events tbody tr[data-entry]', (trs) => trs.length), 3);
    const purchase = (await page.$$eval('#events tbody tr[data-entry]', (trs) => trs.map((tr) => tr.getAttribute('data-entry')))).at(-1)!;
    await page.click(`button[data-event-details="${purchase}"]`);
    await page.waitForSelector(`tr[data-detail-of="${purchase}"]:not([hidden]) #event-body`);
    const body = JSON.parse(await text(page, `tr[data-detail-of="${purchase}"] #event-body`)) as { type: string; transaction_id: string };
    assert.deepEqual([body.type, body.transaction_id], ['INITIAL_PURCHASE', 'TX-TZ-1']);
    assert.equal(new URL(page.url()).searchParams.get('entry'), purchase, 'the open delivery is in the address');
    const workflow = await page.$eval(`tr[data-detail-of="${purchase}"] a[href^="http://127.0.0.1:8233/"]`, (a) => a.getAttribute('href'));
    assert.equal(workflow, `http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(`billing/app:${APP}/Tz-User`)}`);
    await capture(page, join(SHOTS, 'event-log.png'));
    // Its timeline entry, on the customer's page.
    await page.click(`tr[data-detail-of="${purchase}"] a[href*="event="]`);
    await ready(page, 'customer');
    assert.match(await text(page, '#linked-event li'), /INITIAL_PURCHASE/);
    assert.match(await text(page, '#linked-event li'), /\$9\.99 paid/);
    // Admins also see what no app can be named for.
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=events&unattributed=true`);
    await ready(page, 'events');
    assert.match(await text(page, '#events'), /unknown_app[\s\S]*no-such-app/);
    await page.close();
  });

  it('every date of one customer agrees across the list, its page, its timeline and its flags, in two zones and in UTC', async () => {
    const cdpZones: [string, string][] = [
      ['America/Los_Angeles', 'PST'],
      ['Asia/Kolkata', 'GMT+5:30'],
    ];
    const norm = (s: string) => s.replace(/[\s\u202f]+/g, ' ').trim();
    const formatted = (ms: number, timeZone: string) =>
      norm(
        new Intl.DateTimeFormat('en-US', {
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          timeZoneName: 'short',
          timeZone,
        }).format(ms),
      );
    const page = await browser.newPage();
    await page.setViewport(DESKTOP);
    watchProblems(page, problems, expected);
    const cdp = await page.createCDPSession();
    const times = async () =>
      (
        await page.$$eval('#view time', (ts) =>
          ts.map((t) => [t.getAttribute('datetime') ?? '', t.textContent ?? '', t.getAttribute('title') ?? '']),
        )
      ).map(([iso, shown, hover]) => ({ iso: iso!, shown: norm(shown!), hover: norm(hover!) }));
    for (const [zone, label] of [...cdpZones, ['UTC-switch', 'UTC']] as [string, string][]) {
      const utc = zone === 'UTC-switch';
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: utc ? 'Asia/Kolkata' : zone });
      const tz = utc ? '&tz=utc' : '';
      const seen = new Map<string, Set<string>>();
      const note = (list: { iso: string; shown: string }[]) => {
        for (const t of list) seen.set(t.iso, new Set([...(seen.get(t.iso) ?? []), t.shown]));
      };
      await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customers&q=Tz-User${tz}#token=${admin}`);
      await ready(page, 'customers');
      const listTimes = await times();
      note(listTimes);
      await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customer&id=Tz-User${tz}`);
      await ready(page, 'customer');
      note(await times());
      const timeline = await text(page, '#timeline');
      const within = utc ? 'UTC' : zone;
      // The entitlement's end, the flag and the downgrade: the same text on the list, the page and (in words) the timeline.
      const expiry = formatted(at.expires, within);
      const since = formatted(at.issue, within);
      assert.ok(expiry.includes(label) && since.includes(label), `${expiry} names ${label}`);
      assert.deepEqual([...(seen.get(new Date(at.expires).toISOString()) ?? [])], [expiry], `${zone}: the entitlement's end everywhere`);
      assert.deepEqual([...(seen.get(new Date(at.issue).toISOString()) ?? [])], [since], `${zone}: the flag everywhere`);
      assert.ok(norm(timeline).includes(`pro until ${expiry}`), `${zone}: the timeline says the same end: ${norm(timeline).slice(0, 400)}`);
      assert.ok(norm(timeline).includes(`provider time ${since}`), `${zone}: the billing issue's provider time`);
      for (const [iso, texts] of seen) {
        assert.equal(texts.size, 1, `${zone}: ${iso} is shown one way: ${[...texts].join(' | ')}`);
        assert.equal([...texts][0], formatted(Date.parse(iso), within), `${zone}: ${iso}`);
      }
      // The other rendering is on hover.
      const hover = (await times()).find((t) => t.iso === new Date(at.expires).toISOString())!.hover;
      assert.equal(hover, formatted(at.expires, utc ? 'Asia/Kolkata' : 'UTC'));
      assert.match(await text(page, '#tz-toggle'), utc ? /UTC/ : new RegExp(label.replace('+', '\\+')));
      if (zone === 'America/Los_Angeles') await capture(page, join(SHOTS, 'customer-los-angeles.png'));
    }
    // The switch is one click, kept in the address.
    await page.click('#tz-toggle');
    await ready(page, 'customer');
    assert.equal(new URL(page.url()).searchParams.get('tz'), null);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'UTC' });
    await page.close();
  });

  it('charts: nothing before the first event, each event on the day of its provider time, filters in the address', async () => {
    const page = await open('view=trends');
    await page.waitForSelector('#chart-revenue[data-points="30"] canvas');
    assert.equal(await page.$eval('#chart-revenue', (e) => e.getAttribute('data-first-day')), utcDay(at.chartFirst));
    assert.equal(await page.$eval('#chart-customers', (e) => e.getAttribute('data-first-day')), utcDay(at.chartFirst));
    const rows = await page.$$eval('#event-points-table tbody tr', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-day') ?? '', ...[...tr.querySelectorAll('td')].slice(1, 2).map((td) => td.textContent ?? '')]),
    );
    assert.ok(
      rows.every(([day]) => day! >= utcDay(at.chartFirst)),
      'no point before the first event',
    );
    const revenueOn = (day: number) => rows.find(([d]) => d === utcDay(day))?.[1];
    assert.equal(revenueOn(at.chartFirst), '$4.99');
    assert.equal(revenueOn(at.chartSecond), '$29.98', "chart-b's and refunder's purchases");
    assert.equal(revenueOn(at.purchase), '$9.99', 'the purchase on the day of its provider time');
    if (utcDay(Date.now()) !== utcDay(at.purchase)) assert.equal(revenueOn(Date.now()), '$0.00', 'nothing on the day they were delivered');
    // Its totals begin today, its events days ago: the view says how to place the totals by provider time.
    assert.match(
      await text(page, '#backfill-note'),
      new RegExp(`events date from ${utcDay(at.chartFirst)}.*billing-backfill-trends --scope app:${APP}`),
    );
    await capture(page, join(SHOTS, 'trends.png'));
    // A filter: only Play Store.
    await page.select('#trend-store', 'PLAY_STORE');
    await ready(page, 'trends');
    assert.equal(new URL(page.url()).searchParams.get('store'), 'PLAY_STORE');
    assert.match(await text(page, '#event-cards'), /Revenue\$4\.99/);
    await page.select('#trend-country', 'DE');
    await ready(page, 'trends');
    assert.match(await text(page, '#event-cards'), /Revenue\$0\.00/, 'no Play Store purchase from Germany');
    await page.close();
  });

  it("copies and downloads an invocation's Markdown, and an admin follows its workflow link", async () => {
    const res = await h.request('POST', `/v1/agents/${PROJECT}/skills/release_notes_composer`, {
      token: member,
      body: { fromVersion: '1.2.1', toVersion: '2.0.0' },
      headers: { Prefer: 'wait=30' },
    });
    const done = await settle(h, member, res.body.id);
    const origin = h.baseUrl;
    await browser.defaultBrowserContext().overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    const page = await open(`view=invocation&project=${PROJECT}&id=${done.id}`);
    const downloads = await downloadsOf(page);
    await page.click('#copy-markdown');
    await page.waitForFunction("document.querySelector('#markdown-status')?.textContent === 'Copied to the clipboard.'");
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), done.result.markdown);
    await page.click('#download-markdown');
    assert.equal(await downloads.next(`release_notes_composer-${done.id}.md`), done.result.markdown);
    const workflow = await page.$eval(`a[data-workflow="${done.id}"]`, (a) => a.getAttribute('href'));
    assert.equal(workflow, `http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(`skill/${PROJECT}/${done.id}`)}`);
    await page.close();
    // A member is given no Temporal UI link (it shows every tenant's workflows).
    const memberPage = await open(`view=invocation&project=${PROJECT}&id=${done.id}`, member);
    assert.equal(await memberPage.$(`a[data-workflow]`), null);
    await memberPage.close();
  });

  it('starts a skill from the Skills view, and shows what the API refused', async () => {
    const page = await open(`view=skills&project=${PROJECT}`, member);
    await page.select('#start-skill-name', 'release_notes_composer');
    await page.type('#skill-release_notes_composer-fromVersion', '1.2.1');
    // Not a release, and below the newest (2.0.0): no draft before the tag can cover it, so the API refuses it.
    await page.type('#skill-release_notes_composer-toVersion', '1.9.9');
    await page.click('form.skill-form button[type=submit]');
    await page.waitForSelector('#start-skill .problem[data-status="422"]');
    await page.$eval('#skill-release_notes_composer-toVersion', (i) => {
      (i as unknown as { value: string }).value = '2.0.0';
    });
    await page.select('#skill-release_notes_composer-tone', 'casual');
    await page.click('form.skill-form button[type=submit]');
    await ready(page, 'invocation');
    const id = new URL(page.url()).searchParams.get('id')!;
    const done = await settle(h, member, id);
    assert.deepEqual(done.inputs, { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'casual' });
    await page.waitForSelector('#document h1, #document h2', { timeout: 30_000 });
    await page.close();
  });

  it('a dead letter no retry can help says why, and an admin discards it with a reason', async () => {
    const event = providerEvent('INITIAL_PURCHASE', 'conflicted', { at: Date.now() });
    const client = billingClient(h, APP, () => auth);
    await client.deliver(event);
    assert.equal(((await client.deliver({ ...event, type: 'RENEWAL' })) as { conflict?: boolean }).conflict, true);
    const [parked] = (await new DeadLetterRepository(h.db).list(`app:${APP}`, { status: 'parked', limit: 5 })).filter(
      (d) => d.stage === 'intake',
    );
    const page = await open('view=work');
    await page.waitForSelector(`[data-why-not="${parked!._id}"]`);
    assert.match(await text(page, `[data-why-not="${parked!._id}"]`), /never applied/);
    assert.equal(await page.$(`button[data-retry="${parked!._id}"]`), null, 'no Retry that cannot succeed');
    await page.click(`button[data-discard="${parked!._id}"]`);
    await page.type(`form[data-discard-form="${parked!._id}"] input`, 'test resend with another type; looked at');
    await page.click(`form[data-discard-form="${parked!._id}"] button[type=submit]`);
    await page.waitForSelector(`[data-discarded="${parked!._id}"]`);
    const record = await new DeadLetterRepository(h.db).get(parked!._id);
    assert.deepEqual(
      [record!.status, record!.discardReason, record!.discardedBy],
      ['discarded', 'test resend with another type; looked at', 'admin'],
    );
    await page.close();
  });

  it('searches customers by any id in any case, by transaction id and by product', async () => {
    const page = await open('view=customers', member);
    const search = async (q: string) => {
      await page.$eval('#customer-search', (i) => {
        (i as unknown as { value: string }).value = '';
      });
      await page.type('#customer-search', q);
      await page.keyboard.press('Enter');
      await ready(page, 'customers');
      return text(page, '#exact-match');
    };
    assert.match(await search('tz-user'), /“tz-user” is an id of \(in another case\) Tz-User/);
    assert.match(await search('TX-TZ-1'), /Transaction “TX-TZ-1” belongs to Tz-User/);
    await page.click('#exact-match a');
    await ready(page, 'customer');
    assert.match(await text(page, '#view h2'), /Customer Tz-User/);
    // What the customer paid, since when, from where (its events: one purchase at $9.99 from India, no refund).
    assert.deepEqual(
      [await text(page, '#lifetime-spend'), await text(page, '#refunds'), await text(page, '#country')],
      ['$9.99', 'none', 'IN'],
    );
    // A refunded customer says so, with the amount, on its page and in the list.
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customer&id=refunder`);
    await ready(page, 'customer');
    assert.equal(await text(page, '#refunds'), '1 · $9.99');
    assert.match(await text(page, '#subscriptions'), /refunded/);
    assert.match(await text(page, '#timeline li[data-event-id]:first-child'), /\$9\.99 refunded/);
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customers&status=refunded`);
    await ready(page, 'customers');
    assert.match(await text(page, '#customers tr[data-customer="refunder"]'), /refunded/);
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customers`);
    await ready(page, 'customers');
    await page.type('#filter-product', 'pro_monthly');
    await page.keyboard.press('Enter');
    await ready(page, 'customers');
    assert.equal(new URL(page.url()).searchParams.get('product'), 'pro_monthly');
    const ids = await page.$$eval('#customers tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-customer')));
    assert.deepEqual(ids, ['Tz-User']);
    await page.close();
  });

  it('exports the customer list, the event log and a timeline as CSV', async () => {
    const page = await open('view=customers&sort=-lastEvent');
    const downloads = await downloadsOf(page);
    await page.click('button[data-export="customers.csv"]');
    const customers = (await downloads.next('customers.csv')).split('\r\n');
    assert.match(customers[0]!, /^id,status,aliases,entitlements,MRR/);
    assert.ok(
      customers.some((l) => l.startsWith('Tz-User,cancelled,')),
      customers.slice(0, 4).join('\n'),
    );
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=events&subscriber=Tz-User`);
    await ready(page, 'events');
    await page.click('button[data-export="event-log.csv"]');
    const log = (await downloads.next('event-log.csv')).split('\r\n').filter(Boolean);
    assert.match(log[0]!, /^time,last,count,outcome,status,reason,type,event id,customer/);
    assert.ok(log.filter((l) => /,accepted,200,,INITIAL_PURCHASE,/.test(l)).length >= 1, log.join('\n'));
    await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=customer&id=Tz-User`);
    await ready(page, 'customer');
    await page.click('button[data-export^="timeline-"]');
    const timeline = (await downloads.next('timeline-Tz-User.csv')).split('\r\n').filter(Boolean);
    assert.equal(timeline.length, 4, 'a header and three events');
    assert.deepEqual(
      timeline.slice(1).map((l) => l.split(',')[1]),
      ['CANCELLATION', 'BILLING_ISSUE', 'INITIAL_PURCHASE'],
    );
    await page.close();
  });

  it('the header: no token field once signed in, a sign-out, and compact; a phone holds a long app name in every view', async () => {
    const views = [
      'view=trends',
      'view=customers',
      'view=customer&id=Tz-User',
      'view=events',
      'view=work',
      `view=skills&project=${PROJECT}`,
    ];
    const page = await open('view=trends', admin, PHONE);
    assert.equal(await page.$eval('#token-form', (f) => (f as unknown as { hidden: boolean }).hidden), true, 'no empty Token field');
    const header = await page.$eval('header', (e) => e.getBoundingClientRect().height);
    assert.ok(header <= PHONE.height / 4, `the header takes ${header}px of ${PHONE.height}`);
    assert.match(
      await page.$eval('#scope', (s) => (s as unknown as { selectedOptions: { textContent: string }[] }).selectedOptions[0]!.textContent),
      /rather long display name/,
    );
    for (const view of views) {
      await page.goto(`${h.baseUrl}/dashboard?app=${APP}&${view}`);
      await ready(page, new URLSearchParams(view).get('view')!);
      const o = await overflow(page);
      assert.ok(o.px <= 1, `${view} is ${o.px}px wider than a phone: ${o.widest}`);
    }
    await capture(page, join(SHOTS, 'skills-mobile.png'));
    await page.click('#sign-out');
    await page.waitForSelector('#token-form:not([hidden])');
    assert.match(await text(page, '#view'), /Paste a token/);
    assert.equal(await page.evaluate('sessionStorage.length'), 0, 'signing out forgets the token');
    assert.equal(await page.$eval('#sign-out', (b) => (b as unknown as { hidden: boolean }).hidden), true);
    await page.close();
  });

  it('axe-core finds no serious or critical violation in any view, at 1280×800 and 390×844', async () => {
    const views = [
      'view=trends',
      'view=trends&store=PLAY_STORE',
      'view=customers',
      'view=customer&id=Tz-User',
      'view=customer&id=Tz-User&event=' + 'x',
      'view=events',
      'view=events&outcome=rejected',
      'view=events&unattributed=true',
      'view=work',
      `view=skills&project=${PROJECT}`,
    ];
    for (const size of [DESKTOP, PHONE]) {
      const page = await open('view=trends', admin, size);
      for (const view of views) {
        await page.goto(`${h.baseUrl}/dashboard?app=${APP}&${view}`);
        await ready(page, new URLSearchParams(view).get('view')!);
        await axeCheck(page, `${view} at ${size.width}px`);
      }
      // An open delivery, and an open discard form.
      await page.goto(`${h.baseUrl}/dashboard?app=${APP}&view=events`);
      await ready(page, 'events');
      await page.click('#events button[data-event-details]');
      await page.waitForSelector('tr.delivery-detail:not([hidden]) dl.facts');
      await axeCheck(page, `an open delivery at ${size.width}px`);
      await page.close();
    }
  });

  it('ran without a script error or a CSP violation', () => {
    assert.deepEqual(problems, []);
  });
});
