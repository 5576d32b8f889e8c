/**
 * What the stored billing state must be after the fault suite's traffic, computed with the service's own pure
 * reducer (src/billing) from the events that were acknowledged, and a comparison that names each subscriber
 * that differs and how.
 *
 * Merges: the ids one event names end up as one customer, so the model groups ids by the events that name
 * them (union-find). The canonical record must be the one under the group's smallest id, whatever the order of
 * arrival; the check finds the canonical record in the store, checks that there is exactly one and that it is
 * that id, that every other id of the group leads to it, and that it holds what applying every event of the
 * group gives.
 */
import { isDeepStrictEqual } from 'node:util';
import { addTotals, contributionOf, ZERO_TOTALS, type BillingTotals } from '../../src/billing/metrics';
import type { BillingEvent } from '../../src/billing/provider-events';
import { resolveSubscriberIds, type BillingScope } from '../../src/billing/subscriber-id';
import { applyEvent, initialState, type SubscriberState } from '../../src/billing/subscriber-state';
import { canonicalView, type CanonicalView } from '../../src/billing/canonical-view';
import type { SubscriberRecord } from '../../src/store/subscribers';

export interface Group {
  ids: string[];
  events: BillingEvent[];
}

/** Groups the events of one scope by the customers they name. */
export function groupEvents(events: BillingEvent[]): Group[] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const add = (id: string) => void (parent.has(id) || parent.set(id, id));
  for (const e of events) {
    const ids = resolveSubscriberIds(e)?.all ?? [];
    for (const id of ids) add(id);
    for (const id of ids.slice(1)) parent.set(find(id), find(ids[0]!));
  }
  const groups = new Map<string, Group>();
  for (const id of parent.keys()) {
    const root = find(id);
    if (!groups.has(root)) groups.set(root, { ids: [], events: [] });
    groups.get(root)!.ids.push(id);
  }
  for (const e of events) {
    const first = resolveSubscriberIds(e)?.primary;
    if (first !== undefined) groups.get(find(first))!.events.push(e);
  }
  for (const g of groups.values()) g.ids.sort();
  return [...groups.values()];
}

/** The record the reducer gives for a group under `canonicalId`, at `nowMs`. */
export function modelState(scope: BillingScope, canonicalId: string, events: BillingEvent[], nowMs: number): SubscriberState {
  let state = initialState(scope, canonicalId);
  for (const e of events) state = applyEvent(state, e, nowMs).state;
  return state;
}

export interface ScopeCheck {
  problems: string[];
  /** Model totals (sum of the model's contributions). */
  modelTotals: BillingTotals;
  modelStates: Map<string, SubscriberState>;
  applied: number;
  canonicalRecords: number;
  mergedRecords: number;
}

/**
 * Compares every stored record of a scope with the model. `acked` are the events the provider got a 200 for;
 * `unsure` were sent but never acknowledged (the sender gave up): applied or not, both are fine.
 */
export function checkScope(
  scope: BillingScope,
  acked: BillingEvent[],
  unsure: BillingEvent[],
  records: SubscriberRecord[],
  nowMs: number,
): ScopeCheck {
  const problems: string[] = [];
  const byId = new Map(records.map((r) => [r.subscriberId, r]));
  const appliedIn = new Map<string, string[]>();
  for (const r of records) {
    if (r.mergedInto !== null) continue;
    for (const id of r.state?.appliedEventIds ?? []) appliedIn.set(id, [...(appliedIn.get(id) ?? []), r.subscriberId]);
  }
  // An event the sender gave up on counts only if the service applied it (it may have been stored behind a 503).
  const events = [...acked, ...unsure.filter((e) => appliedIn.has(e.id))];
  const modelStates = new Map<string, SubscriberState>();
  let modelTotals: BillingTotals = { ...ZERO_TOTALS };
  let applied = 0;

  for (const group of groupEvents(events)) {
    const label = group.ids.length > 1 ? `group [${group.ids.join(', ')}]` : `subscriber ${group.ids[0]}`;
    const missing = group.ids.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      problems.push(
        `${scope} ${label}: no stored record for ${missing.join(', ')} (${group.events.length} events, e.g. ${group.events
          .map((e) => `${e.type} ${e.id}`)
          .slice(0, 3)
          .join('; ')})`,
      );
      continue;
    }
    const canonical = group.ids.filter((id) => byId.get(id)!.mergedInto === null);
    if (canonical.length !== 1) {
      problems.push(
        `${scope} ${label}: ${canonical.length} canonical records (${canonical.join(', ') || 'none'}); mergedInto: ${group.ids.map((id) => `${id}→${byId.get(id)!.mergedInto}`).join(', ')}`,
      );
      continue;
    }
    const root = canonical[0]!;
    // Merges converge under the smallest id of the customer (code-unit order, as groupEvents sorts them).
    if (root !== group.ids[0]) problems.push(`${scope} ${label}: canonical record ${root}, not the smallest id ${group.ids[0]}`);
    for (const id of group.ids) {
      let at = id;
      for (let hops = 0; byId.get(at)?.mergedInto && hops < 20; hops++) at = byId.get(at)!.mergedInto!;
      if (at !== root) problems.push(`${scope} ${label}: ${id} leads to ${at}, not to the canonical ${root}`);
    }
    const record = byId.get(root)!;
    const model = modelState(scope, root, group.events, nowMs);
    modelStates.set(root, model);
    modelTotals = addTotals(modelTotals, contributionOf(model));
    const diff = viewDiff(canonicalView(model), record.view);
    if (diff.length > 0) problems.push(`${scope} ${root} (${label}) differs from the model: ${diff.join('; ')}`);
    const storedApplied = new Set(record.state?.appliedEventIds ?? []);
    const notApplied = group.events.filter((e) => !storedApplied.has(e.id));
    if (notApplied.length > 0)
      problems.push(`${scope} ${root}: acknowledged but not applied: ${notApplied.map((e) => `${e.type} ${e.id}`).join(', ')}`);
    applied += group.events.length - notApplied.length;
    const sentIds = new Set(group.events.map((e) => e.id));
    const foreign = [...storedApplied].filter((id) => !sentIds.has(id));
    if (foreign.length > 0)
      problems.push(`${scope} ${root}: applied events of another customer or never acknowledged: ${foreign.join(', ')}`);
  }
  for (const [eventId, where] of appliedIn)
    if (where.length > 1) problems.push(`${scope} event ${eventId} applied by ${where.length} customers: ${where.join(', ')}`);
  return {
    problems,
    modelTotals,
    modelStates,
    applied,
    canonicalRecords: records.filter((r) => r.mergedInto === null).length,
    mergedRecords: records.filter((r) => r.mergedInto !== null).length,
  };
}

/** Member by member, so a failure says what differs (status, entitlements, MRR, aliases, subscriptions…). */
export function viewDiff(expected: CanonicalView, actual: CanonicalView | undefined): string[] {
  if (!actual) return ['no view stored'];
  const out: string[] = [];
  for (const key of Object.keys(expected) as (keyof CanonicalView)[]) {
    if (!isDeepStrictEqual(expected[key], actual[key]))
      out.push(`${key}: expected ${JSON.stringify(expected[key])}, stored ${JSON.stringify(actual[key])}`);
  }
  return out;
}

export function totalsDiff(label: string, expected: BillingTotals, actual: BillingTotals): string[] {
  return (Object.keys(expected) as (keyof BillingTotals)[])
    .filter((k) => expected[k] !== actual[k])
    .map((k) => `${label}: ${k} expected ${expected[k]}, got ${actual[k]}`);
}
