import assert from 'node:assert/strict';
import type { BillingEvent } from '../../src/billing/provider-events';
import { eventually } from '../support/eventually';
import { DAY, providerEvent } from '../support/provider-events';
import { billingSuite } from '../support/billing-client';
import { randomSuffix } from '../support/config';
import { replayLiveHistory } from '../support/replay-live';
import { metricsWorkflowId } from '../../src/contracts/workflows/billing-metrics';

// A slug of its own: suites share one Temporal namespace, and workflow ids are derived from the scope.
const APP = `acme-${randomSuffix()}`;

/** A realistic history for `user`, with ids `${user}:n` so two users' histories compare after renaming. */
function history(user: string, t: number): BillingEvent[] {
  const id = (n: number) => `${user}:${n}`;
  const p1 = { purchasedAt: t - 60 * DAY, expiresAt: t - 53 * DAY };
  const p2 = { purchasedAt: t - 53 * DAY, expiresAt: t - 23 * DAY };
  const p3 = { purchasedAt: t - 23 * DAY, expiresAt: t + 7 * DAY };
  return [
    providerEvent('INITIAL_PURCHASE', user, { id: id(1), at: t - 60 * DAY, ...p1, price: 0, periodType: 'TRIAL' }),
    providerEvent('RENEWAL', user, { id: id(2), at: t - 53 * DAY, ...p2, is_trial_conversion: true }),
    providerEvent('BILLING_ISSUE', user, { id: id(3), at: t - 23 * DAY - 3600_000, ...p2 }),
    providerEvent('RENEWAL', user, { id: id(4), at: t - 23 * DAY, ...p3 }),
    providerEvent('CANCELLATION', user, { id: id(5), at: t - 5 * DAY, ...p3, cancel_reason: 'UNSUBSCRIBE' }),
    providerEvent('UNCANCELLATION', user, { id: id(6), at: t - 4 * DAY, ...p3 }),
    providerEvent('PRODUCT_CHANGE', user, { id: id(7), at: t - 3 * DAY, ...p3, new_product_id: 'com.acme.pro.yearly' }),
    providerEvent('CANCELLATION', user, { id: id(8), at: t - 2 * DAY, ...p3, cancel_reason: 'PRICE_INCREASE' }),
  ];
}

/** Seeded shuffle, so a failure can be reproduced. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  const rand = () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The customer as the dashboard shows it, with the user's own name and event-id prefix taken out. */
function normalised(customer: Record<string, unknown>, user: string): unknown {
  const { id: _id, workflowId: _w, workflowUrl: _u, updatedAt: _t, summary: _s, aliases: _a, ...rest } = customer;
  return JSON.parse(JSON.stringify(rest).split(`${user}:`).join('U:').split(`otx-${user}`).join('otx-U'));
}

describe('billing delivery: a worker crash between acceptance and effect (real stack)', () => {
  const { harness, deliver, customer, metrics, settled } = billingSuite(APP, { worker: false });

  it('a worker killed between acceptance and effect: after restart the effect happens once', async () => {
    const t = Date.now();
    // No worker runs: the event is acknowledged (durably in the inbox, forwarded to Temporal) with no effect yet.
    const purchase = providerEvent('INITIAL_PURCHASE', 'crash', { at: t, purchasedAt: t, expiresAt: t + 30 * DAY, price: 9.99 });
    assert.equal((await deliver(purchase)).duplicate, false);
    assert.equal((await customer('crash')).code, 'unknown_customer');

    let worker = await harness().spawnWorkerProcess();
    await eventually(
      () => customer('crash'),
      (c) => c.status === 'active',
      { what: 'effect after the worker starts', timeoutMs: 30_000 },
    );
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));

    // Accepted while the worker is dead, and a redelivery of the first event.
    const renewal = providerEvent('RENEWAL', 'crash', { at: t + 1, purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY, price: 9.99 });
    assert.equal((await deliver(renewal)).duplicate, false);
    assert.equal((await deliver(purchase)).duplicate, true);
    // A burst for other subscribers, then a kill while the worker is in the middle of it.
    worker = await harness().spawnWorkerProcess();
    const burst = ['b1', 'b2', 'b3', 'b4'].map((u) =>
      providerEvent('INITIAL_PURCHASE', u, { at: t, purchasedAt: t, expiresAt: t + 30 * DAY, price: 1 }),
    );
    await Promise.all(burst.map(deliver));
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    await harness().startWorker();

    await settled('crash', 2);
    assert.equal((await customer('crash')).entitlements[0].expiresAt, new Date(t + 60 * DAY).toISOString());
    for (const u of ['b1', 'b2', 'b3', 'b4']) await settled(u, 1);
    const m = await eventually(
      () => metrics(),
      (x) => x.activeSubscriptions === 5,
      { what: 'totals to settle' },
    );
    assert.equal(m.mrr.amount, 13.99, 'each subscription counted exactly once');
  });
});

