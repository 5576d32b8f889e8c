/**
 * The request bodies of the HTTP contract (api.md), each written once: the routes validate with them, the OpenAPI
 * document (src/api/openapi/) shows them, and the CLI's loaders validate demo data with some.
 */
import { LISTING_SCHEMA } from '../skills/release-notes/listing';
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

export const RELEASE_NOTES_SETTINGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { listing: LISTING_SCHEMA },
  description:
    "The project's release-notes settings: `listing` says what its notes list beyond the changes users see (a release_notes_composer invocation's own `listing` input wins). Left out of a PUT, the project's settings stay as they are",
} as const;

/** `PUT /v1/projects/{project}`'s body: the project and, optionally, its skill settings. */
export const PROJECT_SETTINGS_BODY_SCHEMA = {
  ...PROJECT_BODY_SCHEMA,
  properties: { ...PROJECT_BODY_SCHEMA.properties, releaseNotes: RELEASE_NOTES_SETTINGS_SCHEMA },
} as const;

/** The longest endpoint URL taken (the URL guard, src/outbound/url-guard.ts, refuses longer ones too). */
export const MAX_URL_LENGTH = 2048;

const EVENT_TYPE = { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$' } as const;

export const OUTBOUND_ACCESS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: {
    enabled: { type: 'boolean' },
    contactEmail: {
      type: ['string', 'null'],
      format: 'email',
      maxLength: 254,
      description: 'Emailed when an endpoint is disabled automatically',
    },
  },
} as const;

const ENDPOINT_PROPERTIES = {
  url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH },
  eventTypes: {
    type: ['array', 'null'],
    items: EVENT_TYPE,
    minItems: 1,
    maxItems: 32,
    uniqueItems: true,
    description: 'Only these types (null or absent: every type)',
  },
  description: { type: 'string', maxLength: 500 },
  disabled: { type: 'boolean' },
} as const;

export const ENDPOINT_CREATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: ENDPOINT_PROPERTIES,
} as const;
export const ENDPOINT_PATCH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: ENDPOINT_PROPERTIES,
} as const;
export const REDELIVER_FAILED_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['since'],
  properties: { since: { type: 'string', format: 'date-time', maxLength: 40 } },
} as const;

/** Why a dead letter is discarded: said by the operator, kept on the record. */
export const DISCARD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why it is put aside (kept with it)' },
  },
} as const;
