import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';

/** How Temporal failures are told apart, for the API (status codes), the invocation start and the relay. */

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

// gRPC INVALID_ARGUMENT: Temporal will refuse the same request every time (an id or a search attribute value
// over one of its limits), so retrying cannot help.
const INVALID_ARGUMENT = 3;

/** True when Temporal refused a request for good rather than being unreachable or busy. */
export function isPermanentRefusal(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === INVALID_ARGUMENT) return true;
  }
  return false;
}
