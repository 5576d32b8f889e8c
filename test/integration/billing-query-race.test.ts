import assert from 'node:assert/strict';
import { temporal } from '@temporalio/proto';
import { workflowBundlePath } from '../support/bundle';
import { billingSuite } from '../support/billing-client';
import { randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { replayLiveHistory } from '../support/replay-live';
import { DAY, providerEvent } from '../support/provider-events';
import { subscriberStateQuery } from '../../src/contracts/workflows/billing-subscriber';

const APP = `race-${randomSuffix()}`;
const SLOW_FIRST_QUERY = [require.resolve('../support/slow-first-query')];

type Event = temporal.api.history.v1.IHistoryEvent;
const T = temporal.api.enums.v1.EventType;
const TASK_EVENTS = new Set([
  T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  T.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
]);

/** The first workflow task's recorded commands (markers, upserts), and the signals that arrived before the next task. */
function firstTask(events: Event[]): { commands: Event[]; signalsAfter: Event[] } {
  const completed = events.findIndex((e) => e.eventType === T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const next = events.findIndex((e, i) => i > completed && e.eventType === T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED);
  const between = events.slice(completed + 1, next);
  return {
    commands: between.filter((e) => e.markerRecordedEventAttributes || e.upsertWorkflowSearchAttributesEventAttributes),
    signalsAfter: between.filter((e) => e.workflowExecutionSignaledEventAttributes),
  };
}

// A query answered while a local activity completes: the SDK records the activity's marker with the query's
// workflow task and hands its result to the workflow only in the next task, after the signals that arrived
// meanwhile; on replay the result comes first. Until `work-v3` the subscriber applied those signals with the
// first event when this happened live, and one event alone on replay: a nondeterminism error for any worker that
// replays the run (a restart, a cache eviction). The test makes the window wide (a slow first query) and hits it.
describe('billing subscriber: a query while a local activity completes (real stack)', () => {
  const { harness, deliver, settled } = billingSuite(APP, { worker: false });

  it('events that arrive while the first local activity runs are applied after it, live and on replay alike', async function () {
    this.timeout(120_000);
    const h = harness();
    const t = Date.now();
    const user = 'raced';
    const handle = h.temporal.client.workflow.getHandle(`billing/app:${APP}/${user}`);
    const period = { purchasedAt: t, expiresAt: t + 30 * DAY };
    const bundle = workflowBundlePath(SLOW_FIRST_QUERY);

    // The run exists with its first event and no worker: the query waits for the first workflow task.
    await deliver(providerEvent('INITIAL_PURCHASE', user, { id: `${user}:1`, at: t, ...period, price: 9.99 }));
    await eventually(
      () => handle.describe(),
      () => true,
      { what: 'the relayed start' },
    );
    await bundle;
    const query = handle.query(subscriberStateQuery);
    // The cancellation is acknowledged while the first task's local activity (the stored-record read) runs; the
    // relay signals it while the worker is still busy with the query.
    const subscribers = Object.create(h.repos.subscribers) as typeof h.repos.subscribers;
    let raced = false;
    subscribers.stored = async (scope, id) => {
      if (id === user && !raced) {
        raced = true;
        await deliver(providerEvent('CANCELLATION', user, { id: `${user}:2`, at: t + 1, ...period, cancel_reason: 'UNSUBSCRIBE' }));
      }
      return h.repos.subscribers.stored(scope, id);
    };
    await h.startWorker({ repos: { ...h.repos, subscribers } }, SLOW_FIRST_QUERY);
    await query;
    await settled(user, 2);
    // More history after the race, so a replay that took another path meets a command it did not produce.
    await deliver(providerEvent('UNCANCELLATION', user, { id: `${user}:3`, at: t + 2, ...period }));
    await settled(user, 3);

    // Replayed once its last task has completed (a history that ends in a running task replays that task as new).
    const history = await eventually(
      () => handle.fetchHistory(),
      (h) => (h.events ?? []).filter((e) => TASK_EVENTS.has(e.eventType!)).at(-1)?.eventType === T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
      { what: 'the run to be idle' },
    );
    const { commands, signalsAfter } = firstTask(history.events ?? []);
    const localActivities = commands.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    // The race happened: the first task recorded the stored-record read alone (its result went to the workflow in
    // the next task) and the cancellation arrived before that task.
    assert.equal(localActivities.length, 1, `first task's commands: ${commands.map((e) => T[e.eventType!]).join(', ')}`);
    assert.equal(signalsAfter.length, 1, 'the cancellation arrived between the first two tasks');
    await replayLiveHistory(`query-race-${APP}`, handle.workflowId, history);
  });
});
