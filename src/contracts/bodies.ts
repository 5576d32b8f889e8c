/**
 * Request bodies of the HTTP contract that more than the API reads: the OpenAPI document shows them, and the
 * CLI's loaders validate demo data with them, so one definition serves all three.
 */
import { SLUG_PATTERN } from './ids';

export const ORG_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'ownerEmail'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    ownerEmail: { type: 'string', format: 'email', maxLength: 320 },
  },
} as const;

export const PROJECT_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'org'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    org: { type: 'string', pattern: SLUG_PATTERN },
  },
} as const;

export const APP_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name'],
  properties: {
    slug: { type: 'string', pattern: SLUG_PATTERN },
    name: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

export const MAX_DOCUMENTS_PER_REQUEST = 500;

export const DOCUMENTS_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['documents'],
  properties: { documents: { type: 'array', minItems: 1, maxItems: MAX_DOCUMENTS_PER_REQUEST, items: { type: 'object' } } },
} as const;
