import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { HttpProblem, notFound, serviceUnavailable } from './problem';

/**
 * Temporal failures, mapped explicitly: not found → 404, unreachable or overloaded → 503 (nothing was done,
 * the caller may retry). "Already started" is not an error for callers: they get the existing handle.
 */
export function mapTemporalError(err: unknown, what: string): unknown {
  if (err instanceof HttpProblem) return err;
  if (err instanceof WorkflowNotFoundError) return notFound('workflow_not_found', `${what} has no workflow`);
  if (isUnavailable(err)) return serviceUnavailable('temporal_unavailable', 'The workflow service is unreachable; nothing was started. Retry later.');
  return err;
}

export function isAlreadyStarted(err: unknown): boolean {
  return err instanceof WorkflowExecutionAlreadyStartedError;
}

// gRPC status codes: CANCELLED 1, DEADLINE_EXCEEDED 4, RESOURCE_EXHAUSTED 8, UNAVAILABLE 14.
const UNAVAILABLE_CODES = new Set<number>([1, 4, 8, 14]);

export function isUnavailable(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) return true;
    const name = (e as { name?: unknown }).name;
    if (name === 'ServiceError' && /UNAVAILABLE|DEADLINE_EXCEEDED|ECONNREFUSED/.test(String((e as Error).message))) return true;
  }
  return false;
}

/** Runs a Temporal call with a deadline, so an unreachable server means a prompt 503, not a hung request. */
export const TEMPORAL_CALL_TIMEOUT_MS = 5_000;
