/**
 * How large a subscriber's record and its inbox may grow inside its workflow. Temporal refuses a payload over
 * 2 MB (a continue-as-new input, an activity input, a signal) and a workflow task over 4 MB, and a record that
 * crossed either would be stuck for good: every later task failing the same way. So a message that would take
 * the record past its budget is parked as a dead letter instead of applied. Real customers' records are a few
 * kilobytes; only events padded to the intake's limits (hundreds of kilobyte-long ids) come near. Pure.
 */
import type { SubscriberState } from './subscriber-state';

/** Characters of JSON a record may reach by applying a provider event. */
export const EVENT_STATE_CHARS = 192 * 1024;
/**
 * Characters of JSON a record may reach by absorbing another record (a merge). Larger than the event budget, so
 * that two records that each stayed within it can always be merged, and well under Temporal's 2 MB.
 */
export const ABSORB_STATE_CHARS = 512 * 1024;
/** Unapplied messages a run may hand to its successor (continue-as-new), in characters of JSON. */
export const CARRIED_INBOX_CHARS = 512 * 1024;
/** Messages applied before the record is stored and the totals are sent, so one flood cannot hold them back. */
export const MESSAGES_PER_BATCH = 100;

export function jsonChars(value: unknown): number {
  return JSON.stringify(value).length;
}

/**
 * Why a transition may not be adopted, or null when it may. Only growth is refused: a record that is over the
 * budget already (written by an earlier version) may still shrink or stay as it is.
 */
export function overBudget(before: SubscriberState, after: SubscriberState, budget: number): string | null {
  if (after === before) return null;
  const size = jsonChars(after);
  if (size <= budget || size <= jsonChars(before)) return null;
  return `the subscriber's record would grow to ${size} characters, over its budget of ${budget}; the message is parked instead of applied`;
}
