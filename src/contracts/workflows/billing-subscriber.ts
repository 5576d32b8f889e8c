/**
 * The contract of the `billingSubscriber` entity workflow (see contract.ts): its id (`workflowIdFor` in
 * src/billing/subscriber-id.ts), its start argument, its messages, signals and query.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { WorkflowContract } from './contract';
import type { Effect } from '../../billing/effects';
import type { BillingTotals } from '../../billing/metrics';
import type { BillingEvent } from '../../billing/provider-events';
import { workflowIdFor, type BillingScope } from '../../billing/subscriber-id';
import type { SubscriberState } from '../../billing/subscriber-state';

export interface BillingSubscriberStart {
  scope: BillingScope;
  subscriberId: string;
  /**
   * Set by continue-as-new: the state, the messages not yet applied, and what the scope totals already count;
   * `refusals`: how many times in a row the totals refused the delta still owed (the next run keeps backing off).
   */
  carried?: { state: SubscriberState; inbox: SubscriberMessage[]; counted: BillingTotals; refusals?: number };
}

/** The workflow's signature, for typed starts by name (importing the workflow module would bundle it). */
export type BillingSubscriberWorkflow = (input: BillingSubscriberStart) => Promise<void>;

/**
 * What a subscriber workflow is given, in its inbox, in order. `receivedAtMs`: when the service accepted the
 * event (the inbox record's receipt time). An `eventRef` names an event in the inbox whose acted-on members
 * are too large to travel in a signal; the workflow reads it from there.
 */
export type SubscriberMessage =
  | { kind: 'event'; event: BillingEvent; receivedAtMs?: number }
  | { kind: 'eventRef'; eventId: string; receivedAtMs?: number }
  | { kind: 'mergeInto'; canonicalId: string; listed?: true }
  | { kind: 'absorb'; state: SubscriberState }
  | RedoEffect;

/**
 * An operator retries a dead-lettered effect: the workflow carries it out again (with its current state where
 * the effect depends on it). `message` is what a `forward` effect was forwarding.
 */
export interface RedoEffect {
  kind: 'redo';
  /** The dead letter's key: failing again parks it under the same record. */
  deadLetterKey: string;
  effect: Effect;
  message: SubscriberMessage | null;
}

/** A provider event's acted-on members, or where to read them: the inbox holds the event under this id. */
export interface EventReference {
  kind: 'ref';
  eventId: string;
}

/**
 * A provider event for this subscriber, and when it was received; events are applied one at a time in the
 * order Temporal recorded them. Histories written before references and receipt times carry the whole event
 * alone, which reads the same way.
 */
export const providerEventSignal = defineSignal<[BillingEvent | EventReference, number?]>('providerEvent');

/** One provider event as it travels: the event (or a reference to it in the inbox) and when it was received. */
export type EventSignalArgs = [BillingEvent | EventReference, number?];

/**
 * Several provider events for this subscriber at once, in the order received: the relay sends those that wait
 * together in its queue (a backlog, a burst for one customer) in one signal-with-start, bounded by
 * EVENT_BATCH_MAX events and EVENT_BATCH_CHARS of JSON. Each is applied as if it had come alone.
 */
export const providerEventsSignal = defineSignal<[EventSignalArgs[]]>('providerEvents');
export const EVENT_BATCH_MAX = 32;
export const EVENT_BATCH_CHARS = 256 * 1024;

/** Events whose acted-on members exceed this many characters of JSON travel as a reference to the inbox. */
export const INLINE_EVENT_CHARS = 16 * 1024;
/**
 * Another record is the canonical one for this subscriber: merge into it. `listed` (true, or absent in signals
 * sent before it existed): that record already lists this id (see the `merge` effect).
 */
export const mergeIntoSignal = defineSignal<[string, boolean?]>('mergeInto');
/** A record merged into this one hands over its state. */
export const absorbSignal = defineSignal<[SubscriberState]>('absorb');
export const redoEffectSignal = defineSignal<[RedoEffect]>('redoEffect');
/** The subscriber's full state, for operators (Temporal UI "Queries") and tests. */
export const subscriberStateQuery = defineQuery<SubscriberState>('state');

export const billingSubscriberContract = {
  name: 'billingSubscriber',
  workflowId: workflowIdFor,
  signals: {
    providerEvent: providerEventSignal,
    providerEvents: providerEventsSignal,
    mergeInto: mergeIntoSignal,
    absorb: absorbSignal,
    redoEffect: redoEffectSignal,
  },
  queries: { state: subscriberStateQuery },
} as const satisfies WorkflowContract<[BillingScope, string]>;

/**
 * The patch ids the workflow asks `patched()` for (never renamed: recorded histories name them). Each `work-v*` id
 * marks an era: a run's era is the one its first workflow task took, and stays in its TemporalChangeVersion search
 * attribute for as long as it runs (a work-v2 or work-v3 run adds work-v4 later, when it moves to rules v3).
 * `resume-from-stored-state` and `outbound-webhooks` were asked only by runs before work-v2 (era v1).
 */
export const SUBSCRIBER_PATCHES = {
  v2: 'work-v2',
  v3: 'work-v3',
  v4: 'work-v4',
  v5: 'work-v5',
  resumeFromStoredState: 'resume-from-stored-state',
  outboundWebhooks: 'outbound-webhooks',
  /**
   * Not an era: asked at a run's first refused totals delta, so only runs that had one hold it. Without it (a run
   * recorded before), the delta is retried in place (billing-subscriber-totals.ts).
   */
  totalsOwed: 'totals-owed',
} as const;

/** The eras, oldest first; the last is what every new run takes. See ARCHITECTURE.md, "Patch eras and their sunset". */
export const SUBSCRIBER_ERAS = ['v1', 'v2', 'v3', 'v4', 'v5'] as const;
export type SubscriberEra = (typeof SUBSCRIBER_ERAS)[number];
