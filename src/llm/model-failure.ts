/**
 * What a failed model call means for the drafting activity: try again (Temporal retries the activity,
 * after the server's Retry-After when it gave one) or use the deterministic draft, with a note saying why.
 * A skill never fails because a model did.
 */
import { ApplicationFailure } from '@temporalio/common';
import { capitalize } from '../skills/text';
import { LLM_FAILURE, isRetryableModelFailure } from './failures';

/** With an unlimited retry policy, the model still gets only this many attempts before the draft is used. */
export const MODEL_ATTEMPTS_WHEN_UNLIMITED = 4;

/** `reason`: why the model's text is not (all) in the result, a sentence for the result's notes. */
export type ModelFailureOutcome = { retry: true } | { retry: false; reason: string };

/** `maximumAttempts` as the activity's retry policy states it (0 or absent: unlimited). */
export function afterModelFailure(err: unknown, attempt: number, maximumAttempts: number | undefined): ModelFailureOutcome {
  const limit = maximumAttempts && maximumAttempts > 0 ? maximumAttempts : MODEL_ATTEMPTS_WHEN_UNLIMITED;
  if (isRetryableModelFailure(err)) {
    if (attempt < limit) return { retry: true };
    return { retry: false, reason: `The model endpoint kept failing (${err.message}) after ${attempt} attempts.` };
  }
  if (err instanceof ApplicationFailure && err.type === LLM_FAILURE.timeout) return { retry: false, reason: `${capitalize(err.message)}.` };
  if (err instanceof ApplicationFailure && (err.type === LLM_FAILURE.rejected || err.type === LLM_FAILURE.malformed)) {
    return { retry: false, reason: `The model call failed: ${err.message}.` };
  }
  return { retry: false, reason: 'The model call failed unexpectedly.' };
}
