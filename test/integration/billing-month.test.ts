/**
 * One seeded month of an app's provider traffic through the real stack: HTTP webhooks → inbox → relay →
 * subscriber workflows → store → the customer and metrics APIs, compared customer by customer and in total (MRR
 * to the cent) with the reference model (test/support/billing-model/). The month's events are dated over the
 * 45 days before the test and sent as fast as the provider's retries would allow (compressed: its times are the
 * provider's, the receipt is now), reordered within days, duplicated, retried after abandoned attempts and sent
 * as concurrent copies. Then customers whose access ends seconds later (a cancellation, no renewal, a grace
 * period, a pause, a promotional grant) are sent, checked while still entitled, and checked again after their
 * ends: the workflows' durable timers revoke with no event. BILLING_MONTH_SEED varies the month.
 */
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { adminToken } from '../support/tokens';
import { randomSuffix } from '../support/config';
import { drawsFor, monthDraws } from '../support/billing-model/arbitrary';
import { MINUTE } from '../support/billing-model/catalog';
import { planDeliveries, type Delivery } from '../support/billing-model/delivery';
import { drawWorld, type World } from '../support/billing-model/history';
import { expectWorld, type Expectation, type ExpectedTotals } from '../support/billing-model/model';
import { nearEndWorld } from '../support/billing-model/near-ends';
import { centsOf, differences, observedFromApi, type CustomerBody } from '../support/billing-model/observed';
import { renderWorld } from '../support/billing-model/render';

const APP = `month-${randomSuffix()}`;
const SEED = Number(process.env.BILLING_MONTH_SEED ?? 31);
const CUSTOMERS = 340;
const NEAR_END_CUSTOMERS = 20;
/** How long after they are sent the near-end customers' access ends (they must be applied before). */
const NEAR_END_AFTER_MS = 12_000;

