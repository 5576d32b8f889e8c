import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { contributionOf, diffContribution, ZERO_TOTALS, type BillingTotals } from '../billing/metrics';
import type { BillingEvent } from '../billing/provider-events';
import { absorb, applyDowngrade, applyEvent, initialState, mergeInto, type SubscriberState, type Transition } from '../billing/subscriber-state';
import { searchStatus, summary } from '../billing/summary';
import { nextWakeAt } from '../billing/wake-time';
import type { createActivities } from '../activities';
import { SEARCH_ATTRIBUTES } from '../search-attributes';
import type { Effect } from '../billing/effects';
import { absorbSignal, mergeIntoSignal, providerEventSignal, redoEffectSignal, subscriberStateQuery, type BillingSubscriberStart, type SubscriberMessage } from './billing-subscriber-contract';
import { metricsWorkflowId, totalsDeltaSignal } from './billing-metrics-contract';

type Activities = ReturnType<typeof createActivities>;

// The projection, the metrics workflow and the dead-letter record itself are retried for as long as it takes:
// they live in the same store and Temporal as any place a failure could be parked, so parking could not succeed
// where they fail.
const { persistSubscriber, ensureBillingMetricsWorkflow, parkDeadLetter } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});
// Effects on other records are retried for a day (Temporal refusing a signal for good fails at once), then
// parked as dead letters that an operator can retry.
const { applyOperatorEntitlements, signalSubscriber } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});
// A fresh run reads what an earlier run of the same subscriber stored (one short read, in the same task).
const { loadStoredSubscriber } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});
// Mail goes through an SMTP relay that may be slow; the outbox makes retries send at most one mail per event.
// Three days of failures (a relay that refuses us) park the mail as a dead letter.
const { sendBillingIssueEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1m',
  scheduleToCloseTimeout: '3d',
  retry: { initialInterval: '2s', maximumInterval: '5m' },
});
// Outbound webhooks: stores the deliveries and starts one workflow each (idempotent; see activities/outbound.ts).
const { dispatchOutboundEvent } = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { initialInterval: '1s', maximumInterval: '1m' } });

type Message = SubscriberMessage;

export interface BillingSubscriberInput extends BillingSubscriberStart {
  /** Set by continue-as-new: the state, the messages not yet applied, and what the scope totals already count. */
  carried?: { state: SubscriberState; inbox: Message[]; counted: BillingTotals };
}

/**
 * One entity workflow per subscriber (`billing/{scope}/{id}`): applies provider events one at a time with the
 * pure reducer, sleeps on a durable timer until a scheduled downgrade, and carries out the reducer's effects
 * through activities. Continues as new when Temporal suggests it, carrying state, unapplied messages and the
 * pending timer (which is re-derived from the state's scheduled downgrade).
 */
