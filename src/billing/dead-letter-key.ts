import type { BillingScope } from './subscriber-id';

/**
 * What a dead letter is parked under, by where the work failed. The key is the record's identity (the store keeps
 * `dl_` + its digest), so the same failure parked twice (an activity retry, a redelivery, a retry that fails again)
 * lands in one record: these formats must never change, or records parked before would no longer be found.
 */
export type DeadLetterKeyOf =
  /** A redelivered event id whose body differs from the first one accepted (`digest`: of the second body). */
  | { stage: 'intake'; scope: BillingScope; eventId: string; digest: string }
  /** An event Temporal refused to relay to its subscriber's workflow. */
  | { stage: 'relay'; scope: BillingScope; eventId: string }
  /** A provider event the subscriber's workflow could not apply (or could not read from the inbox). */
  | { stage: 'apply'; scope: BillingScope; eventId: string }
  /** A merge message (`mergeInto`, `absorb`) the workflow could not apply, at the record's version then. */
  | { stage: 'apply'; scope: BillingScope; subscriberId: string; version: number; message: 'mergeInto' | 'absorb' }
  /** The `index`th effect of the transition that took the record to `version`. */
  | { stage: 'effect'; scope: BillingScope; subscriberId: string; version: number; index: number };

/** The key a dead letter is parked under (workflow-safe: the subscriber workflow parks through it too). */
export function deadLetterKey(of: DeadLetterKeyOf): string {
  switch (of.stage) {
    case 'intake':
      // The inbox's own key of the event (`{scope}|{eventId}`, store/webhook-events.ts) inside.
      return `intake:${of.scope}|${of.eventId}:${of.digest}`;
    case 'relay':
      return `${of.scope}|relay|${of.eventId}`;
    case 'apply':
      return 'eventId' in of ? `${of.scope}|apply|${of.eventId}` : `${of.scope}|apply|${of.subscriberId}|${of.version}|${of.message}`;
    case 'effect':
      return `${of.scope}|effect|${of.subscriberId}|${of.version}|${of.index}`;
  }
}
