/**
 * What the console shows of a customer's money and history, through the real stack: each event's facts on the
 * timeline, the customer's lifetime spend, refunds, first appearance and country, the search by any id in any
 * case, by transaction id and by product, and the event charts by the provider's event time (nothing before the
 * first event). Expected values come from the events sent (the provider's documented members), not from the code.
 */
import assert from 'node:assert/strict';
import { utcDay } from '../../src/store/billing-daily';
import { BillingTimelineRepository } from '../../src/store/billing-timeline';
import { WebhookEventRepository, eventKey } from '../../src/store/webhook-events';
import { applyEvent, initialState } from '../../src/billing/subscriber-state';
import { reducerEvent } from '../../src/billing/provider-events';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { DAY, providerEvent } from '../support/provider-events';
import { adminToken } from '../support/tokens';

const APP = 'facts';

describe('customer facts, search and event charts by provider time (real stack)', function () {
  this.timeout(120_000);
  let h: Harness;
  let auth = '';
  const admin = adminToken();
  const now = Date.now();
  const at = { purchase: now - 10 * DAY, renewal: now - 5 * DAY, refund: now - 2 * DAY };

  before(async () => {
    h = await startHarness();
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Facts' } })).body.authorization;
    await h.startWorker();
    const client = billingClient(h, APP, () => auth);
    const sub = { original_transaction_id: 'OTX-Payer', product_id: 'pro_monthly', country_code: 'DE' };
    await client.deliver(
      providerEvent('INITIAL_PURCHASE', 'Payer-1', {
        at: at.purchase,
        expiresAt: at.purchase + 30 * DAY,
        transaction_id: 'TX-first',
        aliases: ['Payer-1', '$RCAnonymousID:AbC'],
        ...sub,
      }),
    );
    await client.settled('$RCAnonymousID:AbC', 1);
    await client.deliver(
      providerEvent('RENEWAL', 'Payer-1', {
        at: at.renewal,
        purchasedAt: at.renewal,
        expiresAt: at.renewal + 30 * DAY,
        transaction_id: 'TX-second',
        aliases: ['Payer-1', '$RCAnonymousID:AbC'],
        ...sub,
      }),
    );
    await client.settled('$RCAnonymousID:AbC', 2);
    await client.deliver(
      providerEvent('CANCELLATION', 'Payer-1', {
        at: at.refund,
        purchasedAt: at.renewal,
        expiresAt: at.renewal + 30 * DAY,
        cancel_reason: 'CUSTOMER_SUPPORT',
        price: -9.99,
        aliases: ['Payer-1', '$RCAnonymousID:AbC'],
        ...sub,
      }),
    );
    await client.settled('$RCAnonymousID:AbC', 3);
    // A sandbox purchase: not money, unless the sandbox is asked for.
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'tester', { at: at.renewal, environment: 'SANDBOX', store: 'PLAY_STORE' }));
    await client.settled('tester', 1);
  });
  after(async () => h?.close());

  it("a customer's lifetime spend, refunds, first appearance and country, and a refunded subscription", async () => {
    const c = (await h.request('GET', `/v1/billing/customers/Payer-1?app=${APP}`, { token: admin })).body;
    assert.equal(c.id, '$RCAnonymousID:AbC');
    assert.deepEqual(c.facts, {
      since: new Date(at.purchase).toISOString(),
      lifetimeSpendUsd: 19.98,
      refunds: { count: 1, amountUsd: 9.99 },
      country: 'DE',
      partial: false,
    });
    assert.equal(c.subscriptions[0].status, 'refunded');
    const timeline = (await h.request('GET', `/v1/billing/customers/Payer-1/timeline?app=${APP}`, { token: admin })).body.entries;
    assert.deepEqual(
      timeline.map((e: { type: string; facts: { kind: string; priceUsd: number } }) => [e.type, e.facts.kind, e.facts.priceUsd]),
      [
        ['CANCELLATION', 'refund', -9.99],
        ['RENEWAL', 'renewal', 9.99],
        ['INITIAL_PURCHASE', 'purchase', 9.99],
      ],
    );
    assert.equal(timeline[0].after.status, 'expired');
  });

  it('finds a customer by any id in any case, by transaction id, and lists by product and refunded status', async () => {
    const find = async (q: string) =>
      (await h.request('GET', `/v1/billing/customers?app=${APP}&q=${encodeURIComponent(q)}`, { token: admin })).body;
    for (const q of ['payer-1', 'PAYER-1', '$rcanonymousid:abc']) {
      const r = await find(q);
      assert.equal(r.exactMatch?.id, '$RCAnonymousID:AbC', q);
      assert.equal(r.exactMatchBy, 'id');
    }
    for (const q of ['TX-second', 'OTX-Payer']) {
      const r = await find(q);
      assert.equal(r.exactMatch?.id, '$RCAnonymousID:AbC', q);
      assert.equal(r.exactMatchBy, 'transaction');
    }
    assert.equal((await find('TX-nobody')).exactMatch, null);
    const ids = async (query: string) =>
      (await h.request('GET', `/v1/billing/customers?app=${APP}${query}`, { token: admin })).body.customers.map(
        (c: { id: string }) => c.id,
      );
    assert.deepEqual(await ids('&product=pro_monthly'), ['$RCAnonymousID:AbC']);
    assert.deepEqual(await ids('&status=refunded'), ['$RCAnonymousID:AbC']);
    assert.deepEqual(await ids('&product=com.acme.pro.monthly'), ['tester']);
  });

  it('charts by provider time: nothing before the first event, each point on its event’s day, filters and the sandbox apart', async () => {
    const trends = async (query = '') => {
      const res = await h.request('GET', `/v1/billing/trends/events?app=${APP}&days=30${query}`, { token: admin });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const t = await eventually(
      () => trends(),
      (b) => b.points.some((p: { refunds: number }) => p.refunds === 1),
      { what: 'the refund on the chart' },
    );
    assert.equal(t.firstDay, utcDay(at.purchase));
    assert.equal(t.points[0].day, utcDay(at.purchase), 'no point before the first event');
    assert.equal(t.points.at(-1).day, utcDay(now));
    const on = (day: number) => t.points.find((p: { day: string }) => p.day === utcDay(day));
    assert.deepEqual([on(at.purchase).revenue, on(at.purchase).newCustomers], [9.99, 1]);
    assert.equal(on(at.renewal).revenue, 9.99, 'the sandbox purchase of that day is not money');
    assert.deepEqual([on(at.refund).refunds, on(at.refund).refundAmount], [1, 9.99]);
    const total = t.points.reduce((n: number, p: { revenue: number }) => n + p.revenue, 0);
    assert.equal(Math.round(total * 100) / 100, 19.98);
    assert.deepEqual(t.options.countries, ['DE', 'US'], 'the sandbox purchase is from the US');
    const sandbox = await trends('&environment=SANDBOX');
    assert.equal(sandbox.points.find((p: { day: string }) => p.day === utcDay(at.renewal)).newCustomers, 1);
    const elsewhere = await trends('&country=FR');
    assert.equal(
      elsewhere.points.reduce((n: number, p: { revenue: number }) => n + p.revenue, 0),
      0,
    );
    assert.equal(
      (await trends('&store=APP_STORE&product=pro_monthly')).points.find((p: { day: string }) => p.day === utcDay(at.purchase)).revenue,
      9.99,
    );
    assert.equal((await h.request('GET', `/v1/billing/trends/events?app=${APP}&days=7&country=germany`, { token: admin })).status, 400);
  });

  it('events applied in one write each keep their own before and after', async () => {
    // Two events a relay batch would bring together: stored in the inbox, applied in one write.
    const inbox = new WebhookEventRepository(h.db);
    const purchase = providerEvent('INITIAL_PURCHASE', 'batched', { at: now - DAY, id: 'batch-purchase' });
    const refund = providerEvent('CANCELLATION', 'batched', {
      at: now - DAY + 1000,
      id: 'batch-refund',
      cancel_reason: 'CUSTOMER_SUPPORT',
      price: -9.99,
    });
    for (const e of [purchase, refund])
      await inbox.accept({
        _id: eventKey(`app:${APP}`, e.id),
        scope: `app:${APP}`,
        eventId: e.id,
        type: e.type,
        workflowId: null,
        subscriberId: 'batched',
        eventJson: JSON.stringify(e),
        receivedAt: new Date(),
        acceptedBy: 'test',
        ignored: false,
        deliveries: 1,
      });
    const nowMs = Date.now();
    const once = applyEvent(initialState(`app:${APP}`, 'batched'), reducerEvent(purchase), nowMs).state;
    const both = applyEvent(once, reducerEvent(refund), nowMs).state;
    await new BillingTimelineRepository(h.db, inbox).append(null, both, new Date());
    await h.repos.subscribers.save(both, `billing/app:${APP}/batched`, new Date());
    const entries = (await h.request('GET', `/v1/billing/customers/batched/timeline?app=${APP}`, { token: admin })).body;
    const byType = Object.fromEntries(entries.entries.map((e: { type: string }) => [e.type, e]));
    assert.equal(byType.INITIAL_PURCHASE.before, null);
    assert.equal(byType.INITIAL_PURCHASE.after.status, 'active', 'the purchase made it active, not expired');
    assert.equal(byType.CANCELLATION.before.status, 'active');
    assert.equal(byType.CANCELLATION.after.status, 'expired');
    assert.ok(entries.entries.every((e: { ownChange: boolean }) => e.ownChange));
  });
});
