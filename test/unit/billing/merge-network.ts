/**
 * The subscriber workflows' message passing, simulated over the pure reducer: records by id, a pool of messages in
 * flight, and effects turned into messages the way src/workflows/billing-subscriber.ts carries them out
 * (merge → mergeInto to each id, transfer_out → absorb, forward → the same message). Which message is delivered
 * next is drawn at random, so a run explores one interleaving of what Temporal may deliver.
 */
import type { BillingEvent } from '../../../src/billing/provider-events';
import { resolveSubscriberIds, type BillingScope } from '../../../src/billing/subscriber-id';
import { absorb, applyEvent, initialState, mergeInto, type SubscriberState, type Transition } from '../../../src/billing/subscriber-state';
import type { Rng } from '../../../bench/lib/random';

type Message =
  | { kind: 'event'; event: BillingEvent }
  | { kind: 'mergeInto'; canonicalId: string; listed?: true }
  | { kind: 'absorb'; state: SubscriberState };

export interface NetworkRun {
  records: Map<string, SubscriberState>;
  /** Messages delivered until nothing was left in flight. */
  deliveries: number;
}

/** An event and the time it is received (the clock every record reads from then on). */
export interface TimedEvent {
  event: BillingEvent;
  receivedAtMs: number;
}

/**
 * Delivers `events` (in the order given, each to its primary record) and everything they cause, in random order.
 * Plain events are received at `nowMs`; timed ones move the clock on to their receipt.
 */
export function runNetwork(
  scope: BillingScope,
  events: (BillingEvent | TimedEvent)[],
  nowMs: number,
  rng: Rng,
  maxDeliveries = 100_000,
): NetworkRun {
  const records = new Map<string, SubscriberState>();
  const inFlight: { to: string; message: Message }[] = [];
  // Events enter in order but interleave with what they cause, as the relay's concurrent signals do.
  const pending = [...events];
  let deliveries = 0;
  let clock = nowMs;
  while (pending.length > 0 || inFlight.length > 0) {
    if (++deliveries > maxDeliveries) throw new Error(`no quiescence after ${maxDeliveries} deliveries (${inFlight.length} in flight)`);
    if (pending.length > 0 && (inFlight.length === 0 || rng.chance(0.3))) {
      const next = pending.shift()!;
      const event = isTimed(next) ? next.event : next;
      if (isTimed(next)) clock = Math.max(clock, next.receivedAtMs);
      const primary = resolveSubscriberIds(event)?.primary;
      if (primary !== undefined) inFlight.push({ to: primary, message: { kind: 'event', event } });
      continue;
    }
    const [{ to, message }] = inFlight.splice(rng.int(0, inFlight.length - 1), 1);
    const state = records.get(to!) ?? initialState(scope, to!);
    const transition: Transition =
      message!.kind === 'event'
        ? applyEvent(state, message!.event, clock)
        : message!.kind === 'mergeInto'
          ? mergeInto(state, message!.canonicalId, clock, undefined, message!.listed === true)
          : absorb(state, message!.state, clock);
    records.set(to!, transition.state);
    for (const effect of transition.effects) {
      if (effect.kind === 'merge')
        for (const from of effect.from)
          inFlight.push({
            to: from,
            message: { kind: 'mergeInto', canonicalId: effect.into ?? to!, ...(effect.listed ? { listed: true as const } : {}) },
          });
      if (effect.kind === 'transfer_out') inFlight.push({ to: effect.to, message: { kind: 'absorb', state: transition.state } });
      if (effect.kind === 'forward' && message!.kind !== 'mergeInto') inFlight.push({ to: effect.to, message: message! });
    }
  }
  return { records, deliveries };
}

function isTimed(x: BillingEvent | TimedEvent): x is TimedEvent {
  return typeof x.receivedAtMs === 'number' && typeof x.event === 'object' && x.event !== null;
}

/** The record an id leads to along `mergedInto`, and how many hops it took; throws on a circle. */
export function canonicalOf(records: Map<string, SubscriberState>, id: string): { id: string; hops: number } {
  const seen = new Set<string>();
  let current = id;
  while (records.get(current)?.mergedInto) {
    if (seen.has(current)) throw new Error(`merge chain from ${id} goes round in a circle through ${current}`);
    seen.add(current);
    current = records.get(current)!.mergedInto!;
  }
  return { id: current, hops: seen.size };
}
