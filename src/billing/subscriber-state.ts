/**
 * A subscriber record and its pure reducer, run inside the subscriber's entity workflow. The state is plain
 * JSON (it travels through continue-as-new) and time only comes in as `nowMs`.
 *
 * Why any delivery order gives the same record: each event is turned into facts (see subscription.ts) that are
 * joined into the record with an order-free merge, the view (status, entitlements, MRR) is derived from those
 * facts and the latest `nowMs`, and a redelivered event id is skipped. Merging two records is the same join.
 */
import { viewEffects, type Effect } from './effects';
import { hasEffect, type BillingEvent } from './provider-events';
import { resolveSubscriberIds, type BillingScope } from './subscriber-id';
import { deriveView, type SubscriberView } from './subscriber-view';
import {
  compareCodeUnits,
  joinSubscriptionLists,
  newerStamp,
  stampOf,
  subscriptionFromEvent,
  type EventStamp,
  type Subscription,
} from './subscription';

/** How many applied event ids a record remembers to skip redeliveries; older ones are still harmless. */
export const APPLIED_EVENT_IDS_LIMIT = 500;

export interface SubscriberState extends SubscriberView {
  scope: BillingScope;
  id: string;
  /** Every id this subscriber has used, its own included, sorted. */
  aliases: string[];
  /** Set once this record has been merged into another; it then forwards everything there. */
  mergedInto: string | null;
  /** Sorted by key. */
  subscriptions: Subscription[];
  /** The latest `nowMs` the view was derived at. */
  asOfMs: number;
  /** Newest event received, whatever its type. */
  lastEvent: EventStamp | null;
  /** Bookkeeping: the most recent applied event ids, oldest first. */
  appliedEventIds: string[];
  /** Bookkeeping: number of transitions. */
  version: number;
}

export interface Transition {
  state: SubscriberState;
  effects: Effect[];
}

export function initialState(scope: BillingScope, id: string): SubscriberState {
  return {
    scope,
    id,
    aliases: [id],
    mergedInto: null,
    subscriptions: [],
    asOfMs: 0,
    lastEvent: null,
    appliedEventIds: [],
    version: 0,
    ...deriveView([], 0, false),
  };
}

export function applyEvent(state: SubscriberState, event: BillingEvent, nowMs: number): Transition {
  if (state.appliedEventIds.includes(event.id)) return { state, effects: [] };
  if (state.mergedInto !== null) return { state, effects: [{ kind: 'forward', to: state.mergedInto }] };
  const recorded = { ...state, lastEvent: newerStamp(state.lastEvent, stampOf(event)) };
  if (!hasEffect(event.type)) return { state: bookkeep(recorded, [event.id]), effects: [] };

  const ids = resolveSubscriberIds(event)?.all ?? [];
  const learned = ids.filter((id) => !state.aliases.includes(id)).sort(compareCodeUnits);
  const facts = subscriptionFromEvent(event);
  const next = withView({
    ...recorded,
    aliases: union(state.aliases, ids),
    subscriptions: facts ? joinSubscriptionLists(state.subscriptions, [facts]) : state.subscriptions,
    asOfMs: Math.max(state.asOfMs, nowMs),
  });
  const effects: Effect[] = [];
  if (learned.length > 0) effects.push({ kind: 'merge', from: learned });
  effects.push(...viewEffects(state, next));
  // Only a flag this very event raised is worth an email: a stale BILLING_ISSUE older than the last RENEWAL is not.
  if (state.scope === 'operator' && event.type === 'BILLING_ISSUE' && next.flags.some((f) => f.eventId === event.id)) {
    effects.push({ kind: 'email_billing_issue', eventId: event.id, subscriberId: state.id });
  }
  return { state: bookkeep(next, [event.id]), effects };
}

/** The timer fired: re-derive at `nowMs` (the workflow then derives its next wake time from the result). */
export function applyDowngrade(state: SubscriberState, nowMs: number): Transition {
  if (state.mergedInto !== null) return { state, effects: [] };
  const next = withView({ ...state, asOfMs: Math.max(state.asOfMs, nowMs) });
  return { state: bookkeep(next, []), effects: viewEffects(state, next) };
}

/**
 * Another record (`canonicalId`) owns this subscriber now. This record keeps its history but shows and counts
 * nothing, forwards whatever it receives, and hands its state over (`transfer_out`) for the canonical record
 * to `absorb`. The first merge wins; a later request naming another record is ignored, since ids resolve
 * through the chain of `mergedInto`.
 */
export function mergeInto(state: SubscriberState, canonicalId: string, nowMs: number): Transition {
  if (canonicalId === state.id || state.mergedInto !== null) return { state, effects: [] };
  // Both records learned of each other (two alias or transfer events relayed close together) and each asked
  // the other to merge into it: exactly one gives way, the same one whichever request arrives first, so the
  // two can never end up merged into each other.
  if (state.aliases.includes(canonicalId) && outranks(state.id, canonicalId)) return { state, effects: [] };
  const asOfMs = Math.max(state.asOfMs, nowMs);
  const moving = deriveView(state.subscriptions, asOfMs, false).entitlements.map((e) => e.id);
  const next = withView({ ...state, mergedInto: canonicalId, asOfMs });
  const effects: Effect[] = [{ kind: 'transfer_out', to: canonicalId, entitlementIds: moving }];
  effects.push(...viewEffects(state, next));
  return { state: bookkeep(next, []), effects };
}

/**
 * Joins another record's history into this one (after that record's `mergeInto` this id). Refunded and
 * expired subscriptions come along as history and stay inactive: the join keeps the facts that ended them.
 */
export function absorb(state: SubscriberState, other: SubscriberState, nowMs: number): Transition {
  if (state.mergedInto !== null) return { state, effects: [{ kind: 'forward', to: state.mergedInto }] };
  const next = withView({
    ...state,
    aliases: union(state.aliases, [other.id, ...other.aliases]),
    subscriptions: joinSubscriptionLists(state.subscriptions, other.subscriptions),
    lastEvent: newerStamp(state.lastEvent, other.lastEvent),
    asOfMs: Math.max(state.asOfMs, other.asOfMs, nowMs),
  });
  return { state: bookkeep(next, other.appliedEventIds), effects: viewEffects(state, next) };
}

/**
 * Which of two records stays canonical when each claims the other: the smaller id, a total order, so both
 * records reach the same answer on their own. (An anonymous `$RCAnonymousID:…` sorts first, like the
 * provider's original_app_user_id, which is usually the first, anonymous id.)
 */
export function outranks(a: string, b: string): boolean {
  return compareCodeUnits(a, b) < 0;
}

function withView(state: SubscriberState): SubscriberState {
  return { ...state, ...deriveView(state.subscriptions, state.asOfMs, state.mergedInto !== null) };
}

function bookkeep(state: SubscriberState, appliedIds: readonly string[]): SubscriberState {
  const fresh = appliedIds.filter((id) => !state.appliedEventIds.includes(id));
  return {
    ...state,
    appliedEventIds: [...state.appliedEventIds, ...fresh].slice(-APPLIED_EVENT_IDS_LIMIT),
    version: state.version + 1,
  };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort(compareCodeUnits);
}
