import assert from 'node:assert/strict';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { DAY, providerEvent } from '../support/provider-events';
import { signalLimitedStack } from '../support/signal-limited-stack';

/**
 * Temporal refuses a signal to a run that has taken `history.maximumSignalsPerExecution` of them (10,000 by
 * default). In a 10,000-subscriber burst the scope's totals workflow reached it while its workflow task waited in
 * the backlog: subscribers whose delta was refused failed with their record stored, and the totals kept their old
 * contribution (the soak's app A ended $4,575.42 above the model, 916 renewals never subtracted). Here a server with
 * a limit of 15 signals per run (and continue-as-new suggested after 20 history events) makes the same refusal
 * happen with 60 subscribers.
 */
const SIGNALS_PER_RUN = 15;
const SUBSCRIBERS = 60;
// RevenueCat's MRR normalisation: a monthly $9.99 counts $9.99, a two-month period counts half its price.
const MONTHLY_MICROS = 9_990_000;
const TWO_MONTHLY_MICROS = 9_990_000 / 2;

describe('billing totals when Temporal refuses a delta (the signal limit per run)', function () {
  this.timeout(240_000);
  const app = 'signal-limit';
  const stack = signalLimitedStack(app, { signalsPerRun: SIGNALS_PER_RUN, continueAsNewAfter: 20 });
  const metrics = () => stack.metrics(app);
  const failedSubscriberRuns = async () => {
    let n = 0;
    for await (const _ of stack
      .h()
      .temporal.client.workflow.list({ query: 'WorkflowType = "billingSubscriber" AND ExecutionStatus = "Failed"' }))
      n++;
    return n;
  };
  /** Deltas the server refused, over every run of every subscriber (a run may have continued as new since). */
  const refusedSignals = async () => {
    let n = 0;
    const { client } = stack.h().temporal;
    for await (const run of client.workflow.list({ query: 'WorkflowType = "billingSubscriber"' })) {
      const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      n += (history.events ?? []).filter((e) => e.signalExternalWorkflowExecutionFailedEventAttributes).length;
    }
    return n;
  };

  it('applies every delta once, whatever the server refuses first: the totals equal the model after a purchase burst and a renewal burst', async () => {
    const h = stack.h();
    const admin = stack.admin;
    const created = await h.request('POST', '/v1/apps', { token: admin, body: { slug: app, name: app } });
    assert.equal(created.status, 201, created.text);
    const client = billingClient(h, app, () => created.body.authorization as string);
    const ids = Array.from({ length: SUBSCRIBERS }, (_, i) => `limit-u${i}`);
    const t0 = Date.now();

    // Acknowledged while no worker runs: the subscribers' first tasks then all send their deltas at once, to a totals
    // workflow that does not exist yet, so its first run is offered more deltas than it may take.
    for (const id of ids) await client.deliver(providerEvent('INITIAL_PURCHASE', id, { at: t0, expiresAt: t0 + 30 * DAY }));
    await h.startWorker();

    const bought = await eventually(
      metrics,
      (m) => m.activeSubscriptions === SUBSCRIBERS && m.mrr.amount === (SUBSCRIBERS * MONTHLY_MICROS) / 1e6,
      {
        what: `app totals to show ${SUBSCRIBERS} monthly subscriptions at $9.99`,
        timeoutMs: 120_000,
        intervalMs: 500,
      },
    );
    assert.equal(bought.mrr.amount, 599.4);
    assert.ok((await refusedSignals()) > 0, 'the server refused at least one delta (else this test did not reach the limit)');

    const t1 = Date.now();
    for (const id of ids) {
      await client.deliver(providerEvent('RENEWAL', id, { at: t1, purchasedAt: t1, expiresAt: t1 + 61 * DAY }));
    }
    const renewed = await eventually(
      metrics,
      (m) => m.activeSubscriptions === SUBSCRIBERS && Math.abs(m.mrr.amount - (SUBSCRIBERS * TWO_MONTHLY_MICROS) / 1e6) < 0.005,
      { what: `app totals to show ${SUBSCRIBERS} two-month renewals at half of $9.99`, timeoutMs: 120_000, intervalMs: 500 },
    );
    assert.equal(renewed.mrr.amount, 299.7);
    assert.equal(await failedSubscriberRuns(), 0, 'no subscriber run failed');
  });
});
