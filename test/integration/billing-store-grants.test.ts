/**
 * Store- and dashboard-initiated changes of access and provider times from the far future, sent in the
 * provider's sample shapes through the real stack (HTTP → inbox → relay → workflow → store): the customer, the
 * scope's MRR and the timeline.
 */
import assert from 'node:assert/strict';
import { billingSuite } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { randomSuffix } from '../support/config';
import { DAY, providerEvent } from '../support/provider-events';
import { adminToken } from '../support/tokens';

const APP = `grants-${randomSuffix()}`;
const YEAR_9000 = Date.UTC(9000, 0, 1);

describe('billing: store-initiated changes of access and implausible times (real stack)', () => {
  const { harness, deliver, customer } = billingSuite(APP, { worker: true });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const customerWhen = (id: string, ok: (c: Record<string, any>) => boolean, what: string) =>
    eventually(
      () => customer(id),
      (c) => c.code === undefined && ok(c),
      { what: `${id}: ${what}`, timeoutMs: 30_000 },
    );
  const timeline = async (id: string) =>
    (await harness().request('GET', `/v1/billing/customers/${encodeURIComponent(id)}/timeline?app=${APP}`, { token: adminToken() })).body;

  it('SUBSCRIPTION_EXTENDED: a cancelled subscription is downgraded at the new end, not the old one', async () => {
    const t = Date.now();
    const oldEnd = t + 3_000;
    const newEnd = t + 9_000;
    await deliver(
      providerEvent('INITIAL_PURCHASE', 'extended', { at: t - 2000, purchasedAt: t - 30 * DAY + oldEnd - t, expiresAt: oldEnd }),
    );
    await deliver(
      providerEvent('CANCELLATION', 'extended', {
        at: t - 1000,
        purchasedAt: t - 30 * DAY + oldEnd - t,
        expiresAt: oldEnd,
        cancel_reason: 'UNSUBSCRIBE',
      }),
    );
    await deliver(
      providerEvent('SUBSCRIPTION_EXTENDED', 'extended', { at: t, purchasedAt: t - 30 * DAY + oldEnd - t, expiresAt: newEnd, price: 0 }),
    );
    const c = await customerWhen('extended', (x) => x.scheduledDowngrade?.at === new Date(newEnd).toISOString(), 'downgrade moved');
    assert.equal(c.entitlements[0].expiresAt, new Date(newEnd).toISOString());
    assert.equal(c.mrrContribution, 9.99, 'an extension changes no price');
    await customerWhen('extended', (x) => x.status === 'expired', 'downgraded');
    assert.ok(Date.now() >= newEnd, `downgraded ${newEnd - Date.now()} ms before the extended end`);
  });

  it('REFUND_REVERSED gives access and MRR back', async () => {
    const t = Date.now();
    await deliver(
      providerEvent('INITIAL_PURCHASE', 'disputed', { at: t - 2000, purchasedAt: t - 2000, expiresAt: t + 30 * DAY, price: 20 }),
    );
    await deliver(
      providerEvent('CANCELLATION', 'disputed', {
        at: t - 1000,
        purchasedAt: t - 2000,
        expiresAt: t + 30 * DAY,
        cancel_reason: 'CUSTOMER_SUPPORT',
        price: -20,
      }),
    );
    await customerWhen('disputed', (x) => x.entitlements.length === 0 && x.lastEvent?.type === 'CANCELLATION', 'refunded');
    await deliver(providerEvent('REFUND_REVERSED', 'disputed', { at: t, purchasedAt: t - 2000, expiresAt: t + 30 * DAY, price: 20 }));
    const c = await customerWhen('disputed', (x) => x.entitlements.length === 1, 'access back');
    assert.equal(c.status, 'active');
    assert.equal(c.mrrContribution, 20);
    assert.equal(c.entitlements[0].expiresAt, new Date(t + 30 * DAY).toISOString());
  });

  it('NON_RENEWING_PURCHASE granted from the dashboard (PROMOTIONAL, no expiration): entitled for good, no MRR', async () => {
    const t = Date.now();
    await deliver(
      providerEvent('NON_RENEWING_PURCHASE', 'promo', {
        at: t,
        purchasedAt: t,
        expiresAt: null,
        price: 0,
        store: 'PROMOTIONAL',
        period_type: 'PROMOTIONAL',
        product_id: 'rc_promo_pro_lifetime',
        original_transaction_id: null,
        transaction_id: null,
      }),
    );
    const c = await customerWhen('promo', (x) => x.status === 'active', 'granted');
    assert.deepEqual(c.entitlements, [{ id: 'pro', productId: 'rc_promo_pro_lifetime', expiresAt: null }]);
    assert.equal(c.mrrContribution, 0);
    assert.equal(c.scheduledDowngrade, null);
    // Stored with the record it belongs to: what it adds to the scope totals, which a grant is not part of.
    const record = await harness()
      .db.collection<{ _id: string; contribution: { mrrMicros: number; activeSubscriptions: number } }>('billing_subscribers')
      .findOne({ _id: `app:${APP}|promo` });
    assert.deepEqual([record?.contribution.mrrMicros, record?.contribution.activeSubscriptions], [0, 0]);
  });

  it('TEMPORARY_ENTITLEMENT_GRANT entitles until its expiration, then ends on its own', async () => {
    const t = Date.now();
    const until = t + 4_000;
    await deliver(
      providerEvent('TEMPORARY_ENTITLEMENT_GRANT', 'outage', {
        at: t,
        purchasedAt: t,
        expiresAt: until,
        price: 0,
        original_transaction_id: null,
      }),
    );
    const c = await customerWhen('outage', (x) => x.entitlements.length === 1, 'granted');
    assert.equal(c.entitlements[0].expiresAt, new Date(until).toISOString());
    assert.equal(c.mrrContribution, 0);
    await customerWhen('outage', (x) => x.entitlements.length === 0, 'the grant over');
    assert.ok(Date.now() >= until);
  });

  it('a BILLING_ISSUE dated year 9000 is cleared by a later RENEWAL; the timeline keeps the provider time', async () => {
    const t = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'future', { at: t - 2000, purchasedAt: t - 2000, expiresAt: t + 30 * DAY }));
    await deliver(providerEvent('BILLING_ISSUE', 'future', { at: YEAR_9000, purchasedAt: t - 2000, expiresAt: t + 30 * DAY, price: 0 }));
    await customerWhen('future', (x) => x.flags.length === 1, 'flagged');
    await deliver(providerEvent('RENEWAL', 'future', { at: Date.now() + 1000, purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }));
    const c = await customerWhen('future', (x) => x.flags.length === 0, 'flag cleared by the renewal');
    assert.equal(c.status, 'active');
    const entries = await eventually(
      () => timeline('future'),
      (b) => JSON.stringify(b).includes('BILLING_ISSUE'),
      { what: 'the timeline' },
    );
    assert.ok(JSON.stringify(entries).includes('9000-01-01'), 'the provider time is kept as data');
  });

  it('a refund dated year 9000 does not block a re-purchase', async () => {
    const t = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'refund9000', { at: t - 3000, purchasedAt: t - 3000, expiresAt: t + 30 * DAY }));
    await deliver(
      providerEvent('CANCELLATION', 'refund9000', {
        at: YEAR_9000,
        purchasedAt: t - 3000,
        expiresAt: t + 30 * DAY,
        cancel_reason: 'CUSTOMER_SUPPORT',
        price: -9.99,
      }),
    );
    await customerWhen('refund9000', (x) => x.entitlements.length === 0, 'refunded');
    const later = Date.now() + 1000;
    await deliver(providerEvent('INITIAL_PURCHASE', 'refund9000', { at: later, purchasedAt: later, expiresAt: later + 30 * DAY }));
    const c = await customerWhen('refund9000', (x) => x.entitlements.length === 1, 're-purchased');
    assert.equal(c.mrrContribution, 9.99);
  });

  it("the provider's TRANSFER sample, dated year 4466, moves the subscription", async () => {
    const t = Date.now();
    await deliver(providerEvent('INITIAL_PURCHASE', 'xfer-b-src', { at: t - 1000, purchasedAt: t - 1000, expiresAt: t + 30 * DAY }));
    await customerWhen('xfer-b-src', (x) => x.status === 'active', 'purchased');
    await deliver({
      id: `transfer-${t}`,
      type: 'TRANSFER',
      app_id: '1234567890',
      environment: 'PRODUCTION',
      store: 'APP_STORE',
      event_timestamp_ms: 78_789_789_798_798,
      transferred_from: ['xfer-b-src'],
      transferred_to: ['xfer-a-dst'],
    });
    const c = await customerWhen('xfer-a-dst', (x) => x.id === 'xfer-a-dst' && x.entitlements.length === 1, 'the subscription moved');
    assert.equal(c.mrrContribution, 9.99);
    assert.equal((await customer('xfer-b-src')).id, 'xfer-a-dst', 'the source resolves to the destination');
  });
});
