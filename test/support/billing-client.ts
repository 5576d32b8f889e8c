import assert from 'node:assert/strict';
import type { BillingEvent } from '../../src/billing/provider-events';
import { subscriberStateQuery } from '../../src/contracts/workflows/billing-subscriber';
import { eventually } from './eventually';
import { startHarness, type Harness } from './harness';
import { envelope } from './provider-events';
import { adminToken } from './tokens';

/** What billing tests do over and over: deliver events to an app's receiver and read the results back. */
export function billingClient(h: Harness, app: string, authorization: () => string) {
  const admin = adminToken();
  return {
    async deliver(event: BillingEvent): Promise<{ duplicate: boolean; ignored: boolean }> {
      const res = await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${app}`, {
        body: envelope(event),
        headers: { Authorization: authorization() },
      });
      assert.equal(res.status, 200, res.text);
      return res.body;
    },
    async customer(id: string) {
      return (await h.request('GET', `/v1/billing/customers/${encodeURIComponent(id)}?app=${app}`, { token: admin })).body;
    },
    async metrics() {
      return (await h.request('GET', `/v1/billing/metrics?app=${app}`, { token: admin })).body;
    },
    /** Waits until the subscriber's workflow has applied `count` events and its projection has caught up. */
    async settled(id: string, count: number): Promise<void> {
      const handle = h.temporal.client.workflow.getHandle(`billing/app:${app}/${id}`);
      const state = await eventually(
        () => handle.query(subscriberStateQuery),
        (s) => s.appliedEventIds.length === count,
        {
          what: `${id} to apply ${count} events`,
          timeoutMs: 30_000,
        },
      );
      await eventually(
        () => h.db.collection<{ _id: string; version: number }>('billing_subscribers').findOne({ _id: `app:${app}|${id}` }),
        (r) => (r?.version ?? -1) >= state.version,
        { what: `${id}'s projection to catch up` },
      );
    },
  };
}

/**
 * Mocha setup for a billing suite: a harness of its own, one connected app, optionally an in-process worker.
 * Returns lazy helpers, since the harness exists only once `before` has run.
 */
export function billingSuite(app: string, options: { worker: boolean }) {
  let h: Harness;
  let auth = '';
  before(async () => {
    h = await startHarness();
    auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: app, name: 'Acme' } })).body.authorization;
    if (options.worker) await h.startWorker();
  });
  after(async () => h?.close());
  const client = () => billingClient(h, app, () => auth);
  return {
    harness: () => h,
    deliver: (event: BillingEvent) => client().deliver(event),
    customer: (id: string) => client().customer(id),
    metrics: () => client().metrics(),
    settled: (id: string, count: number) => client().settled(id, count),
  };
}
