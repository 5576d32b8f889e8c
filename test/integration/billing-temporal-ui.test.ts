/**
 * What an operator sees of a subscriber workflow in the Temporal UI, through the real Temporal server: its static
 * summary and details (with console links), a labelled timer, described signal handlers, and what Temporal's
 * "Request Cancellation" does to it (recorded and ignored: the workflow keeps applying events; its history still
 * replays).
 */
import assert from 'node:assert/strict';
import { defaultPayloadConverter } from '@temporalio/common';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { DAY, providerEvent } from '../support/provider-events';
import { replayLiveHistory } from '../support/replay-live';
import { adminToken } from '../support/tokens';

const APP = 'temporal-ui';

describe('subscriber workflows in the Temporal UI: summary, details, labels, cancellation (real Temporal)', function () {
  this.timeout(120_000);
  let h: Harness;
  let auth = '';

  before(async () => {
    h = await startHarness({ PUBLIC_BASE_URL: 'https://billing.example.com' });
    auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Temporal UI' } })).body.authorization;
    await h.startWorker();
  });
  after(async () => h?.close());

  const decode = (payload: unknown) => (payload ? defaultPayloadConverter.fromPayload(payload as never) : undefined);

  it('has a static summary and details with console links, a labelled timer and described signals', async () => {
    const client = billingClient(h, APP, () => auth);
    const now = Date.now();
    await client.deliver(
      providerEvent('CANCELLATION', 'ui-user', { at: now, purchasedAt: now - DAY, expiresAt: now + 3 * DAY, cancel_reason: 'UNSUBSCRIBE' }),
    );
    await client.settled('ui-user', 1);
    const handle = h.temporal.client.workflow.getHandle(`billing/app:${APP}/ui-user`);
    const described = await handle.describe();
    assert.equal(await described.staticSummary(), `Billing subscriber ui-user (app:${APP})`);
    const details = (await described.staticDetails()) ?? '';
    assert.match(
      details,
      /\[Open the customer in the console\]\(https:\/\/billing\.example\.com\/dashboard\?app=temporal-ui&view=customer&id=ui-user\)/,
    );
    assert.match(details, /view=events&subscriber=ui-user/);
    assert.match(details, /Request Cancellation is recorded and ignored/);
    // The timer is started when the task that stored the record completes.
    const history = await eventually(
      () => handle.fetchHistory(),
      (hist) => hist.events!.some((e) => e.timerStartedEventAttributes),
      { what: 'the downgrade timer' },
    );
    const timer = history.events!.find((e) => e.timerStartedEventAttributes)!;
    assert.match(String(decode(timer.userMetadata?.summary)), /^Next change with time alone: \d{4}-/);
    const metadata = (await handle.query('__temporal_workflow_metadata')) as {
      definition: { signalDefinitions: { name: string; description: string }[]; queryDefinitions: { name: string; description: string }[] };
    };
    const signals = Object.fromEntries(metadata.definition.signalDefinitions.map((d) => [d.name, d.description]));
    for (const name of ['providerEvent', 'providerEvents', 'mergeInto', 'absorb', 'redoEffect'])
      assert.ok(signals[name], `${name} is described`);
    assert.match(signals.providerEvent!, /provider event/);
  });

  it('Request Cancellation is recorded and ignored: the workflow keeps applying events, and its history replays', async () => {
    const client = billingClient(h, APP, () => auth);
    const now = Date.now();
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'keeper', { at: now, expiresAt: now + 30 * DAY }));
    await client.settled('keeper', 1);
    const handle = h.temporal.client.workflow.getHandle(`billing/app:${APP}/keeper`);
    const runId = (await handle.describe()).runId;
    await handle.cancel();
    const noted = await eventually(
      () => handle.fetchHistory(),
      (history) =>
        history.events!.some(
          (e) =>
            e.markerRecordedEventAttributes?.markerName === 'core_patch' &&
            JSON.stringify(decode(e.markerRecordedEventAttributes.details?.['patch-data']?.payloads?.[0])).includes('cancel-guard'),
        ),
      { what: 'the cancellation request to be handled' },
    );
    assert.ok(noted.events!.some((e) => e.workflowExecutionCancelRequestedEventAttributes));
    const described = await handle.describe();
    assert.equal(described.status.name, 'RUNNING');
    assert.equal(described.runId, runId, 'the same run goes on');
    // It still applies events.
    await client.deliver(providerEvent('BILLING_ISSUE', 'keeper', { at: now + 1000 }));
    await client.settled('keeper', 2);
    assert.equal((await client.customer('keeper')).flags.length, 1);
    await replayLiveHistory('billing-subscriber-cancel-requested', handle.workflowId, await handle.fetchHistory());
  });
});
