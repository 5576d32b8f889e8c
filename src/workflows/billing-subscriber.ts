import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { contributionOf, ZERO_TOTALS } from '../billing/metrics';
import { withPlausibleTime } from '../billing/event-time';
import type { BillingEvent, RuleSet } from '../billing/provider-events';
import { ABSORB_STATE_CHARS, CARRIED_INBOX_CHARS, EVENT_STATE_CHARS, MESSAGES_PER_BATCH, overBudget } from '../billing/state-budget';
import {
  absorb,
  appliedIdOf,
  applyDowngrade,
  applyEvent,
  initialState,
  mergeInto,
  type SubscriberState,
  type Transition,
} from '../billing/subscriber-state';
import { searchStatus, summary } from '../billing/summary';
import { nextWakeAt } from '../billing/wake-time';
import type { createActivities } from '../activities';
import { SEARCH_ATTRIBUTES } from '../contracts/workflows/search-attributes';
import type { Effect } from '../billing/effects';
import {
  absorbSignal,
  mergeIntoSignal,
  providerEventSignal,
  providerEventsSignal,
  redoEffectSignal,
  subscriberStateQuery,
  SUBSCRIBER_PATCHES,
  type BillingSubscriberStart,
  type EventReference,
  type SubscriberMessage,
} from '../contracts/workflows/billing-subscriber';
import { deadLetterKey } from '../billing/dead-letter-key';
import { shieldedFromCancellation } from './cancel-guard';
import { subscriberEffects } from './billing-subscriber-effects';
import { subscriberParking } from './billing-subscriber-parking';
import { subscriberTotals } from './billing-subscriber-totals';
import { Inbox } from './inbox';
import { WakeTimer } from './wake-timer';

type Activities = ReturnType<typeof createActivities>;

// The projection and the metrics workflow are retried for as long as it takes: they live in the same store and
// Temporal as any place a failure could be parked, so parking could not succeed where they fail (the effects and
// parking have their own activities: billing-subscriber-effects.ts, billing-subscriber-parking.ts).
const { persistSubscriber } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});
// A fresh run reads what an earlier run of the same subscriber stored, and an event too large for a signal is
// read from the inbox (one short read each, in the same task).
const { loadStoredSubscriber, loadProviderEvent } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});
// The record and the outbound fan-out after a batch, in the same workflow task as the batch (see
// activities/publish.ts); retried for as long as it takes, like the remote activities it replaces.
// During a store outage its retries back off past 10 s onto durable timers (localRetryThreshold), instead of
// holding the workflow task open and heartbeating it every few seconds, which would grow the history.
const { publishSubscriber } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '10s',
  retry: { initialInterval: '200ms', maximumInterval: '5m' },
});
// Outbound webhooks: stores the deliveries and starts one workflow each (idempotent; see activities/outbound.ts).
const { dispatchOutboundEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '1m' },
});

type Message = SubscriberMessage;

/**
 * One entity workflow per subscriber (`billing/{scope}/{id}`): applies provider events one at a time with the
 * pure reducer, sleeps on a durable timer until a scheduled downgrade, and carries out the reducer's effects
 * through activities. Continues as new when Temporal suggests it, carrying state, unapplied messages and the
 * pending timer (which is re-derived from the state's scheduled downgrade). A cancellation request does not end
 * it (cancel-guard.ts).
 */
export async function billingSubscriber(input: BillingSubscriberStart): Promise<void> {
  await shieldedFromCancellation(`Subscriber ${input.subscriberId}`, () => runSubscriber(input));
}