describe('billing delivery: reordering, duplicates, continue-as-new, replay (real stack)', () => {
  const { harness, deliver, customer, settled } = billingSuite(APP, { worker: true });

  it('reordered and duplicated delivery of a whole history gives the same final state as in-order delivery', async () => {
    const t = Date.now();
    for (const e of history('inorder', t)) await deliver(e);
    const events = history('shuffled', t);
    const withDuplicates = shuffled([...events, events[1]!, events[4]!, events[7]!], 42);
    await Promise.all(withDuplicates.map(deliver));
    await settled('inorder', 8);
    await settled('shuffled', 8);
    const a = normalised(await customer('inorder'), 'inorder');
    const b = normalised(await customer('shuffled'), 'shuffled');
    assert.deepEqual(b, a);
    assert.equal((a as { status: string }).status, 'cancelled');
    assert.equal((a as { flags: unknown[] }).flags.length, 0, 'the later renewal cleared the billing issue');
  });

  it('continues as new under a low history threshold, with a pending downgrade timer surviving it', async function () {
    this.timeout(120_000);
    const user = 'long-lived';
    const t = Date.now();
    // Room for the loop below (under 2 s alone, some 5 s on a loaded machine, over 12 s with the load average near
    // 30 from other work on the two cores) before the period ends.
    const periodEnd = t + 30_000;
    const period = { purchasedAt: periodEnd - 30 * DAY, expiresAt: periodEnd };
    await deliver(providerEvent('INITIAL_PURCHASE', user, { at: t - 1000, ...period }));
    await deliver(providerEvent('CANCELLATION', user, { at: t, ...period, cancel_reason: 'UNSUBSCRIBE' }));
    const handle = harness().temporal.client.workflow.getHandle(`billing/app:${APP}/${user}`);
    await settled(user, 2);
    assert.notEqual((await customer(user)).scheduledDowngrade, null, 'downgrade scheduled');
    const firstRun = (await handle.describe()).runId;
    // One recorded-only event at a time (each its own workflow task and projection write) until the test
    // server, which suggests continue-as-new at 120 history events, has the workflow continue as new.
    let applied = 2;
    let runId = firstRun;
    while (runId === firstRun && applied < 80) {
      await deliver(providerEvent('SUBSCRIPTION_EXTENDED', user, { at: t + applied, ...period }));
      await settled(user, ++applied);
      runId = (await handle.describe()).runId;
    }
    assert.notEqual(runId, firstRun, 'a new run');
    assert.ok(Date.now() < periodEnd, 'continued as new while the downgrade timer was still pending');
    const described = await handle.describe();
    assert.equal(described.status.name, 'RUNNING');
    const expired = await eventually(
      () => customer(user),
      (c) => c.status === 'expired',
      { what: 'downgrade after continue-as-new', timeoutMs: 45_000 },
    );
    assert.ok(Date.now() >= periodEnd);
    assert.deepEqual(expired.entitlements, []);
  });

  it('replays the recorded subscriber and totals histories deterministically, and saves them for the offline replay test', async () => {
    const handle = harness().temporal.client.workflow.getHandle(`billing/app:${APP}/inorder`);
    const history = await handle.fetchHistory();
    // The relay may carry several of the eight events in one signal; the history must still hold them all.
    const signalled = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes);
    const carried = signalled.flatMap((e) =>
      (e.workflowExecutionSignaledEventAttributes!.input?.payloads ?? []).map((p) => Buffer.from(p.data ?? []).toString('utf8')),
    );
    for (let n = 1; n <= 8; n++)
      assert.ok(
        carried.some((text) => text.includes(`"inorder:${n}"`)),
        `event inorder:${n} is in a signal`,
      );
    assert.ok(signalled.length >= 2, `${signalled.length} signals: more than the start to replay`);
    await replayLiveHistory(`billing-subscriber-${APP}`, handle.workflowId, history, { fixture: 'billing-subscriber' });
    // The scope's totals workflow, which received the deltas of this file's subscribers.
    const metrics = harness().temporal.client.workflow.getHandle(metricsWorkflowId(`app:${APP}`));
    await replayLiveHistory(`billing-metrics-${APP}`, metrics.workflowId, await metrics.fetchHistory(), { fixture: 'billing-metrics' });
  });
});
