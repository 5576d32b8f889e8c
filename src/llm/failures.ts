/**
 * How a model call fails, as Temporal application failures: the activity throws retryable ones back to
 * Temporal (which honours `nextRetryDelay`) until its last attempt, and falls back to the deterministic
 * draft on the others. Messages name what happened, never the endpoint's answer or the API key.
 */
import { ApplicationFailure } from '@temporalio/common';

export const LLM_FAILURE = {
  /** No answer within the timeout: not retried (a slow model stays slow), the draft is used. */
  timeout: 'LlmTimeout',
  /** 429: retried after Retry-After. */
  rateLimited: 'LlmRateLimited',
  /** 5xx or no connection: retried. */
  unavailable: 'LlmUnavailable',
  /** Any other 4xx, or a wait longer than we accept: retrying would not help. */
  rejected: 'LlmRejected',
  /** 2xx without a chat-completions answer in it. */
  malformed: 'LlmMalformedResponse',
} as const;

/** A server asking to wait longer than this is treated as unavailable for this invocation. */
export const MAX_RETRY_AFTER_MS = 60_000;

export function timeoutFailure(timeoutMs: number): ApplicationFailure {
  return ApplicationFailure.create({
    type: LLM_FAILURE.timeout,
    message: `the model did not answer within ${timeoutMs} ms`,
    nonRetryable: true,
  });
}

/** The reason (fetch's "fetch failed" wraps the socket error) goes to the cause, for logs: it names hosts. */
export function connectionFailure(err: unknown): ApplicationFailure {
  const reason = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return ApplicationFailure.create({
    type: LLM_FAILURE.unavailable,
    message: 'the model endpoint could not be reached',
    cause: new Error(reason),
  });
}

/** 429 and 5xx are worth retrying after the server's Retry-After; other 4xx are not. */
export function httpFailure(status: number, retryAfterMs: number | undefined): ApplicationFailure {
  const retryable = status === 429 || status >= 500;
  const type = status === 429 ? LLM_FAILURE.rateLimited : status >= 500 ? LLM_FAILURE.unavailable : LLM_FAILURE.rejected;
  if (retryable && retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
    return ApplicationFailure.create({
      type: LLM_FAILURE.rejected,
      message: `the model endpoint answered HTTP ${status} and asks to wait ${Math.round(retryAfterMs / 1000)} s, longer than ${MAX_RETRY_AFTER_MS / 1000} s`,
      nonRetryable: true,
    });
  }
  return ApplicationFailure.create({
    type,
    message: `the model endpoint answered HTTP ${status}`,
    // The status, for a caller that can ask differently (a server that does not know an option answers 400).
    details: [status],
    nonRetryable: !retryable,
    ...(retryable && retryAfterMs !== undefined ? { nextRetryDelay: retryAfterMs } : {}),
  });
}

export function malformedFailure(what: string): ApplicationFailure {
  return ApplicationFailure.create({ type: LLM_FAILURE.malformed, message: `the model endpoint's answer ${what}`, nonRetryable: true });
}

/** True for a failure that another attempt may cure (rate limit, 5xx, no connection). */
export function isRetryableModelFailure(err: unknown): err is ApplicationFailure {
  return (
    err instanceof ApplicationFailure && !err.nonRetryable && (err.type === LLM_FAILURE.rateLimited || err.type === LLM_FAILURE.unavailable)
  );
}

/** True when the endpoint refused the request itself (400, 422): a request without an optional feature may pass. */
export function isRequestRefused(err: unknown): boolean {
  return err instanceof ApplicationFailure && err.type === LLM_FAILURE.rejected && (err.details?.[0] === 400 || err.details?.[0] === 422);
}
