/**
 * What a failed model call means for the drafting activity: try again (Temporal retries the activity,
 * after the server's Retry-After when it gave one) or use the deterministic draft, with a note saying why.
 * A skill never fails because a model did.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Violation } from '../skills/run';
import { capitalize } from '../skills/text';
import { LLM_FAILURE, isRetryableModelFailure } from './failures';

/** With an unlimited retry policy, the model still gets only this many attempts before the draft is used. */
export const MODEL_ATTEMPTS_WHEN_UNLIMITED = 4;

const DRAFT_USED = 'This is the deterministic draft.';

export type ModelFailureOutcome = { retry: true } | { retry: false; note: string };

/** `maximumAttempts` as the activity's retry policy states it (0 or absent: unlimited). */
export function afterModelFailure(err: unknown, attempt: number, maximumAttempts: number | undefined): ModelFailureOutcome {
  const limit = maximumAttempts && maximumAttempts > 0 ? maximumAttempts : MODEL_ATTEMPTS_WHEN_UNLIMITED;
  if (isRetryableModelFailure(err)) {
    if (attempt < limit) return { retry: true };
    return { retry: false, note: `The model endpoint kept failing (${err.message}) after ${attempt} attempts. ${DRAFT_USED}` };
  }
  if (err instanceof ApplicationFailure && err.type === LLM_FAILURE.timeout) return { retry: false, note: `${capitalize(err.message)}. ${DRAFT_USED}` };
  if (err instanceof ApplicationFailure && (err.type === LLM_FAILURE.rejected || err.type === LLM_FAILURE.malformed)) {
    return { retry: false, note: `The model call failed: ${err.message}. ${DRAFT_USED}` };
  }
  return { retry: false, note: `The model call failed unexpectedly. ${DRAFT_USED}` };
}

/** The note for an answer that came back but failed the checks (invented citation, lost section, not JSON). */
export function rejectedAnswerNote(violations: readonly Violation[]): string {
  const shown = violations.slice(0, 3).map((v) => v.message);
  const more = violations.length > shown.length ? ` (and ${violations.length - shown.length} more)` : '';
  return `The model's answer was not used: ${shown.join('; ')}${more}. ${DRAFT_USED}`;
}

