/**
 * A subscriber record and its pure reducer, run inside the subscriber's entity workflow. The state is plain
 * JSON (it travels through continue-as-new) and time only comes in as `nowMs`.
 *
 * Why any delivery order gives the same record: each event is turned into facts (see subscription.ts) that are
 * joined into the record with an order-free merge, the view (status, entitlements, MRR) is derived from those
 * facts and the latest `nowMs`, and a redelivered event id is skipped. Merging two records is the same join.
 */
import { viewEffects, type Effect } from './effects';
import { CURRENT_RULES, hasEffect, type BillingEvent, type RuleSet } from './provider-events';
import { fnv1a64, resolveSubscriberIds, type BillingScope } from './subscriber-id';
import { deriveView, type SubscriberView } from './subscriber-view';
import {
  billingIssueStands,
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
/**
 * Event ids up to this length are remembered as they are; longer ones (the intake allows 512 characters) by a
 * digest, so the remembered ids stay a few kilobytes however long the provider's ids are.
 */
const APPLIED_ID_VERBATIM_LENGTH = 64;
/** How many `app_user_id`s a record keeps as the places its entitlements are written to (operator scope). */
export const APP_USER_IDS_LIMIT = 20;

export interface SubscriberState extends SubscriberView {
  scope: BillingScope;
  id: string;
  /** Every id this subscriber has used, its own included, sorted. */
  aliases: string[];
  /**
   * Set once this record has been merged into another; it then forwards everything there. Always a smaller id
   * than `id` (see mergeInto), so following `mergedInto` can never go round in a circle.
   */
  mergedInto: string | null;
  /**
   * The ids the provider named as `app_user_id` (or as a TRANSFER's destination) on this record's events and on
   * every record merged into it, sorted, at most APP_USER_IDS_LIMIT. In the operator scope these name the orgs
   * and projects whose entitlements this subscriber pays for, whichever id stays canonical.
   */
  appUserIds?: string[];
  /**
   * App user ids a TRANSFER moved this customer's purchases away from (`transferred_from`), sorted, bounded like
   * appUserIds: in the operator scope their orgs lose the entitlements, even after the records merged.
   */
  releasedAppUserIds?: string[];
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
  /**
   * Set once a run under rules v3 changed the record: its view (MRR, product, flags) is derived under those rules
   * from then on. Absent: derived as before, so replaying a run recorded earlier gives what it gave then.
   */
  rules?: 'v3';
}

/** The rules a record's view is derived under. */
export function rulesOf(state: Pick<SubscriberState, 'rules'>): RuleSet {
  return state.rules ?? 'v2';
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

/** `rules`: what this run applies (see RuleSet); runs recorded before the current rules pass what they used. */
export function applyEvent(state: SubscriberState, event: BillingEvent, nowMs: number, rules: RuleSet = CURRENT_RULES): Transition {
  if (state.appliedEventIds.includes(appliedIdOf(event.id))) return { state, effects: [] };
  if (state.mergedInto !== null) return { state, effects: [{ kind: 'forward', to: state.mergedInto }] };
  const recorded = { ...stamped(state, rules), lastEvent: newerStamp(state.lastEvent, stampOf(event)) };
  const effective = hasEffect(event.type, rules);
  // Rules v3: an event of any type teaches the ids it names (after a login without SUBSCRIBER_ALIAS, the first
  // event naming both ids may be an EXPERIMENT_ENROLLMENT or a PRODUCT_CHANGE); only its other effects depend on it.
  if (!effective && rules !== 'v3') return { state: bookkeep(recorded, [event.id]), effects: [] };

  const ids = resolveSubscriberIds(event)?.all ?? [];
  const learned = ids.filter((id) => !state.aliases.includes(id)).sort(compareCodeUnits);
  const facts = effective ? subscriptionFromEvent(event, rules) : null;
  const next = withView({
    ...recorded,
    aliases: union(state.aliases, ids),
    appUserIds: withAppUserIds(state.appUserIds, appUserIdsOf(event)),
    releasedAppUserIds: withAppUserIds(state.releasedAppUserIds, event.type === 'TRANSFER' ? nonEmpty(event.transferred_from) : []),
    subscriptions: facts ? joinSubscriptionLists(state.subscriptions, [facts]) : state.subscriptions,
    asOfMs: Math.max(state.asOfMs, nowMs),
  });
  const effects: Effect[] = [];
  // Only a flag this very event raised is worth an email: a stale BILLING_ISSUE older than the last RENEWAL is not.
  const mail: Effect[] =
    state.scope === 'operator' && event.type === 'BILLING_ISSUE' && raisedIssue(next, event.id, rules)
      ? [{ kind: 'email_billing_issue', eventId: event.id, subscriberId: state.id, orgIds: orgCandidates(next, event) }]
      : [];
  // The event names ids this record did not know: they are one customer now. The smallest id of all stays
  // canonical, so a record that learns of a smaller id hands itself over to it in the same step.
  const smallest = learned[0];
  if (smallest !== undefined && compareCodeUnits(smallest, state.id) < 0) {
    const handedOver = mergeInto(bookkeep(next, [event.id]), smallest, nowMs);
    const others = learned.slice(1);
    return {
      state: handedOver.state,
      effects: [...(others.length > 0 ? [{ kind: 'merge' as const, from: others, into: smallest }] : []), ...mail, ...handedOver.effects],
    };
  }
  if (learned.length > 0) effects.push({ kind: 'merge', from: learned, listed: true });
  effects.push(...entitlementEffects(state, next));
  effects.push(...mail);
  return { state: bookkeep(next, [event.id]), effects };
}

/** The timer fired: re-derive at `nowMs` (the workflow then derives its next wake time from the result). */
export function applyDowngrade(state: SubscriberState, nowMs: number, rules: RuleSet = CURRENT_RULES): Transition {
  if (state.mergedInto !== null) return { state, effects: [] };
  const next = withView({ ...stamped(state, rules), asOfMs: Math.max(state.asOfMs, nowMs) });
  return { state: bookkeep(next, []), effects: viewEffects(state, next) };
}

/**
 * `canonicalId` and this record are the same customer (an alias, a transfer, or a record that learned of this
 * one). Of two customers' records the one with the smaller id stays canonical (a total order, so every record
 * reaches the same answer on its own, whatever order the requests arrive in), which makes merging a union-find:
 *
 * - canonical, and `canonicalId` is smaller: this record merges into it. It keeps its history but shows and
 *   counts nothing, forwards whatever it receives, and hands its state over (`transfer_out`) to be absorbed.
 * - canonical, and `canonicalId` is larger: the other record must merge into this one; it is asked to.
 * - already merged: the request is passed on to the record this one was merged into.
 *
 * A record that has never changed (no event, no merge: version 0) and that the canonical record already lists
 * (`listed`, from the canonical's own `merge`) merges without handing anything over: its state is the blank one,
 * which the canonical's absorbing would only add its id to (already there). An alias flood's new ids then cost the
 * canonical record nothing more than the signals it sent.
 *
 * `mergedInto` only ever points to a smaller id, so chains cannot close into a circle, and every request ends
 * after finitely many hops with the two customers under the smallest id of the two. Any graph of aliases and
 * transfers, delivered in any order, therefore converges to one canonical record per customer: the smallest id.
 */
export function mergeInto(
  state: SubscriberState,
  canonicalId: string,
  nowMs: number,
  rules: RuleSet = CURRENT_RULES,
  listed = false,
): Transition {
  if (canonicalId === state.id || canonicalId === state.mergedInto) return { state, effects: [] };
  if (state.mergedInto !== null) return { state, effects: [{ kind: 'merge', from: [state.mergedInto], into: canonicalId }] };
  if (!outranks(canonicalId, state.id)) return { state, effects: [{ kind: 'merge', from: [canonicalId] }] };
  const asOfMs = Math.max(state.asOfMs, nowMs);
  const moving = deriveView(state.subscriptions, asOfMs, false, rulesOf(stamped(state, rules))).entitlements.map((e) => e.id);
  const next = withView({ ...stamped(state, rules), mergedInto: canonicalId, asOfMs });
  if (listed && state.version === 0) return { state: bookkeep(next, []), effects: [] };
  // No entitlement write for the record that gives way: the ids it paid for travel in the handed-over state
  // (appUserIds), and the canonical record writes them; writing "nothing" here would race with that write.
  return { state: bookkeep(next, []), effects: [{ kind: 'transfer_out', to: canonicalId, entitlementIds: moving }] };
}

/**
 * Joins another record's history into this one (after that record's `mergeInto` this id). Refunded and
 * expired subscriptions come along as history and stay inactive: the join keeps the facts that ended them.
 * The version continues from the larger of the two, so this record's entitlement writes supersede the ones the
 * other record made to the same orgs while it was canonical.
 */
export function absorb(state: SubscriberState, other: SubscriberState, nowMs: number, rules: RuleSet = CURRENT_RULES): Transition {
  if (state.mergedInto !== null) return { state, effects: [{ kind: 'forward', to: state.mergedInto }] };
  const next = withView({
    ...stamped(state, rules),
    aliases: union(state.aliases, [other.id, ...other.aliases]),
    appUserIds: withAppUserIds(state.appUserIds, other.appUserIds ?? []),
    releasedAppUserIds: withAppUserIds(state.releasedAppUserIds, other.releasedAppUserIds ?? []),
    subscriptions: joinSubscriptionLists(state.subscriptions, other.subscriptions),
    lastEvent: newerStamp(state.lastEvent, other.lastEvent),
    asOfMs: Math.max(state.asOfMs, other.asOfMs, nowMs),
    version: Math.max(state.version, other.version),
  });
  return { state: bookkeep(next, other.appliedEventIds), effects: entitlementEffects(state, next) };
}

/**
 * The total order that decides which record stays canonical: the smaller id by code units. (An anonymous
 * `$RCAnonymousID:…` sorts first, like the provider's original_app_user_id, which is usually the first,
 * anonymous id.)
 */
export function outranks(a: string, b: string): boolean {
  return compareCodeUnits(a, b) < 0;
}

/**
 * Where the entitlements of this record are enforced (operator scope): its app user ids and its own id, less the
 * ids a transfer moved the purchases away from (`revoked`: they are written empty).
 */
export function entitlementTargets(state: SubscriberState): { targets: string[]; revoked: string[] } {
  const revoked = state.releasedAppUserIds ?? [];
  return { targets: [...new Set([...(state.appUserIds ?? []), state.id])].filter((id) => !revoked.includes(id)), revoked };
}

/** The entitlement write a change needs: the entitlements changed, or the places they are written to did. */
function entitlementEffects(before: SubscriberState, after: SubscriberState): Effect[] {
  const effects = viewEffects(before, after);
  if (effects.length > 0 || after.scope !== 'operator') return effects;
  const [was, is] = [entitlementTargets(before), entitlementTargets(after)];
  const moved = was.targets.join('\n') !== is.targets.join('\n') || was.revoked.join('\n') !== is.revoked.join('\n');
  return moved ? [{ kind: 'entitlements_changed', entitlements: after.entitlements }] : [];
}

/** The orgs a billing issue's mail may be for: the event's own `app_user_id` first. */
function orgCandidates(state: SubscriberState, event: BillingEvent): string[] {
  const named = typeof event.app_user_id === 'string' && event.app_user_id !== '' ? [event.app_user_id] : [];
  return [...new Set([...named, ...entitlementTargets(state).targets])];
}

function appUserIdsOf(event: BillingEvent): string[] {
  return nonEmpty(event.type === 'TRANSFER' ? event.transferred_to : [event.app_user_id]);
}

function nonEmpty(ids: readonly (string | null | undefined)[] | null | undefined): string[] {
  return (ids ?? []).filter((id): id is string => typeof id === 'string' && id !== '');
}

function withAppUserIds(known: readonly string[] | undefined, more: readonly string[]): string[] {
  return union(known ?? [], more).slice(0, APP_USER_IDS_LIMIT);
}

/** How an applied event id is remembered: verbatim when short, else by a digest that cannot look like an id. */
export function appliedIdOf(eventId: string): string {
  return eventId.length <= APPLIED_ID_VERBATIM_LENGTH ? eventId : `#${fnv1a64(eventId)}:${eventId.length}`;
}

function withView(state: SubscriberState): SubscriberState {
  return { ...state, ...deriveView(state.subscriptions, state.asOfMs, state.mergedInto !== null, rulesOf(state)) };
}

/** The record as a run under `rules` changes it: v3 marks it, earlier rules leave it as it is. */
function stamped(state: SubscriberState, rules: RuleSet): SubscriberState {
  return rules === 'v3' && state.rules !== 'v3' ? { ...state, rules: 'v3' } : state;
}

/**
 * Whether this BILLING_ISSUE raised a flag worth an email: it is the subscription's newest issue and nothing was
 * bought after it. Under v3 that is a fact about the events alone (not whether the subscription is still
 * entitled), so the email does not depend on whether the EXPIRATION sent with it arrived first.
 */
function raisedIssue(state: SubscriberState, eventId: string, rules: RuleSet): boolean {
  if (rules !== 'v3') return state.flags.some((f) => f.eventId === eventId);
  return state.subscriptions.some((sub) => sub.billingIssue?.id === eventId && billingIssueStands(sub));
}

function bookkeep(state: SubscriberState, appliedIds: readonly string[]): SubscriberState {
  const fresh = [...new Set(appliedIds.map(appliedIdOf))].filter((id) => !state.appliedEventIds.includes(id));
  return {
    ...state,
    appliedEventIds: [...state.appliedEventIds, ...fresh].slice(-APPLIED_EVENT_IDS_LIMIT),
    version: state.version + 1,
  };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort(compareCodeUnits);
}