describe('a month of provider traffic through the live stack, against the reference model', function () {
  this.timeout(420_000);
  let h: Harness;
  let auth: string;
  const admin = adminToken();

  before(async () => {
    h = await startHarness();
    // A worker process of its own, as deployed: the API process answers the provider while the worker applies.
    await h.spawnWorkerProcess();
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Month' } })).body.authorization;
  });
  after(async () => h?.close());

  /** Sends deliveries in order, 16 at a time; an abandoned attempt is cut off as soon as it is sent. */
  async function send(deliveries: Delivery[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const abort = new AbortController();
        const request = fetch(`${h.baseUrl}/api/saas/iap/billingprovider/webhook?app=${APP}`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ api_version: '1.0', event: d.event }),
          signal: abort.signal,
        });
        if (d.abandoned) {
          setImmediate(() => abort.abort());
          await request.then((r) => r.arrayBuffer()).catch(() => undefined);
          continue;
        }
        const res = await request;
        assert.equal(res.status, 200, await res.text());
        await res.arrayBuffer().catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }

  /**
   * Every problem between what the service shows and the model (empty: they agree). The model is taken as of the
   * moment before the reads and the moment after: a period that ends while they run may show either way.
   */
  async function problems(worlds: World[], withAliases: boolean, read: World[] = worlds): Promise<string[]> {
    const before = Date.now();
    const m = (await h.request('GET', `/v1/billing/metrics?app=${APP}`, { token: admin })).body;
    const ids = read.flatMap((w) => expectWorld(w, before).customers.flatMap((c) => (withAliases ? [c.id, ...c.aliases] : [c.id])));
    const bodies = new Map<string, { status: number; body: CustomerBody }>();
    for (const id of ids)
      bodies.set(id, await h.request('GET', `/v1/billing/customers/${encodeURIComponent(id)}?app=${APP}`, { token: admin }));
    const after = Date.now();
    const observedTotals = {
      mrrCents: Math.round(m.mrr.amount * 100),
      activeSubscriptions: m.activeSubscriptions,
      activeTrials: m.activeTrials,
      flaggedCustomers: m.flaggedCustomers,
      scheduledDowngrades: m.scheduledDowngrades,
    };
    const against = (asOfMs: number): string[] => {
      const expectations: Expectation[] = worlds.map((w) => expectWorld(w, asOfMs));
      const { mrrMicros, ...counts } = expectations.map((e) => e.totals).reduce(sumTotals);
      const out = differences({ mrrCents: centsOf(mrrMicros), ...counts }, observedTotals, 'totals.');
      for (const customer of read.flatMap((w) => expectations[worlds.indexOf(w)]!.customers)) {
        const { mrrMicros: micros, ...rest } = customer;
        for (const id of withAliases ? [customer.id, ...customer.aliases] : [customer.id]) {
          const res = bodies.get(id);
          if (res?.status !== 200) out.push(`${id}: ${res?.status ?? 'not read'}`);
          else
            for (const line of differences({ ...rest, mrrCents: centsOf(micros) }, observedFromApi(res.body))) out.push(`${id}: ${line}`);
        }
      }
      return out;
    };
    const atStart = against(before);
    return atStart.length === 0 ? [] : against(after).length === 0 ? [] : atStart;
  }

  const settle = (worlds: World[], what: string, timeoutMs: number, withAliases = true) =>
    eventually(
      () => problems(worlds, withAliases),
      (found) => found.length === 0,
      { what, timeoutMs, intervalMs: 500 },
    );

  it('every customer and the totals equal the model, before and after periods end during the test', async () => {
    const horizon = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
    const draws = drawsFor(monthDraws(CUSTOMERS), SEED);
    const month = drawWorld(draws.world, horizon, { windowDays: 45, idPrefix: `${APP}-` });
    const monthDeliveries = planDeliveries(renderWorld(month, `${APP}-m`), draws.delivery);
    const started = Date.now();
    await send(monthDeliveries);
    const sentMs = Date.now() - started;
    await settle([month], 'the month to settle to the model', 240_000);
    const settledMs = Date.now() - started;

    // Customers whose access ends seconds from now: applied, checked while entitled, then revoked by timers alone.
    const endsFrom = Date.now() + NEAR_END_AFTER_MS;
    const nearEnds = nearEndWorld(NEAR_END_CUSTOMERS, endsFrom, 200, `${APP}-n`);
    const nearEvents = renderWorld(nearEnds, `${APP}-n`);
    await send(planDeliveries(nearEvents, []));
    // While still entitled (so it is the timers that revoke, not the events' arrival after the ends). A machine too
    // loaded to apply 20 customers' events in 12 s skips this half and says so; the check after the ends still holds.
    let checkedBefore = false;
    while (!checkedBefore && Date.now() < endsFrom - 1000) {
      checkedBefore = (await problems([month, nearEnds], false, [nearEnds])).length === 0 && Date.now() < endsFrom;
      if (!checkedBefore) await new Promise((r) => setTimeout(r, 200));
    }
    if (checkedBefore) {
      const stillEntitled = expectWorld(nearEnds, Date.now()).customers.filter((c) => c.entitlements.length > 0).length;
      assert.equal(stillEntitled, NEAR_END_CUSTOMERS, 'the model agrees: all near-end customers were still entitled');
    } else console.log('      near-end customers: not all applied before their ends (a loaded machine); checked after only');

    const lastEnd = endsFrom + (NEAR_END_CUSTOMERS - 1) * 200;
    await eventually(
      async () => Date.now(),
      (now) => now > lastEnd,
      { what: 'the near-end periods to end', timeoutMs: 30_000, intervalMs: 200 },
    );
    // As long as the month's settle allows per customer: under load 15-19 (other suites running) 8 of 20 revocations
    // had not reached the totals 30 s after the last end, each a timer's task, the record, then the totals' task.
    await settle([month, nearEnds], 'the timers to revoke', 120_000);
    const after = expectWorld(nearEnds, Date.now()).customers;
    assert.equal(after.filter((c) => c.entitlements.length > 0).length, 0, 'the model agrees: every near-end customer lost access');

    const deliveries = monthDeliveries.length + nearEvents.length;
    const customers = expectWorld(month, Date.now()).customers.length + after.length;
    const total = centsOf(expectWorld(month, Date.now()).totals.mrrMicros) / 100;
    console.log(
      `      month: ${deliveries} deliveries (${monthDeliveries.filter((d) => d.copy > 1).length} redeliveries, ` +
        `${monthDeliveries.filter((d) => d.abandoned).length} abandoned attempts), ${customers} customers, ` +
        `sent in ${(sentMs / 1000).toFixed(1)} s, settled ${(settledMs / 1000).toFixed(1)} s after the first delivery; ` +
        `MRR $${total.toFixed(2)}; ${NEAR_END_CUSTOMERS} periods ended ${checkedBefore ? 'by timer, checked entitled before' : 'during the test'}`,
    );
    assert.ok(deliveries >= 1000, `${deliveries} deliveries`);
  });
});

function sumTotals(a: ExpectedTotals, b: ExpectedTotals): ExpectedTotals {
  return {
    mrrMicros: a.mrrMicros + b.mrrMicros,
    activeSubscriptions: a.activeSubscriptions + b.activeSubscriptions,
    activeTrials: a.activeTrials + b.activeTrials,
    flaggedCustomers: a.flaggedCustomers + b.flaggedCustomers,
    scheduledDowngrades: a.scheduledDowngrades + b.scheduledDowngrades,
  };
}
