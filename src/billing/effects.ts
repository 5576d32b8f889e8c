/**
 * What a subscriber transition asks the workflow to do. The reducer decides; the workflow carries out (timers,
 * signals to other subscriber workflows) and activities do the I/O (emails, entitlement records). Pure.
 */
import type { Entitlement, SubscriberView } from './subscriber-view';

export type Effect =
  /** Sleep on a durable timer until atMs, then call applyDowngrade. Replaces any earlier timer. */
  | { kind: 'schedule_downgrade'; atMs: number; reason: string; eventId: string; subscriptionKey: string }
  /** Drop the pending downgrade timer: a renewal, purchase or uncancellation came first. */
  | { kind: 'cancel_downgrade' }
  /** Write the subscriber's entitlements where they are enforced (the org or project record, operator scope). */
  | { kind: 'entitlements_changed'; entitlements: Entitlement[] }
  /** Operator scope: tell the org owner. `eventId` is the idempotency key: one email per event id. */
  | { kind: 'email_billing_issue'; eventId: string; subscriberId: string }
  /** The records under these ids belong to this subscriber: ask each to mergeInto(this id). */
  | { kind: 'merge'; from: string[] }
  /** This record was merged into `to`: send `to` this state to absorb. Lists the entitlements that move. */
  | { kind: 'transfer_out'; to: string; entitlementIds: string[] }
  /** This record is merged: deliver the input it was given to `to` instead. */
  | { kind: 'forward'; to: string };

/** The timer and entitlement effects of a change of view. */
export function viewEffects(before: SubscriberView, after: SubscriberView): Effect[] {
  const effects: Effect[] = [];
  const next = after.scheduledDowngrade;
  if (next !== null && next.atMs !== before.scheduledDowngrade?.atMs) {
    effects.push({ kind: 'schedule_downgrade', ...next });
  } else if (next === null && before.scheduledDowngrade !== null) {
    effects.push({ kind: 'cancel_downgrade' });
  }
  if (JSON.stringify(before.entitlements) !== JSON.stringify(after.entitlements)) {
    effects.push({ kind: 'entitlements_changed', entitlements: after.entitlements });
  }
  return effects;
}
