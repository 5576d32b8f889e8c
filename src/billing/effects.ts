/**
 * What a subscriber transition asks the workflow to do. The reducer decides; the workflow carries out (timers,
 * signals to other subscriber workflows) and activities do the I/O (emails, entitlement records). Pure.
 */
import type { Entitlement, SubscriberView } from './subscriber-view';

export type Effect =
  /** Write the subscriber's entitlements where they are enforced (the org or project record, operator scope). */
  | { kind: 'entitlements_changed'; entitlements: Entitlement[] }
  /**
   * Operator scope: tell the org owner. `eventId` is the idempotency key: one email per event id. `orgIds`: the
   * ids that may name the org, first match wins (absent on effects parked before it existed: `subscriberId`).
   */
  | { kind: 'email_billing_issue'; eventId: string; subscriberId: string; orgIds?: string[] }
  /**
   * The records under these ids are the same customer as `into` (absent: this record): ask each to mergeInto it.
   * `listed`: the canonical record already lists these ids among its aliases, so one with no state of its own has
   * nothing to hand over (see mergeInto).
   */
  | { kind: 'merge'; from: string[]; into?: string; listed?: true }
  /** This record was merged into `to`: send `to` this state to absorb. Lists the entitlements that move. */
  | { kind: 'transfer_out'; to: string; entitlementIds: string[] }
  /** This record is merged: deliver the input it was given to `to` instead. */
  | { kind: 'forward'; to: string };

/**
 * The entitlement effect of a change of view. Timers are not effects: the workflow derives its one timer from
 * the state after every change (wake-time.ts), so there is a single source of truth for when it wakes.
 */
export function viewEffects(before: SubscriberView, after: SubscriberView): Effect[] {
  const effects: Effect[] = [];
  if (JSON.stringify(before.entitlements) !== JSON.stringify(after.entitlements)) {
    effects.push({ kind: 'entitlements_changed', entitlements: after.entitlements });
  }
  return effects;
}
