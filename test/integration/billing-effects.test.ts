import assert from 'node:assert/strict';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { startSmtpServer } from '../support/smtp';
import { adminToken } from '../support/tokens';

import { TEST_OPERATOR_AUTHORIZATION, randomSuffix } from '../support/config';
import { DAY, envelope, eventId, providerEvent } from '../support/provider-events';
import type { BillingEvent } from '../../src/billing/provider-events';
import { SubscriberRepository } from '../../src/store/subscribers';

// A slug of its own: suites share one Temporal namespace, and workflow ids are derived from the scope.
const APP = `acme-${randomSuffix()}`;

const APP_HOOK = `/api/saas/iap/billingprovider/webhook?app=${APP}`;
const OPERATOR_HOOK = '/api/billing/billingprovider/webhook';

describe('billing effects: entity workflows on a real Temporal, projections in a real store', () => {
  let h: Harness;
  let auth: string;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const admin = adminToken();

  before(async () => {
    smtp = await startSmtpServer();
    h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'billing@service.test' });
    await h.startWorker();
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Acme' } })).body.authorization;
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
  });

  const deliver = async (event: BillingEvent, path = APP_HOOK, authorization = auth) => {
    const res = await h.request('POST', path, { body: envelope(event), headers: { Authorization: authorization } });
    assert.equal(res.status, 200, res.text);
    return res.body as { duplicate: boolean; ignored: boolean };
  };
  const customer = (id: string, app: string | null = APP) =>
    h.request('GET', `/v1/billing/customers/${encodeURIComponent(id)}${app ? `?app=${app}` : ''}`, { token: admin });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const customerWhen = (id: string, done: (c: any) => boolean, what: string, app: string | null = APP) =>
    eventually(
      async () => (await customer(id, app)).body,
      (c) => c && c.id !== undefined && done(c),
      { what, timeoutMs: 20_000 },
    );
  const metrics = async (app = APP) => (await h.request('GET', `/v1/billing/metrics?app=${app}`, { token: admin })).body;

  it('INITIAL_PURCHASE entitles until expiration and adds MRR; RENEWAL extends it', async () => {
    const now = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'buyer', { at: now, purchasedAt: now, expiresAt: now + 30 * DAY, price: 9.99 }));
    const c = await customerWhen('buyer', (x) => x.status === 'active', 'buyer active');
    assert.deepEqual(
      c.entitlements.map((e: { id: string }) => e.id),
      ['pro'],
    );
    assert.equal(c.entitlements[0].expiresAt, new Date(now + 30 * DAY).toISOString());
    assert.equal(c.mrrContribution, 9.99);
    assert.equal(c.workflowId, `billing/app:${APP}/buyer`);

    await deliver(
      providerEvent('RENEWAL', 'buyer', { at: now + 1000, purchasedAt: now + 30 * DAY, expiresAt: now + 60 * DAY, price: 9.99 }),
    );
    const renewed = await customerWhen(
      'buyer',
      (x) => x.entitlements[0]?.expiresAt === new Date(now + 60 * DAY).toISOString(),
      'renewal extends',
    );
    assert.equal(renewed.mrrContribution, 9.99);
  });

  it('a lifecycle trial → purchase → renewal → cancellation downgrades at the period end', async () => {
    const t = Date.now();
    const user = 'lifecycle';
    await deliver(
      providerEvent('INITIAL_PURCHASE', user, {
        at: t - 40 * DAY,
        purchasedAt: t - 40 * DAY,
        expiresAt: t - 33 * DAY,
        price: 0,
        periodType: 'TRIAL',
      }),
    );
    await deliver(
      providerEvent('RENEWAL', user, { at: t - 33 * DAY, purchasedAt: t - 33 * DAY, expiresAt: t - 3 * DAY, is_trial_conversion: true }),
    );
    // The current period ends 4 s from now: the durable timer must fire then.
    const periodEnd = Date.now() + 4_000;
    await deliver(providerEvent('RENEWAL', user, { at: t - 3 * DAY, purchasedAt: periodEnd - 30 * DAY, expiresAt: periodEnd }));
    await deliver(
      providerEvent('CANCELLATION', user, { at: t, purchasedAt: periodEnd - 30 * DAY, expiresAt: periodEnd, cancel_reason: 'UNSUBSCRIBE' }),
    );
    const scheduled = await customerWhen(user, (x) => x.scheduledDowngrade !== null, 'downgrade scheduled');
    assert.equal(scheduled.status, 'cancelled');
    assert.equal(scheduled.scheduledDowngrade.at, new Date(periodEnd).toISOString());
    assert.deepEqual(
      scheduled.entitlements.map((e: { id: string }) => e.id),
      ['pro'],
      'access continues until the period ends',
    );
    assert.equal(scheduled.mrrContribution, 9.99, 'cancelled but unexpired still counts');

    const expired = await customerWhen(user, (x) => x.status === 'expired', 'downgrade at period end');
    assert.ok(Date.now() >= periodEnd, 'not before the period end');
    assert.deepEqual(expired.entitlements, []);
    assert.equal(expired.scheduledDowngrade, null);
    assert.equal(expired.mrrContribution, 0);
  });

  it('a renewal before the period end cancels the scheduled downgrade', async () => {
    const t = Date.now();
    const user = 'saved';
    const periodEnd = t + 3_000;
    await deliver(providerEvent('INITIAL_PURCHASE', user, { at: t - 1000, purchasedAt: periodEnd - 30 * DAY, expiresAt: periodEnd }));
    await deliver(
      providerEvent('CANCELLATION', user, {
        at: t,
        purchasedAt: periodEnd - 30 * DAY,
        expiresAt: periodEnd,
        cancel_reason: 'BILLING_ERROR',
      }),
    );
    await customerWhen(user, (x) => x.scheduledDowngrade !== null, 'downgrade scheduled');
    await deliver(providerEvent('RENEWAL', user, { at: t + 500, purchasedAt: periodEnd, expiresAt: periodEnd + 30 * DAY }));
    await customerWhen(user, (x) => x.scheduledDowngrade === null && x.status === 'active', 'downgrade cancelled');
    // Past the old period end, the customer is still active: the timer was cancelled, not merely late.
    await eventually(
      async () => Date.now(),
      (n) => n > periodEnd + 1500,
      { what: 'old period end to pass', intervalMs: 100 },
    );
    const after = (await customer(user)).body;
    assert.equal(after.status, 'active');
    assert.deepEqual(
      after.entitlements.map((e: { id: string }) => e.id),
      ['pro'],
    );
  });

  it('a refund takes effect at once', async () => {
    const t = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'refunded', { at: t - 1000, purchasedAt: t - 1000, expiresAt: t + 30 * DAY }));
    await customerWhen('refunded', (x) => x.status === 'active', 'active');
    await deliver(
      providerEvent('CANCELLATION', 'refunded', {
        at: t,
        purchasedAt: t - 1000,
        expiresAt: t + 30 * DAY,
        cancel_reason: 'CUSTOMER_SUPPORT',
        price: -9.99,
      }),
    );
    const c = await customerWhen('refunded', (x) => x.entitlements.length === 0, 'refund revokes now');
    assert.equal(c.mrrContribution, 0);
  });

  it('BILLING_ISSUE flags the customer; a RENEWAL clears the flag', async () => {
    const t = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'flaky', { at: t - 2000, purchasedAt: t - 2000, expiresAt: t + 30 * DAY }));
    await deliver(
      providerEvent('BILLING_ISSUE', 'flaky', {
        at: t - 1000,
        purchasedAt: t - 2000,
        expiresAt: t + 30 * DAY,
        grace_period_expiration_at_ms: t + 16 * DAY,
      }),
    );
    const flagged = await customerWhen('flaky', (x) => x.flags.length === 1, 'flagged');
    assert.equal(flagged.flags[0].type, 'billing_issue');
    const list = await h.request('GET', `/v1/billing/customers?app=${APP}&flagged=true`, { token: admin });
    assert.ok(list.body.customers.some((c: { id: string }) => c.id === 'flaky'));
    await deliver(providerEvent('RENEWAL', 'flaky', { at: t, purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }));
    await customerWhen('flaky', (x) => x.flags.length === 0, 'flag cleared');
    assert.equal(smtp.mails.length, 0, 'app scope sends no email');
  });

  it('SUBSCRIBER_ALIAS merges records: any alias resolves to the canonical customer, MRR counted once', async () => {
    const t = Date.now();
    await deliver(
      providerEvent('INITIAL_PURCHASE', 'anon-1', { at: t - 2000, purchasedAt: t - 2000, expiresAt: t + 30 * DAY, price: 4.99 }),
    );
    await customerWhen('anon-1', (x) => x.status === 'active', 'anon active');
    await deliver({
      id: eventId('alias'),
      type: 'SUBSCRIBER_ALIAS',
      event_timestamp_ms: t,
      app_user_id: 'anon-1',
      original_app_user_id: 'ada',
      aliases: ['ada', 'anon-1'],
      environment: 'PRODUCTION',
    });
    // The canonical record absorbs the alias's history a moment after the alias event: wait for both.
    const merged = await customerWhen(
      'anon-1',
      (x) => x.id === 'ada' && x.mrrContribution === 4.99,
      'alias resolves to the canonical customer, which absorbed it',
    );
    assert.ok(merged.aliases.includes('anon-1'));
    assert.equal(merged.status, 'active');
    assert.equal(merged.mrrContribution, 4.99);
    const subscribers = h.db.collection<{ _id: string; mergedInto: string | null; contribution: { mrrMicros: number } }>(
      'billing_subscribers',
    );
    const old = await eventually(
      () => subscribers.findOne({ _id: `app:${APP}|anon-1` }),
      (r) => r?.mergedInto === 'ada',
      { what: 'old record points to canonical' },
    );
    assert.equal(old!.contribution.mrrMicros, 0, 'the merged record no longer counts');
    const canonical = await subscribers.findOne({ _id: `app:${APP}|ada` });
    assert.equal(canonical!.contribution.mrrMicros, 4_990_000, 'the canonical record counts it once');
  });

  it('TRANSFER merges the records under the smallest id, keeps one live entitlement and does not revive an expired one', async () => {
    const t = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'giver', { at: t - 3000, purchasedAt: t - 3000, expiresAt: t + 30 * DAY }));
    await deliver(providerEvent('INITIAL_PURCHASE', 'lapsed', { at: t - 40 * DAY, purchasedAt: t - 40 * DAY, expiresAt: t - 10 * DAY }));
    await deliver(
      providerEvent('EXPIRATION', 'lapsed', {
        at: t - 10 * DAY,
        purchasedAt: t - 40 * DAY,
        expiresAt: t - 10 * DAY,
        expiration_reason: 'UNSUBSCRIBE',
      }),
    );
    await customerWhen('giver', (x) => x.status === 'active', 'giver active');
    await customerWhen('lapsed', (x) => x.status === 'expired', 'lapsed expired');
    await deliver({
      id: eventId('transfer'),
      type: 'TRANSFER',
      event_timestamp_ms: t,
      transferred_from: ['giver', 'lapsed'],
      transferred_to: ['taker'],
      environment: 'PRODUCTION',
      store: 'APP_STORE',
    });
    // One customer now, under the smallest of its ids; the destination's id leads to it.
    const taker = await customerWhen(
      'taker',
      (x) => x.id === 'giver' && x.aliases.includes('lapsed') && x.subscriptions.length === 2,
      'the destination resolves to the merged customer',
    );
    assert.equal(taker.status, 'active');
    assert.deepEqual(
      taker.entitlements.map((e: { id: string }) => e.id),
      ['pro'],
    );
    assert.equal(taker.subscriptions.filter((s: { status: string }) => s.status === 'active').length, 1, 'the expired one stays expired');
    const records = h.db.collection<{ _id: string; mergedInto: string | null; view: { entitlements: unknown[] } }>('billing_subscribers');
    for (const id of ['taker', 'lapsed']) {
      const merged = await eventually(
        () => records.findOne({ _id: `app:${APP}|${id}` }),
        (r) => r?.mergedInto === 'giver',
        { what: `${id} merged into giver` },
      );
      assert.deepEqual(merged!.view.entitlements, [], `${id} shows nothing of its own`);
    }
  });

  it('events a dead API instance acknowledged but never relayed are relayed by recovery, once', async () => {
    const t = Date.now();
    const event = providerEvent('INITIAL_PURCHASE', 'orphan', { at: t, purchasedAt: t, expiresAt: t + 30 * DAY, price: 2.5 });
    // As if an instance died right after acknowledging: the event is in the inbox, its last checkpoint older.
    await h.db
      .collection('webhook_relay_checkpoints')
      .insertOne({ _id: 'dead-instance' as never, safeUntil: new Date(t - 120_000), heartbeatAt: new Date(t - 90_000) });
    await h.db.collection('webhook_events').insertOne({
      _id: `app:${APP}|${event.id}` as never,
      scope: `app:${APP}`,
      eventId: event.id,
      type: event.type,
      workflowId: `billing/app:${APP}/orphan`,
      subscriberId: 'orphan',
      eventJson: JSON.stringify(event),
      receivedAt: new Date(t - 60_000),
      acceptedBy: 'dead-instance',
      ignored: false,
      deliveries: 1,
    });
    assert.equal(await h.forwarder.recover(), 1);
    const c = await customerWhen('orphan', (x) => x.status === 'active', 'recovered event applied');
    assert.equal(c.mrrContribution, 2.5);
    assert.equal(
      await h.db.collection('webhook_relay_checkpoints').countDocuments({ _id: 'dead-instance' as never }),
      0,
      'the dead checkpoint is retired',
    );
    assert.equal(await h.forwarder.recover(), 0, 'nothing left to recover');
    const own = await h.db.collection('webhook_relay_checkpoints').findOne({ _id: h.forwarder.instanceId as never });
    assert.ok(own, 'the live instance keeps its own checkpoint');
  });

  it('MRR: the totals equal a full recompute over the stored contributions', async () => {
    const repo = new SubscriberRepository(h.db);

    const m = await eventually(
      async () => ({ api: await metrics(), full: await repo.sumContributions(`app:${APP}`) }),
      (x) =>
        Math.round(x.api.mrr.amount * 1e6) === x.full.totals.mrrMicros && x.api.activeSubscriptions === x.full.totals.activeSubscriptions,
      { what: 'incremental totals to agree with the full recompute' },
    );
    assert.ok(m.api.mrr.amount > 0);
    assert.equal(m.api.flaggedCustomers, m.full.totals.flaggedCustomers);
    assert.equal(m.api.scheduledDowngrades, m.full.totals.scheduledDowngrades);
  });

  it('operator scope: purchases entitle the org, a billing issue emails the owner once per event id', async () => {
    await h.request('PUT', '/v1/orgs/globex', { token: admin, body: { name: 'Globex', ownerEmail: 'owner@globex.test' } });
    await h.request('PUT', '/v1/projects/globex-web', { token: admin, body: { name: 'Globex Web', org: 'globex' } });
    const t = Date.now();
    await deliver(
      providerEvent('INITIAL_PURCHASE', 'globex', {
        at: t - 1000,
        purchasedAt: t - 1000,
        expiresAt: t + 30 * DAY,
        entitlement_ids: ['pro'],
      }),
      OPERATOR_HOOK,
      TEST_OPERATOR_AUTHORIZATION,
    );
    const org = await eventually(
      async () => (await h.request('GET', '/v1/orgs/globex', { token: admin })).body,
      (o) => o.entitlements?.length === 1,
      { what: 'org entitled' },
    );
    assert.equal(org.entitlements[0].id, 'pro');
    const project = await h.request('GET', '/v1/projects/globex-web', { token: admin });
    assert.deepEqual(
      project.body.effectiveEntitlements.map((e: { id: string }) => e.id),
      ['pro'],
      'a project inherits its org’s',
    );

    const issue = providerEvent('BILLING_ISSUE', 'globex', { at: t, purchasedAt: t - 1000, expiresAt: t + 30 * DAY });
    await deliver(issue, OPERATOR_HOOK, TEST_OPERATOR_AUTHORIZATION);
    assert.equal((await deliver(issue, OPERATOR_HOOK, TEST_OPERATOR_AUTHORIZATION)).duplicate, true);
    await eventually(
      async () => smtp.mails.length,
      (n) => n >= 1,
      { what: 'the billing-issue email' },
    );
    await customerWhen('globex', (x) => x.flags.length === 1, 'operator customer flagged', null);
    const mail = smtp.mails[0]!;
    assert.deepEqual(mail.to, ['owner@globex.test']);
    assert.match(mail.raw, /Billing issue with the Globex subscription/);
    assert.match(mail.raw, new RegExp(issue.id));
    // The redelivery and any activity retry must not have sent a second one.
    const outbox = await h.db.collection('mail_outbox').find({}).toArray();
    assert.equal(outbox.length, 1);
    assert.equal(outbox[0]!.status, 'sent');
    assert.equal(smtp.mails.length, 1);
  });
});