export async function billingSubscriber(input: BillingSubscriberInput): Promise<void> {
  const { scope, subscriberId } = input;
  let state = input.carried?.state ?? initialState(scope, subscriberId);
  const inbox: Message[] = [...(input.carried?.inbox ?? [])];
  // What this subscriber currently adds to the scope totals; deltas against it go to the metrics workflow.
  let counted = input.carried?.counted ?? { ...ZERO_TOTALS };

  // Applied changes whose outbound webhooks are still to be dispatched (after the record is stored).
  const outbound: Parameters<Activities['dispatchOutboundEvent']>[0][] = [];

  setHandler(providerEventSignal, (event) => void inbox.push({ kind: 'event', event }));
  setHandler(mergeIntoSignal, (canonicalId) => void inbox.push({ kind: 'mergeInto', canonicalId }));
  setHandler(absorbSignal, (other) => void inbox.push({ kind: 'absorb', state: other }));
  setHandler(redoEffectSignal, (redo) => void inbox.push(redo));
  setHandler(subscriberStateQuery, () => state);

  // A run that starts without carried state while the record exists (an earlier run was terminated or reset)
  // resumes from the stored state: its version guards keep writing, and the totals are not counted again.
  if (!input.carried && patched('resume-from-stored-state')) {
    const stored = await loadStoredSubscriber({ scope, subscriberId });
    if (stored && stored.state.version > state.version) {
      state = stored.state;
      counted = stored.counted;
    }
  }

  for (;;) {
    const timerAt = nextWakeAt(state);
    const ready = () => inbox.length > 0 || workflowInfo().continueAsNewSuggested;
    // A durable timer to the downgrade, cancelled by condition() itself when a message arrives first.
    const woke = timerAt === null ? (await condition(ready), true) : await condition(ready, Math.max(1, timerAt - Date.now()));

    const before = state;
    if (!woke) await carryOut(applyDowngrade(state, Date.now()), null);
    // Stops at Temporal's suggestion even with messages left: a flood (aliases, transfers, each fanning out to
    // other records) must not grow one run's history past its limit. What is left travels in the carried inbox.
    while (inbox.length > 0 && !workflowInfo().continueAsNewSuggested) {
      const message = inbox.shift()!;
      if (message.kind === 'redo') {
        await carryOut({ state, effects: [refreshed(message.effect)] }, message.message, message.deadLetterKey);
        continue;
      }
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
      await carryOut(transition, message);
    }
    if (state !== before) await publish();
    for (const notice of outbound.splice(0)) await dispatchOutboundEvent(notice);

    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof billingSubscriber>({ scope, subscriberId, carried: { state, inbox, counted } });
    }
  }

  function reduce(current: SubscriberState, message: Exclude<Message, { kind: 'redo' }>): Transition {
    const now = Date.now();
    switch (message.kind) {
      case 'event':
        return applyEvent(current, message.event, now);
      case 'mergeInto':
        return mergeInto(current, message.canonicalId, now);
      case 'absorb':
        return absorb(current, message.state, now);
    }
  }

  function applyKey(message: Exclude<Message, { kind: 'redo' }>): string {
    return message.kind === 'event' ? `${scope}|apply|${message.event.id}` : `${scope}|apply|${subscriberId}|${state.version}|${message.kind}`;
  }

  /** A retried effect acts on what is true now: the entitlements to write are the current ones. */
  function refreshed(effect: Effect): Effect {
    return effect.kind === 'entitlements_changed' ? { ...effect, entitlements: state.entitlements } : effect;
  }

  async function park(stage: 'apply' | 'effect', key: string, payload: unknown, event: BillingEvent | null, err: unknown): Promise<void> {
    if (isCancellation(err)) throw err;
    await parkDeadLetter({
      key,
      scope,
      stage,
      // Read defensively: an event the reducer choked on may not have the shape its type promises.
      eventId: typeof event?.id === 'string' ? event.id : null,
      type: typeof event?.type === 'string' ? event.type : null,
      subscriberId,
      workflowId: workflowInfo().workflowId,
      reason: failureText(err),
      payload,
    });
  }

  /**
   * Adopts the transition's state and runs its effects. Timers need no action: the loop re-derives them. An
   * effect that fails for good is parked (`redoKey`: the dead letter it retries) and the others still run.
   */
  async function carryOut(transition: Transition, message: Message | null, redoKey: string | null = null): Promise<void> {
    const previous = state;
    state = transition.state;
    // Outbound webhooks for an applied event or a fired downgrade (a merged record forwards events unchanged: none),
    // sent once the record is stored (publish), so they never delay the effect customers wait for.
    if (state !== previous && (message === null || message.kind === 'event') && scope !== 'operator' && patched('outbound-webhooks')) {
      const downgradeId = message ? null : `downgrade:${subscriberId}:${previous.scheduledDowngrade?.eventId ?? previous.version}`;
      outbound.push({ scope, state, event: message?.kind === 'event' ? message.event : null, downgradeId });
    }
    for (const [index, effect] of transition.effects.entries()) {
      try {
        await runEffect(effect, message);
      } catch (err) {
        const key = redoKey ?? `${scope}|effect|${subscriberId}|${state.version}|${index}`;
        await park('effect', key, { effect, message }, message?.kind === 'event' ? message.event : null, err);
      }
    }
  }

  async function runEffect(effect: Effect, message: Message | null): Promise<void> {
    switch (effect.kind) {
      case 'entitlements_changed':
        if (scope === 'operator') await applyOperatorEntitlements({ subscriberId, entitlements: effect.entitlements, version: state.version });
        break;
      case 'email_billing_issue':
        await sendBillingIssueEmail({ eventId: effect.eventId, subscriberId: effect.subscriberId });
        break;
      case 'merge':
        // All at once: one workflow task schedules them, instead of a task (and its history events) each.
        await Promise.all(effect.from.map((from) => signalSubscriber({ scope, subscriberId: from, message: { kind: 'mergeInto', canonicalId: subscriberId } })));
        break;
      case 'transfer_out':
        await signalSubscriber({ scope, subscriberId: effect.to, message: { kind: 'absorb', state } });
        break;
      case 'forward':
        // This record was merged: what it is given belongs to the canonical record.
        if (message && message.kind !== 'mergeInto' && message.kind !== 'redo') await signalSubscriber({ scope, subscriberId: effect.to, message });
        break;
    }
  }

  /** Writes the projection the dashboard reads, updates the Temporal UI, and sends the totals delta. */
  async function publish(): Promise<void> {
    await persistSubscriber({ state, workflowId: workflowInfo().workflowId });
    setCurrentDetails(summary(state));
    const status = searchStatus(state);
    if (workflowInfo().typedSearchAttributes.get(SEARCH_ATTRIBUTES.BillingStatus) !== status) {
      upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.BillingStatus, value: status }]);
    }
    const now = contributionOf(state);
    const delta = diffContribution(counted, now);
    if (Object.values(delta).some((v) => v !== 0)) {
      await signalMetrics(delta);
      counted = now;
    }
  }

  async function signalMetrics(delta: BillingTotals): Promise<void> {
    const handle = getExternalWorkflowHandle(metricsWorkflowId(scope));
    try {
      await handle.signal(totalsDeltaSignal, delta);
    } catch {
      // No metrics workflow yet (the scope's first subscriber) or it was terminated: start it, then deliver.
      // Starting it only on failure keeps an activity off every new subscriber's first event.
      await ensureBillingMetricsWorkflow(scope);
      await handle.signal(totalsDeltaSignal, delta);
    }
  }
}

/** The messages of a failure and its causes (an activity failure's own message only says which activity). */
function failureText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e && parts.length < 5; e = (e as { cause?: unknown }).cause) {
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '' && !parts.includes(message)) parts.push(message);
  }
  return parts.join(': ') || 'unknown failure';
}
