import { count, type Schema } from './common';

/** A problem with one member of a request, by JSON pointer (FieldError, src/contracts/validation.ts). */
export const FIELD_ERROR: Schema = {
  type: 'object',
  required: ['path', 'message'],
  properties: { path: { type: 'string', description: 'JSON pointer of the member ("" for the whole body)' }, message: { type: 'string' } },
};

const probe: Schema = {
  type: 'object',
  required: ['status', 'ms'],
  properties: { status: { enum: ['up', 'down'] }, ms: { ...count, description: 'How long the check took' } },
};

/** What GET /readyz reports of each dependency, in its 200 and in its 503 problem alike. */
export const READINESS_CHECKS: Schema = {
  type: 'object',
  required: ['mongodb', 'temporal'],
  properties: { mongodb: probe, temporal: probe },
};

/**
 * RFC 9457 problem details (src/api/http/problem.ts): every error the API answers. The extension members some problems
 * carry are listed too, so a client reads them typed and a validating test notices a new one.
 */
export const problemSchemas: Record<string, Schema> = {
  FieldError: FIELD_ERROR,
  ReadinessChecks: READINESS_CHECKS,
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', format: 'uri', description: 'https://errors.skills-billing.dev/{code}' },
      title: { type: 'string', description: 'The HTTP status text' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong, for a person; 5xx details never carry internals' },
      code: { type: 'string', description: 'Stable machine string: invalid_input, unknown_skill, unauthorized, …' },
      errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' }, description: 'Each invalid member (400, 422)' },
      limitBytes: { type: 'integer', description: 'payload_too_large (413): the body limit' },
      checks: { $ref: '#/components/schemas/ReadinessChecks', description: 'not_ready (503 from /readyz): which dependency is down' },
    },
  },
};
