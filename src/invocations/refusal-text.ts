import { describeImpossible } from './data-rules';
import type { Refusal } from './invoke';

/**
 * A refused invocation in words, for the callers that answer in prose rather than with a status code: the CLI,
 * MCP tool results and A2A errors (the HTTP route maps refusals to problem+json itself).
 */
export function describeRefusal(refusal: Refusal, project: string, skill: string): string {
  switch (refusal.code) {
    case 'rate_limited':
      return `too many invocations; retry in ${refusal.retryAfterSeconds} s`;
    case 'no_inputs':
      return 'the skill inputs are required';
    case 'invalid_input':
      return `the inputs do not match the skill's input schema: ${refusal.errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`;
    case 'not_entitled':
      return `project "${project}" is not entitled to "${refusal.entitlement}", which ${skill} requires`;
    case 'impossible_request':
      return describeImpossible(project, refusal.errors);
    case 'unconfirmed':
      return `Temporal did not confirm the start of ${refusal.record._id}; see GET /v1/agents/${project}/invocations/${refusal.record._id}`;
    case 'not_started':
      return `Temporal refused the start or could not be reached; nothing was started (${refusal.error instanceof Error ? refusal.error.message : String(refusal.error)})`;
    default:
      return `the invocation was refused (${refusal.code})`;
  }
}
