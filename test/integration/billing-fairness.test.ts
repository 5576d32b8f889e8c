/**
 * One app's flood does not delay another app in Temporal's billing task queue: with 120 new subscribers of app
 * "flood" already waiting there as workflow tasks (no worker ran while they came), a purchase for app "calm" is
 * applied among the first tasks the worker gets, not after the 120. The billing workflows carry their scope as
 * the task queue's fairness key (src/temporal/fairness.ts), and the test server runs with fairness on
 * (scripts/stack/servers.ts). First in, first out would apply all of flood's first: the check below would see them.
 */
import assert from 'node:assert/strict';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { providerEvent } from '../support/provider-events';
import { adminToken } from '../support/tokens';

const FLOOD = 120;

describe("billing fairness: a burst on one app does not hold up another app's events", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it("an event of a calm app is applied before most of a flooding app's waiting tasks", async function () {
    // 120 subscribers' first tasks take a minute or more on two cores shared with other test files.
    this.timeout(300_000);
    const connect = async (slug: string) =>
      (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug, name: slug } })).body.authorization as string;
    const flood = billingClient(h, 'flood', () => floodAuth);
    const floodAuth = await connect('flood');
    const calmAuth = await connect('calm');
    const calm = billingClient(h, 'calm', () => calmAuth);
    const at = Date.now();
    for (let i = 0; i < FLOOD; i++) await flood.deliver(providerEvent('INITIAL_PURCHASE', `f${i}`, { at: at + i, id: `flood-${i}` }));
    await h.forwarder.idle();
    await calm.deliver(providerEvent('INITIAL_PURCHASE', 'c0', { at: at + FLOOD, id: 'calm-0' }));
    await h.forwarder.idle();

    const records = h.db.collection<{ _id: string; view: { lastEvent: { id: string } | null } }>('billing_subscribers');
    await h.startWorker();
    await eventually(
      () => records.findOne({ _id: 'app:calm|c0' }),
      (r) => r?.view.lastEvent?.id === 'calm-0',
      { what: "calm's purchase to be applied", timeoutMs: 120_000, intervalMs: 20 },
    );
    const floodApplied = await records.countDocuments({ _id: { $regex: '^app:flood\\|' } });
    assert.ok(floodApplied < FLOOD / 2, `calm's event waited behind ${floodApplied} of flood's ${FLOOD} subscribers`);
    // And flood is served in full all the same.
    await eventually(
      () => records.countDocuments({ _id: { $regex: '^app:flood\\|' } }),
      (n) => n === FLOOD,
      { what: "every one of flood's subscribers", timeoutMs: 240_000 },
    );
  });
});