async function runSubscriber(input: BillingSubscriberStart): Promise<void> {
  const { scope, subscriberId } = input;
  let state = input.carried?.state ?? initialState(scope, subscriberId);
  const inbox = new Inbox<Message>(input.carried?.inbox ?? []);
  // What the scope totals hold of this subscriber (a run may start owing some: billing-subscriber-totals.ts).
  let counted = input.carried?.counted ?? { ...ZERO_TOTALS };

  // Applied changes whose outbound webhooks are still to be dispatched (after the record is stored).
  const outbound: Parameters<Activities['dispatchOutboundEvent']>[0][] = [];

  // Descriptions label the handlers in the Temporal UI (workflow metadata; nothing in the history).
  setHandler(providerEventSignal, (payload, receivedAtMs) => void inbox.push(eventMessage(payload, receivedAtMs)), {
    description: 'A provider event for this subscriber (from the webhook relay), and when it was received',
  });
  setHandler(
    providerEventsSignal,
    (batch) => {
      for (const [payload, receivedAtMs] of batch) inbox.push(eventMessage(payload, receivedAtMs));
    },
    { description: 'Several provider events for this subscriber, in the order received (a relay batch)' },
  );
  setHandler(
    mergeIntoSignal,
    (canonicalId, listed) =>
      void inbox.push(listed === true ? { kind: 'mergeInto', canonicalId, listed } : { kind: 'mergeInto', canonicalId }),
    { description: 'Merge: another record is the canonical one for this customer (and whether it lists this id)' },
  );
  setHandler(absorbSignal, (other) => void inbox.push({ kind: 'absorb', state: other }), {
    description: 'Merge: a record that gave way hands over its state',
  });
  setHandler(redoEffectSignal, (redo) => void inbox.push(redo), { description: 'An operator retries a dead-lettered effect' });
  setHandler(subscriberStateQuery, () => state, { description: "The subscriber's whole state" });

  const park = subscriberParking(scope, subscriberId);
  const effects = subscriberEffects({ scope, subscriberId, state: () => state, tellsListed: () => v5 }, park);

  const wake = new WakeTimer();
  // Decided once, up front, for everything a version changed; runs recorded before keep their behaviour on replay.
  // One short patch id per version, newest asked first, since every id a run asks for lengthens the
  // TemporalChangeVersion search attribute (a cluster's size limit for it can be small: 64 bytes).
  // v5: a merge tells the ids it asks whether the canonical record lists them, and a record with no state of its
  // own that is listed sends nothing back (see mergeInto: an alias flood's new records no longer signal it back).
  // v4: the reducer's rules v3 (see RuleSet: ids from every event, pauses, the price paid, flags that end).
  // v3: each batch is counted before its first await (see `fixed`).
  // v2: one timer kept across messages, the record and outbound fan-out in one local activity, bounded batches,
  // the state budget, the grant types' effects and the plausible-time rule (see RuleSet).
  // A v2 to v5 run has every earlier patch's behaviour, so it asks for none of them.
  // When an era's branches may go: ARCHITECTURE.md, "Patch eras and their sunset" (`cli billing-patch-eras`).
  const v5 = patched(SUBSCRIBER_PATCHES.v5);
  const v4 = v5 || patched(SUBSCRIBER_PATCHES.v4);
  const v3 = v4 || patched(SUBSCRIBER_PATCHES.v3);
  const v2 = v3 || patched(SUBSCRIBER_PATCHES.v2);
  let rules: RuleSet = v4 ? 'v3' : v2 ? 'v2' : 'v1';
  // A run recorded under work-v2 or work-v3 moves to rules v3 at the next message or timer it applies (the patch is
  // asked again then, and recorded where the run first took it), so customers whose runs were started before get the
  // money fixes without waiting for a continue-as-new; on replay it switches at the same message.
  const currentRules = (): RuleSet => {
    if (rules === 'v2' && patched(SUBSCRIBER_PATCHES.v4)) rules = 'v3';
    return rules;
  };
  // How many waiting messages the first batch applies, when a local activity runs before it. The activity's result
  // can reach the workflow in the workflow task after the one that recorded it (when the worker answered a query
  // meanwhile), after the signals that arrived in between; on replay it comes before them. The messages counted
  // before the await are the same either way, so the batch, and every command it leads to, is too.
  let fixed: number | null = null;
  // A run that starts without carried state while the record exists (an earlier run was terminated or reset)
  // resumes from the stored state: its version guards keep writing, and the totals are not counted again.
  if (!input.carried && (v2 || patched(SUBSCRIBER_PATCHES.resumeFromStoredState))) {
    if (v3) fixed = inbox.length;
    const stored = await loadStoredSubscriber({ scope, subscriberId, runId: workflowInfo().runId });
    if (stored && stored.state.version > state.version) {
      state = stored.state;
      counted = stored.counted;
    }
  }

  const totals = subscriberTotals(scope, subscriberId, { counted, refusals: input.carried?.refusals });
  // What an earlier run still owed the totals when it continued as new (runs before totals-owed never start so,
  // and a run that owes nothing does not even await here).
  if (totals.owes(contributionOf(state))) {
    await totals.resume(contributionOf(state));
    setCurrentDetails(totals.details(summary(state)));
  }

  // Continue as new when Temporal suggests it, unless the messages still waiting are too large to hand over:
  // they are applied first (the suggestion comes long before the history's hard limits).
  const mayContinueAsNew = () => workflowInfo().continueAsNewSuggested && inbox.chars <= CARRIED_INBOX_CHARS;

  for (;;) {
    const timerAt = nextWakeAt(state);
    const ready = () => inbox.length > 0 || mayContinueAsNew() || totals.due;
    let woke: boolean;
    if (v2) {
      // One durable timer to the next change with time alone, kept while that time stays the same.
      wake.arm(timerAt);
      await condition(() => ready() || wake.expired);
      woke = !wake.expired;
      if (wake.expired) wake.take();
    } else {
      // Runs recorded before: a timer per wait, cancelled by condition() itself when a message arrives first.
      woke = timerAt === null ? (await condition(ready), true) : await condition(ready, Math.max(1, timerAt - Date.now()));
    }

    // Counted before the batch awaits anything, for the same reason as `fixed`.
    const batch = v3 ? Math.min(fixed ?? inbox.length, MESSAGES_PER_BATCH) : v2 ? MESSAGES_PER_BATCH : Infinity;
    fixed = null;
    const before = state;
    if (!woke) await carryOut(applyDowngrade(state, Date.now(), currentRules()), null);
    // Stops at Temporal's suggestion even with messages left: a flood (aliases, transfers, each fanning out to
    // other records) must not grow one run's history past its limit. What is left travels in the carried inbox.
    // A batch is bounded too, so a flood's record and totals are published as it is worked through; messages that
    // arrive while it runs wait for the next.
    for (let applied = 0; inbox.length > 0 && !mayContinueAsNew(); applied++) {
      if (applied >= batch) break;
      const next = inbox.shift()!;
      if (next.kind === 'redo') {
        await carryOut({ state, effects: [refreshed(next.effect)] }, next.message, next.deadLetterKey);
        continue;
      }
      const message = next.kind === 'eventRef' ? await dereference(next) : next;
      if (message === null) continue;
      let transition: Transition;
      try {
        transition = reduce(state, message);
      } catch (err) {
        // A message the reducer cannot apply (a bug, or data no version of the intake would have let in) is
        // parked; the next messages are applied instead of failing this workflow's task forever.
        const event = message.kind === 'event' ? message.event : null;
        await park('apply', applyKey(message), event ?? message, event, err);
        continue;
      }
      const refusal = overBudget(state, transition.state, message.kind === 'absorb' ? ABSORB_STATE_CHARS : EVENT_STATE_CHARS);
      if (refusal !== null && v2) {
        const event = message.kind === 'event' ? message.event : null;
        await park('apply', applyKey(message), event ?? message, event, new Error(refusal));
        continue;
      }
      await carryOut(transition, message);
    }
    if (state !== before) await publish();
    for (const notice of outbound.splice(0)) await dispatchOutboundEvent(notice);
    if (totals.due) {
      await totals.retry(contributionOf(state));
      setCurrentDetails(totals.details(summary(state)));
    }

    if (mayContinueAsNew()) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof billingSubscriber>({
        scope,
        subscriberId,
        carried: { state, inbox: inbox.all(), counted: totals.counted, ...(totals.refusals > 0 ? { refusals: totals.refusals } : {}) },
      });
    }
  }

  /**
   * The event an `eventRef` names, read from the inbox; null when there is nothing to read: the record already
   * applied it, forwards it unread (merged), or the inbox has no such event (parked).
   */
  async function dereference(ref: Extract<Message, { kind: 'eventRef' }>): Promise<Extract<Message, { kind: 'event' }> | null> {
    if (state.appliedEventIds.includes(appliedIdOf(ref.eventId))) return null;
    if (state.mergedInto !== null) {
      await carryOut({ state, effects: [{ kind: 'forward', to: state.mergedInto }] }, ref);
      return null;
    }
    const event = await loadProviderEvent({ scope, eventId: ref.eventId });
    if (event === null) {
      await park(
        'apply',
        deadLetterKey({ stage: 'apply', scope, eventId: ref.eventId }),
        ref,
        null,
        new Error(`event ${ref.eventId} is not in the webhook inbox`),
      );
      return null;
    }
    return { kind: 'event', event, receivedAtMs: ref.receivedAtMs };
  }

  function reduce(current: SubscriberState, message: Exclude<Message, { kind: 'redo' | 'eventRef' }>): Transition {
    const now = Date.now();
    const applying = currentRules();
    switch (message.kind) {
      case 'event':
        // A message relayed before receipt times were carried is ordered as of now, the moment it is applied.
        return applying === 'v1'
          ? applyEvent(current, message.event, now, applying)
          : applyEvent(current, withPlausibleTime(message.event, message.receivedAtMs ?? now), now, applying);
      case 'mergeInto':
        return mergeInto(current, message.canonicalId, now, applying, v5 && message.listed === true);
      case 'absorb':
        return absorb(current, message.state, now, applying);
    }
  }

  function applyKey(message: Exclude<Message, { kind: 'redo' | 'eventRef' }>): string {
    return message.kind === 'event'
      ? deadLetterKey({ stage: 'apply', scope, eventId: message.event.id })
      : deadLetterKey({ stage: 'apply', scope, subscriberId, version: state.version, message: message.kind });
  }

  /** A retried effect acts on what is true now: the entitlements to write are the current ones. */
  function refreshed(effect: Effect): Effect {
    return effect.kind === 'entitlements_changed' ? { ...effect, entitlements: state.entitlements } : effect;
  }

  /**
   * Adopts the transition's state and runs its effects. Timers need no action: the loop re-derives them. An
   * effect that fails for good is parked (`redoKey`: the dead letter it retries) and the others still run.
   */
  async function carryOut(transition: Transition, message: Message | null, redoKey: string | null = null): Promise<void> {
    const previous = state;
    state = transition.state;
    // A merge is stored before the other records are asked to act on it: the canonical record shows the ids it
    // learned before they point to it, and a record that gives way is stored as merged before its state is handed
    // over (else a lookup between the two writes finds two records claiming the customer, and the totals count it
    // twice for a moment).
    if (v2 && transition.effects.some((e) => e.kind === 'transfer_out' || e.kind === 'merge')) await publish();
    // Outbound webhooks for an applied event or a fired downgrade (a merged record forwards events unchanged: none),
    // sent once the record is stored (publish), so they never delay the effect customers wait for.
    if (
      state !== previous &&
      (message === null || message.kind === 'event') &&
      scope !== 'operator' &&
      (v2 || patched(SUBSCRIBER_PATCHES.outboundWebhooks))
    ) {
      const downgradeId = message ? null : `downgrade:${subscriberId}:${previous.scheduledDowngrade?.eventId ?? previous.version}`;
      // The subscriber's outward facts and the event by id: the activity reads the body as received from the inbox.
      const { id, aliases, status, entitlements, scheduledDowngrade, version } = state;
      const event = message?.kind === 'event' ? { id: message.event.id, type: message.event.type } : null;
      outbound.push({
        scope,
        state: { id, aliases, status, entitlements, scheduledDowngrade, version },
        event: null,
        eventRef: event,
        downgradeId,
      });
    }
    await effects.runEffects(transition.effects, message, redoKey);
  }

  /**
   * Writes the projection the dashboard reads (and, in one local activity with it, the outbound fan-out),
   * updates the Temporal UI, and sends the totals delta (or leaves it owed). Runs written before the local
   * activity keep the two remote activities they recorded.
   */
  async function publish(): Promise<void> {
    if (v2) {
      await publishSubscriber({ state, workflowId: workflowInfo().workflowId, runId: workflowInfo().runId, outbound: outbound.splice(0) });
    } else {
      await persistSubscriber({ state, workflowId: workflowInfo().workflowId, runId: workflowInfo().runId });
    }
    const status = searchStatus(state);
    if (workflowInfo().typedSearchAttributes.get(SEARCH_ATTRIBUTES.BillingStatus) !== status) {
      upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.BillingStatus, value: status }]);
    }
    await totals.publish(contributionOf(state));
    setCurrentDetails(totals.details(summary(state)));
  }
}

/** What a providerEvent signal carries, as an inbox message (histories before references carry the event alone). */
function eventMessage(payload: BillingEvent | EventReference, receivedAtMs: number | undefined): SubscriberMessage {
  const at = typeof receivedAtMs === 'number' ? { receivedAtMs } : {};
  if ((payload as Partial<EventReference>).kind === 'ref' && typeof (payload as EventReference).eventId === 'string') {
    return { kind: 'eventRef', eventId: (payload as EventReference).eventId, ...at };
  }
  return { kind: 'event', event: payload as BillingEvent, ...at };
}
