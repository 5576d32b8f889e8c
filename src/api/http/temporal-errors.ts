import { WorkflowNotFoundError } from '@temporalio/client';
import { isUnavailable } from '../../temporal/failures';
import { HttpProblem, notFound, serviceUnavailable } from './problem';

/**
 * Temporal failures, mapped explicitly: not found → 404, unreachable or overloaded → 503 (nothing was done,
 * the caller may retry). "Already started" is not an error for callers: they get the existing handle.
 */
export function mapTemporalError(err: unknown, what: string): unknown {
  if (err instanceof HttpProblem) return err;
  if (err instanceof WorkflowNotFoundError) return notFound('workflow_not_found', `${what} has no workflow`);
  if (isUnavailable(err))
    return serviceUnavailable('temporal_unavailable', 'The workflow service is unreachable; nothing was started. Retry later.');
  return err;
}
