import type { Effect } from '../../../src/billing/effects';
import type { BillingEvent } from '../../../src/billing/provider-events';
import type { BillingScope } from '../../../src/billing/subscriber-id';
import { applyEvent, initialState, type SubscriberState } from '../../../src/billing/subscriber-state';
import { ANON } from './fixtures';

/** Delivers events one after the other at `nowMs`; returns the final state and every effect, in order. */
export function deliver(
  events: BillingEvent[],
  nowMs: number,
  start: SubscriberState = initialState('app:acme', ANON),
): { state: SubscriberState; effects: Effect[] } {
  let state = start;
  const effects: Effect[] = [];
  for (const event of events) {
    const transition = applyEvent(state, event, nowMs);
    state = transition.state;
    effects.push(...transition.effects);
  }
  return { state, effects };
}

export function fresh(scope: BillingScope = 'app:acme', id: string = ANON): SubscriberState {
  return initialState(scope, id);
}

export function kinds(effects: Effect[]): string[] {
  return effects.map((e) => e.kind);
}

/** Deterministic PRNG (mulberry32) for reproducible shuffles. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
