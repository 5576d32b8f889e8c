import assert from 'node:assert/strict';
import { metricsWorkflowId } from '../../src/contracts/workflows/billing-metrics';
import { subscriberStateQuery } from '../../src/contracts/workflows/billing-subscriber';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { DAY, providerEvent } from '../support/provider-events';
import { replayLiveHistory } from '../support/replay-live';
import { signalLimitedStack } from '../support/signal-limited-stack';

/**
 * A scope's totals workflow that refuses every delta for a long time (here: a run that has taken as many signals
 * as the server allows, and that no worker ever continues as new). Before, each subscriber retried its delta in
 * place: the events after it waited until the totals took it, and every try grew its history (about 10 events a
 * minute, so days of refusal would reach the history's limit). Now the delta is owed: the subscriber goes on
 * applying events, continues as new when Temporal suggests it (the server here suggests it after 60 history
 * events), and sends what it owes once the totals take deltas again.
 */
const SIGNALS_PER_RUN = 15;
const SUBSCRIBERS = 4;
// RevenueCat's MRR normalisation: a monthly $9.99 counts $9.99, a two-month period counts half its price.
const MONTHLY_USD = 9.99;

describe('billing totals owed while the totals workflow refuses deltas', function () {
  this.timeout(300_000);
  const app = 'totals-owed';
  const stack = signalLimitedStack(app, { signalsPerRun: SIGNALS_PER_RUN, continueAsNewAfter: 60 });
  const metrics = () => stack.metrics(app);
  const runsOf = async (workflowId: string) => {
    const runs: { runId: string; status: string }[] = [];
    for await (const run of stack.h().temporal.client.workflow.list({ query: `WorkflowId = "${workflowId}"` }))
      runs.push({ runId: run.runId, status: run.status.name });
    return runs;
  };

  it('applies every event while a delta is refused, continues as new owing it, and the totals equal the model once they take deltas again', async () => {
    const h = stack.h();
    const admin = stack.admin;
    const created = await h.request('POST', '/v1/apps', { token: admin, body: { slug: app, name: app } });
    assert.equal(created.status, 201, created.text);
    const client = billingClient(h, app, () => created.body.authorization as string);
    const ids = Array.from({ length: SUBSCRIBERS }, (_, i) => `owed-u${i}`);

    // The totals workflow's id, held by a run nobody works on (no worker polls its queue) that has taken all the
    // signals a run may: every delta is refused, and ensuring the workflow finds it running.
    const metricsId = metricsWorkflowId(`app:${app}`);
    const blocker = await h.temporal.client.workflow.start('billingMetricsStandIn', {
      workflowId: metricsId,
      taskQueue: 'nobody-polls-this-queue',
      args: [],
    });
    for (let i = 0; i < SIGNALS_PER_RUN; i++) await blocker.signal('fill');
    await assert.rejects(blocker.signal('fill'), /signal/i, 'the stand-in refuses signals once it has taken its limit');

    await h.startWorker();
    const t0 = Date.now();
    for (const id of ids) await client.deliver(providerEvent('INITIAL_PURCHASE', id, { at: t0, expiresAt: t0 + 30 * DAY }));
    for (const id of ids) await client.settled(id, 1);

    // The next event of each is applied though its first delta is still refused.
    const t1 = t0 + 1_000;
    const renewals = ids.map((id) => providerEvent('RENEWAL', id, { at: t1, purchasedAt: t1, expiresAt: t1 + 61 * DAY }));
    for (const renewal of renewals) await client.deliver(renewal);
    for (const id of ids) await client.settled(id, 2);
    assert.equal((await metrics()).activeSubscriptions, 0, 'the totals took nothing yet');

    const handle = h.temporal.client.workflow.getHandle(`billing/app:${app}/${ids[0]}`);
    const details = await eventually(
      async () => ((await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string }).currentDetails ?? '',
      (d) => /a totals delta is owed: refused \d+ times/.test(d),
      { what: 'the Temporal UI details to say a delta is owed' },
    );
    assert.match(details, /goes on applying events/);

    // Each subscriber's history stays bounded: its run continues as new while it owes.
    for (const id of ids) {
      await eventually(
        () => runsOf(`billing/app:${app}/${id}`),
        (runs) => runs.some((r) => r.status === 'CONTINUED_AS_NEW'),
        { what: `${id} to continue as new while it owes its delta`, timeoutMs: 120_000, intervalMs: 1_000 },
      );
    }
    assert.equal((await metrics()).activeSubscriptions, 0, 'still refused');

    // An operator ends one subscriber's run while it owes: the run that starts from its record owes the same.
    const ended = h.temporal.client.workflow.getHandle(`billing/app:${app}/${ids[0]}`);
    await ended.terminate('the test ends a run that owes its totals');
    assert.equal((await h.repos.owedTotals.counted(`app:${app}`, ids[0]!))?.activeSubscriptions, 0, 'the totals hold none of it yet');
    assert.match((await h.request('GET', '/metrics')).text, new RegExp(`billing_totals_owed\\{scope="app:${app}"\\} ${SUBSCRIBERS}`));

    // The totals take deltas again: ensuring the workflow starts it, and each subscriber's next try delivers what it
    // owes (its timer waits a minute at most). Once none owes anything, the totals are the model's, exactly.
    await blocker.terminate('the test lifts the refusal');
    // The provider redelivers the ended subscriber's renewal (applied already): its workflow starts from the record.
    assert.equal((await client.deliver(renewals[0]!)).duplicate, true);
    for (const id of ids) {
      const subscriber = h.temporal.client.workflow.getHandle(`billing/app:${app}/${id}`);
      await eventually(
        async () => ({
          details: ((await subscriber.query('__temporal_workflow_metadata')) as { currentDetails?: string }).currentDetails ?? '',
          owed: await h.repos.owedTotals.counted(`app:${app}`, id),
        }),
        ({ details, owed }) => !/owed/.test(details) && owed === null,
        { what: `${id} to owe nothing (its details and the store)`, timeoutMs: 150_000, intervalMs: 1_000 },
      );
      assert.equal((await subscriber.query(subscriberStateQuery)).appliedEventIds.length, 2, `${id} applied both events once`);
    }
    const totals = await eventually(metrics, (m) => m.activeSubscriptions === SUBSCRIBERS, {
      what: 'the totals workflow to store what it took',
      timeoutMs: 30_000,
    });
    assert.deepEqual([totals.activeSubscriptions, totals.mrr.amount], [SUBSCRIBERS, (SUBSCRIBERS * MONTHLY_USD) / 2]);

    for (const id of ids) {
      const runs = await runsOf(`billing/app:${app}/${id}`);
      const terminated = runs.filter((r) => r.status === 'TERMINATED').length;
      assert.ok(!runs.some((r) => r.status === 'FAILED'), `${id}: ${JSON.stringify(runs)}`);
      assert.equal(terminated, id === ids[0] ? 1 : 0, `${id}: only the run the test ended was terminated`);
      for (const run of runs) {
        const history = await h.temporal.client.workflow.getHandle(`billing/app:${app}/${id}`, run.runId).fetchHistory();
        await replayLiveHistory(`totals-owed-${id}-${run.runId}`, `billing/app:${app}/${id}`, history);
      }
    }
  });
});
