/**
 * Merges and the provider's real payload shapes through the whole stack (HTTP → inbox → relay → subscriber
 * workflows on a real Temporal → projections in a real store): alias cycles converge to one canonical customer,
 * long merge chains still resolve, a TRANSFER whose source is known by its app_user_id moves the subscription
 * once, the operator scope entitles and emails the org that app_user_id names, and events padded to the
 * intake's limits are applied or parked, never freezing a record.
 */
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { startSmtpServer } from '../support/smtp';
import { adminToken } from '../support/tokens';
import { TEST_OPERATOR_AUTHORIZATION, randomSuffix } from '../support/config';
import { DAY, envelope, eventId, providerEvent } from '../support/provider-events';
import type { BillingEvent } from '../../src/billing/provider-events';

const OPERATOR_HOOK = '/api/billing/billingprovider/webhook';

describe('billing merges and real payloads through the whole stack', function () {
  this.timeout(120_000);
  let h: Harness;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const admin = adminToken();

  before(async () => {
    smtp = await startSmtpServer();
    h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'billing@service.test' });
    await h.startWorker();
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
  });

  /** A connected app of its own (scope totals are per app), with a deliver and read helpers. */
  async function newApp(label: string) {
    const slug = `${label}-${randomSuffix()}`;
    const auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug, name: label } })).body.authorization as string;
    const hook = `/api/saas/iap/billingprovider/webhook?app=${slug}`;
    return {
      slug,
      async deliver(event: BillingEvent) {
        const res = await h.request('POST', hook, { body: envelope(event), headers: { Authorization: auth } });
        assert.equal(res.status, 200, res.text);
      },
      customer: async (id: string) =>
        (await h.request('GET', `/v1/billing/customers/${encodeURIComponent(id)}?app=${slug}`, { token: admin })).body,
      customers: async () =>
        (await h.request('GET', `/v1/billing/customers?app=${slug}&limit=200`, { token: admin })).body.customers as Array<{ id: string }>,
      mrr: async () => (await h.request('GET', `/v1/billing/metrics?app=${slug}`, { token: admin })).body.mrr.amount as number,
    };
  }

  const alias = (a: string, b: string, at: number): BillingEvent => ({
    id: eventId('alias'),
    type: 'SUBSCRIBER_ALIAS',
    app_id: 'app1a2b3c4d5',
    event_timestamp_ms: at,
    app_user_id: b,
    original_app_user_id: a,
    aliases: [a, b],
    subscriber_attributes: {},
    environment: 'PRODUCTION',
  });

  async function cycleConverges(length: number) {
    const app = await newApp(`cycle${length}`);
    const t = Date.now();
    const ids = Array.from({ length }, (_, i) => `member_${String(i).padStart(2, '0')}`);
    // Each member pays for a subscription of its own; then A→B, B→C, …, last→A.
    for (const [i, id] of ids.entries()) {
      await app.deliver(
        providerEvent('INITIAL_PURCHASE', id, { at: t - 5000 + i, purchasedAt: t - 5000, expiresAt: t + 30 * DAY, price: 1 }),
      );
    }
    for (const [i, id] of ids.entries()) await app.deliver(alias(id, ids[(i + 1) % length]!, t + i));
    const expected = length * 1;
    // Converged: every member resolves to the smallest id, which holds every subscription, counted once.
    for (const id of ids) {
      await eventually(
        () => app.customer(id),
        (c) => c?.id === ids[0] && c.subscriptions?.length === length,
        { what: `${id} resolves to ${ids[0]}`, timeoutMs: 60_000 },
      );
    }
    const customers = await eventually(
      () => app.customers(),
      (list) => list.length === 1,
      { what: 'one customer listed', timeoutMs: 30_000 },
    );
    assert.equal(customers[0]!.id, ids[0]);
    await eventually(
      () => app.mrr(),
      (mrr) => mrr === expected,
      { what: `scope MRR ${expected}`, timeoutMs: 30_000 },
    );
    // Quiescent: no workflow keeps passing state around, so the records' histories stop growing (two reads 1.5 s apart agree).
    const lengths = async () =>
      (
        await Promise.all(
          ids.map(async (id) => (await h.temporal.client.workflow.getHandle(`billing/app:${app.slug}/${id}`).describe()).historyLength),
        )
      ).join(',');
    let previous = '';
    await eventually(
      async () => {
        const [before, now] = [previous, await lengths()];
        previous = now;
        return before === now;
      },
      (stable) => stable,
      { what: 'the histories to stop growing', timeoutMs: 20_000, intervalMs: 1500 },
    );
  }

  it('a 3-cycle of SUBSCRIBER_ALIAS events converges to one canonical customer, MRR counted once', async () => {
    await cycleConverges(3);
  });

  it('a 10-cycle of SUBSCRIBER_ALIAS events converges too', async () => {
    await cycleConverges(10);
  });

  it('a 13-link alias chain: the last alias resolves to the canonical record with its subscription', async () => {
    const app = await newApp('chain');
    const t = Date.now();
    const ids = Array.from({ length: 14 }, (_, i) => `link_${String(i).padStart(2, '0')}`);
    await app.deliver(
      providerEvent('INITIAL_PURCHASE', ids[13]!, { at: t - 1000, purchasedAt: t - 1000, expiresAt: t + 30 * DAY, price: 9.99 }),
    );
    for (let i = 13; i > 0; i--) await app.deliver(alias(ids[i]!, ids[i - 1]!, t + (13 - i)));
    const last = await eventually(
      () => app.customer(ids[13]!),
      (c) => c?.id === ids[0] && c.status === 'active',
      { what: 'the last alias resolves', timeoutMs: 60_000 },
    );
    assert.equal(last.subscriptions.length, 1);
    assert.equal(last.mrrContribution, 9.99);
    await eventually(
      () => app.mrr(),
      (mrr) => mrr === 9.99,
      { what: 'scope MRR 9.99' },
    );
  });

  it('TRANSFER whose source is known by its app_user_id (anonymous original id) moves the subscription, counted once', async () => {
    const app = await newApp('transfer');
    const t = Date.now();
    const anon = `$RCAnonymousID:${randomSuffix()}f00d`;
    // After login the provider names the anonymous original id and the real id as app_user_id.
    const asLoggedIn = { app_user_id: 'real_user', original_app_user_id: anon, aliases: [anon, 'real_user'] };
    await app.deliver(
      providerEvent('INITIAL_PURCHASE', 'real_user', {
        at: t - 3000,
        purchasedAt: t - 3000,
        expiresAt: t + 30 * DAY,
        price: 19.98,
        original_transaction_id: 'otx-shared',
        ...asLoggedIn,
      }),
    );
    await app.deliver(
      providerEvent('INITIAL_PURCHASE', 'other', {
        at: t - 3000,
        purchasedAt: t - 3000,
        expiresAt: t + 30 * DAY,
        price: 32.54,
        original_transaction_id: 'otx-other',
      }),
    );
    await eventually(
      () => app.mrr(),
      (mrr) => mrr === 52.52,
      { what: 'MRR before the transfer' },
    );
    // The provider's TRANSFER sample: no app_user_id, the source named by the id in use, its far-future timestamp.
    await app.deliver({
      id: eventId('transfer'),
      type: 'TRANSFER',
      app_id: 'app1a2b3c4d5',
      event_timestamp_ms: 78789789798798,
      environment: 'PRODUCTION',
      store: 'APP_STORE',
      transferred_from: ['real_user'],
      transferred_to: ['new_device_user'],
    });
    await app.deliver(
      providerEvent('RENEWAL', 'new_device_user', {
        at: t,
        purchasedAt: t + 30 * DAY,
        expiresAt: t + 60 * DAY,
        price: 19.98,
        original_transaction_id: 'otx-shared',
      }),
    );
    const merged = await eventually(
      () => app.customer('new_device_user'),
      (c) =>
        c?.id === anon &&
        c.aliases.includes('real_user') &&
        c.subscriptions.some((s: { expiresAtMs: number }) => s.expiresAtMs === t + 60 * DAY),
      { what: 'the destination resolves to the customer that holds the subscription', timeoutMs: 30_000 },
    );
    assert.equal(merged.subscriptions.length, 1);
    assert.equal(merged.mrrContribution, 19.98);
    await eventually(
      () => app.mrr(),
      (mrr) => mrr === 52.52,
      { what: 'the subscription is counted once (52.52, not 72.50)' },
    );
    assert.equal((await app.customer('real_user')).id, anon);
  });

  it('operator scope: entitles and emails the org named by app_user_id, and an alias to an anonymous id keeps its entitlements', async () => {
    const org = `org-${randomSuffix()}`;
    await h.request('PUT', `/v1/orgs/${org}`, { token: admin, body: { name: 'Initech', ownerEmail: `owner@${org}.test` } });
    const t = Date.now();
    const anon = `$RCAnonymousID:${randomSuffix()}op`;
    const deliverOp = async (event: BillingEvent) => {
      const res = await h.request('POST', OPERATOR_HOOK, {
        body: envelope(event),
        headers: { Authorization: TEST_OPERATOR_AUTHORIZATION },
      });
      assert.equal(res.status, 200, res.text);
    };
    const named = { app_user_id: org, original_app_user_id: anon, aliases: [anon, org] };
    await deliverOp(
      providerEvent('INITIAL_PURCHASE', org, {
        at: t - 1000,
        purchasedAt: t - 1000,
        expiresAt: t + 30 * DAY,
        entitlement_ids: ['team'],
        ...named,
      }),
    );
    const entitled = await eventually(
      async () => (await h.request('GET', `/v1/orgs/${org}`, { token: admin })).body,
      (o) => o.entitlements?.length === 1,
      { what: 'org entitled' },
    );
    assert.equal(entitled.entitlements[0].id, 'team');

    // An alias linking the paying org to another anonymous id (smaller: it becomes canonical) keeps the org entitled.
    const older = `$RCAnonymousID:0000${randomSuffix()}`;
    await deliverOp({ ...alias(older, org, t), app_user_id: org });
    await eventually(
      async () => (await h.request('GET', `/v1/billing/customers/${encodeURIComponent(org)}`, { token: admin })).body,
      (c) => c?.id === older && c.status === 'active',
      { what: 'the org resolves to the new canonical record' },
    );
    const stillEntitled = await eventually(
      async () => (await h.request('GET', `/v1/orgs/${org}`, { token: admin })).body,
      (o) => (o.billingVersion ?? 0) >= 0 && o.entitlements?.length === 1,
      { what: 'org still entitled after the merge' },
    );
    assert.equal(stillEntitled.entitlements[0].id, 'team');

    const issue = providerEvent('BILLING_ISSUE', org, { at: t + 1000, purchasedAt: t - 1000, expiresAt: t + 30 * DAY, ...named });
    await deliverOp(issue);
    const mail = await eventually(
      async () => smtp.mails.find((m) => m.raw.includes(issue.id)),
      (m) => m !== undefined,
      { what: 'the billing-issue mail to the org owner' },
    );
    assert.deepEqual(mail!.to, [`owner@${org}.test`]);
    assert.match(mail!.raw, /Billing issue with the Initech subscription/);
    // Still entitled once everything settled (the merged record never wrote "nothing" over it).
    assert.equal((await h.request('GET', `/v1/orgs/${org}`, { token: admin })).body.entitlements.length, 1);
  });

  it('a flood of 24 concurrent events of ~240 KB each is applied, not frozen', async () => {
    const app = await newApp('flood');
    const t = Date.now();
    const padding = 'x'.repeat(1000);
    const attributes = Object.fromEntries(Array.from({ length: 230 }, (_, i) => [`attr_${i}`, { value: padding, updated_at_ms: t }]));
    const events = Array.from({ length: 24 }, (_, i) =>
      providerEvent('INITIAL_PURCHASE', 'flooded', {
        at: t + i,
        purchasedAt: t,
        expiresAt: t + 30 * DAY,
        price: 1,
        original_transaction_id: `otx-flood-${i}`,
        subscriber_attributes: attributes,
      }),
    );
    assert.ok(JSON.stringify(envelope(events[0]!)).length > 230_000);
    await Promise.all(events.map((e) => app.deliver(e)));
    const c = await eventually(
      () => app.customer('flooded'),
      (x) => x?.subscriptions?.length === 24,
      { what: 'all 24 applied', timeoutMs: 60_000 },
    );
    assert.equal(c.mrrContribution, 24);
  });

  it('purchases with 50 entitlement ids of 1,000 characters: applied while the record fits, then parked, never stuck', async () => {
    const app = await newApp('bigents');
    const t = Date.now();
    const entitlements = (n: number) => Array.from({ length: 50 }, (_, i) => `${String(n).padStart(2, '0')}-${i}-`.padEnd(1000, 'e'));
    for (let n = 0; n < 30; n++) {
      await app.deliver(
        providerEvent('INITIAL_PURCHASE', 'hoarder', {
          at: t + n,
          purchasedAt: t,
          expiresAt: t + 30 * DAY,
          price: 1,
          original_transaction_id: `otx-big-${n}`,
          entitlement_ids: entitlements(n),
        }),
      );
    }
    // Every purchase is either applied or parked as a dead letter an operator sees.
    const parked = async () =>
      (await h.request('GET', `/v1/billing/dead-letters?app=${app.slug}&limit=100`, { token: admin })).body.deadLetters as Array<{
        reason: string;
      }>;
    const settled = await eventually(
      async () => ({ c: await app.customer('hoarder'), p: await parked() }),
      ({ c, p }) => (c?.subscriptions?.length ?? 0) + p.length === 30,
      { what: 'all 30 applied or parked', timeoutMs: 60_000 },
    );
    assert.ok(
      settled.p.length > 0 && settled.c.subscriptions.length > 0,
      `${settled.c.subscriptions.length} applied, ${settled.p.length} parked`,
    );
    assert.match(settled.p[0]!.reason, /over its budget/);
    // Not stuck: a later ordinary event for the same subscriber is still applied.
    await app.deliver(
      providerEvent('INITIAL_PURCHASE', 'hoarder', {
        at: t + 100,
        purchasedAt: t,
        expiresAt: t + 30 * DAY,
        price: 2,
        original_transaction_id: 'otx-small',
      }),
    );
    await eventually(
      () => app.customer('hoarder'),
      (c) => c.subscriptions.some((s: { key: string }) => s.key === 'otx-small'),
      { what: 'a later event applied' },
    );
  });
});
