/**
 * What one billing event costs Temporal, read from the subscriber's real history (bench/lib/temporal-work.ts):
 * workflow tasks and billable actions per purchase, renewal and cancellation stay within their targets.
 * Counts, not times: the same on any machine.
 */
import assert from 'node:assert/strict';
import { billingSuite } from '../support/billing-client';
import { randomSuffix } from '../support/config';
import { DAY, providerEvent } from '../support/provider-events';
import { eventually } from '../support/eventually';
import { loadHistory } from '../../bench/lib/history';
import { since, temporalWork, type TemporalWork } from '../../bench/lib/temporal-work';

const APP = `work-${randomSuffix()}`;

describe('Temporal work per billing event (from real histories)', function () {
  this.timeout(60_000);
  const s = billingSuite(APP, { worker: true });

  /** Delivers one event and returns what it cost, once the subscriber is idle again (its projection stored). */
  async function cost(user: string, send: () => Promise<unknown>, applied: number): Promise<TemporalWork> {
    const client = s.harness().temporal.client;
    const workflowId = `billing/app:${APP}/${user}`;
    const before = await loadHistory(client, workflowId).catch(() => []);
    const lastId = before.length > 0 ? before[before.length - 1]!.id : 0;
    await send();
    await s.settled(user, applied);
    // Idle: no workflow task pending or running, and the history the same on two reads 300 ms apart.
    let previous = -1;
    const events = await eventually(
      async () => {
        const h = await loadHistory(client, workflowId);
        const stable = h.length === previous;
        previous = h.length;
        return { h, stable };
      },
      ({ h, stable }) =>
        stable && h.length > lastId && !['WORKFLOW_TASK_SCHEDULED', 'WORKFLOW_TASK_STARTED'].includes(h[h.length - 1]!.type),
      { what: `${user}'s workflow to go idle`, intervalMs: 300 },
    ).then(({ h }) => h);
    if (process.env.TEMPORAL_WORK_TRACE)
      console.log(
        user,
        since(events, lastId)
          .map((e) => e.type)
          .join(' '),
      );
    return temporalWork(since(events, lastId));
  }

  it('a purchase, a renewal and a cancellation: no remote activity, at most one timer, upsert and totals signal each', async () => {
    const t = Date.now();
    // The scope's first subscriber also starts its totals workflow, once: measure a later one.
    const first = `first-${randomSuffix()}`;
    await cost(first, () => s.deliver(providerEvent('INITIAL_PURCHASE', first, { at: t, purchasedAt: t, expiresAt: t + 30 * DAY })), 1);
    const user = `payer-${randomSuffix()}`;
    const purchase = await cost(
      user,
      () => s.deliver(providerEvent('INITIAL_PURCHASE', user, { at: t, purchasedAt: t, expiresAt: t + 30 * DAY })),
      1,
    );
    const renewal = await cost(
      user,
      () => s.deliver(providerEvent('RENEWAL', user, { at: t + 1, purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY })),
      2,
    );
    const cancellation = await cost(
      user,
      () =>
        s.deliver(
          providerEvent('CANCELLATION', user, {
            at: t + 2,
            purchasedAt: t + 30 * DAY,
            expiresAt: t + 60 * DAY,
            cancel_reason: 'UNSUBSCRIBE',
          }),
        ),
      3,
    );
    const table = { purchase, renewal, cancellation };
    if (process.env.TEMPORAL_WORK_TRACE) console.log(JSON.stringify(table, null, 1));
    // Workflow tasks depend on how fast the local activities answer (a slow one makes the SDK heartbeat the
    // task), so they are measured by the benchmark (bench/temporal-work.ts), not asserted here. These do not:
    for (const [name, work] of Object.entries(table)) {
      assert.equal(work.activities, 0, `${name}: the record and the outbound fan-out are written by a local activity`);
      assert.ok(work.timers <= 1, `${name}: ${work.timers} timers`);
      assert.ok(work.searchAttributeUpserts <= 1, `${name}: ${work.searchAttributeUpserts} upserts`);
      assert.ok(work.signalsSent <= 1, `${name}: ${work.signalsSent} totals signals`);
    }
    assert.equal(purchase.searchAttributeUpserts, 0, 'a new subscriber gets its status with the start');
    assert.equal(cancellation.timers, 0, 'a cancellation keeps the timer to the same period end');
    assert.equal(renewal.signalsSent, 0, 'a renewal at the same price moves no totals');
  });
});
