/**
 * JSON Schema (2020-12, for ajv's Ajv2020 with ajv-formats) of the documents a project uploads.
 *
 * One schema per kind, each closed (`additionalProperties: false`) so a misspelt field such as
 * `fixversion` is rejected instead of silently ignored. DOCUMENT_SCHEMA picks the kind's schema with
 * `if`/`then` rather than `oneOf`, so a bad commit is reported against the commit fields only, not against
 * all ten kinds; with `allErrors` ajv adds one `if` error ("must match \"then\" schema") that a caller may
 * drop. Size limits keep one document well inside the API's 64 KiB body limit.
 *
 * Clients send what they have: `createdAt` may be left out (screenDocuments fills in the document's own time,
 * OWN_TIME_FIELD, or the upload time), an optional text field may be "" (treated as absent), and a sales note
 * need not name a customer. Every pattern here is linear-time (no nested or overlapping repetition).
 */
import { SEMVER_PATTERN } from './semver';
import { DOCUMENT_KINDS, type DocumentKind, type JsonSchema } from './types';

const text = (maxLength: number, minLength = 1): JsonSchema => ({ type: 'string', minLength, maxLength });
const name = text(200);
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const version: JsonSchema = { type: 'string', pattern: SEMVER_PATTERN, maxLength: 100 };
const list = (items: JsonSchema, maxItems: number): JsonSchema => ({ type: 'array', items, maxItems });
const count: JsonSchema = { type: 'integer', minimum: 0 };
const sha: JsonSchema = { type: 'string', pattern: '^[0-9a-fA-F]{7,64}$' };
const login: JsonSchema = {
  type: 'string',
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$',
  description: "The author's login on the forge (GitHub, GitLab): release notes name them @login",
};
const ticketKey: JsonSchema = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*-\\d+$', maxLength: 50 };
/** http(s) with a host, or mailto: the only links a result may carry (no javascript:, data:, file:). */
export const LINK_PATTERN = '^(?:[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+(?:[/?#]\\S*)?|[Mm][Aa][Ii][Ll][Tt][Oo]:\\S+)$';
const link: JsonSchema = { type: 'string', maxLength: 2000, pattern: LINK_PATTERN, description: 'An http(s) or mailto URL' };

const evidenceProperties = { customer: name, industry: text(100), outcome: text(1000), metrics: list(text(300), 20), date: timestamp };
const evidence = { required: ['customer', 'industry', 'date'], properties: evidenceProperties };

/** Fields each kind adds to the common ones, and which of them are required (the shapes in documents.ts). */
const KIND_FIELDS: Record<DocumentKind, { required: string[]; properties: Record<string, JsonSchema> }> = {
  commit: {
    required: ['sha', 'author', 'committedAt'],
    properties: {
      sha,
      author: name,
      authorLogin: login,
      committedAt: timestamp,
      version,
      prNumber: { type: 'integer', minimum: 1 },
      ticketKeys: list(ticketKey, 50),
      changesets: list(
        {
          type: 'object',
          additionalProperties: false,
          required: ['summary'],
          properties: {
            summary: text(5000),
            bump: { type: 'string', enum: ['major', 'minor', 'patch'] },
            dependencies: list({ type: 'string', minLength: 1, maxLength: 214 }, 50),
          },
        },
        20,
      ),
    },
  },
  pull_request: {
    required: ['number', 'author'],
    properties: {
      number: { type: 'integer', minimum: 1 },
      labels: list(text(100), 50),
      author: name,
      authorLogin: login,
      mergedAt: timestamp,
      mergeCommitSha: sha,
      version,
      ticketKeys: list(ticketKey, 50),
    },
  },
  ticket: {
    required: ['key', 'type', 'status'],
    properties: {
      key: ticketKey,
      type: text(50),
      status: text(50),
      resolvedAt: timestamp,
      fixVersion: version,
      labels: list(text(100), 50),
    },
  },
  release: {
    required: ['version', 'releasedAt'],
    properties: { version, tag: text(100), sha, releasedAt: timestamp },
  },
  win: evidence,
  case_study: evidence,
  // A sales team's note may be about a prospect not yet named.
  sales_note: { required: ['industry', 'date'], properties: evidenceProperties },
  incident: {
    required: ['incidentId', 'severity', 'status', 'startedAt', 'services'],
    properties: {
      incidentId: text(100),
      severity: text(20),
      status: text(50),
      startedAt: timestamp,
      detectedAt: timestamp,
      mitigatedAt: timestamp,
      resolvedAt: timestamp,
      services: list(text(100), 50),
      errorIssueIds: list(text(100), 100),
      runbookIds: list(text(200), 50),
      timeline: list(
        { type: 'object', additionalProperties: false, required: ['at', 'text'], properties: { at: timestamp, text: text(2000) } },
        200,
      ),
    },
  },
  error_issue: {
    required: ['issueId', 'firstSeen', 'lastSeen', 'count'],
    properties: {
      issueId: text(100),
      culprit: text(500),
      level: text(20),
      firstSeen: timestamp,
      lastSeen: timestamp,
      count,
      userCount: count,
      release: version,
      service: text(100),
    },
  },
  runbook: {
    required: ['service', 'steps'],
    properties: { service: text(100), steps: list(text(2000), 100) },
  },
};

/** The document's own time, which `createdAt` defaults to when the client leaves it out. */
export const OWN_TIME_FIELD: Record<DocumentKind, string | undefined> = {
  commit: 'committedAt',
  pull_request: 'mergedAt',
  ticket: 'resolvedAt',
  release: 'releasedAt',
  win: 'date',
  case_study: 'date',
  sales_note: 'date',
  incident: 'startedAt',
  error_issue: 'firstSeen',
  runbook: undefined,
};

/** Optional string fields of a kind: an empty string sent for one of them means the field is absent. */
export function optionalTextFields(kind: DocumentKind): string[] {
  const required = new Set(['kind', 'externalId', 'title', 'body', ...KIND_FIELDS[kind].required]);
  const props = { url: link, createdAt: timestamp, ...KIND_FIELDS[kind].properties };
  return Object.entries(props)
    .filter(([k, v]) => !required.has(k) && (v as { type?: string }).type === 'string')
    .map(([k]) => k);
}

function kindSchema(kind: DocumentKind): JsonSchema {
  const fields = KIND_FIELDS[kind];
  return {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'externalId', 'title', 'body', ...fields.required],
    properties: {
      // The type beside the const: openapi-generator reads a oneOf's discriminator property by its type.
      kind: { type: 'string', const: kind },
      externalId: text(200),
      title: text(500),
      body: text(20_000, 0),
      url: link,
      createdAt: {
        ...timestamp,
        description: `Defaults to ${OWN_TIME_FIELD[kind] ? `\`${OWN_TIME_FIELD[kind]}\`, else ` : ''}the upload time`,
      },
      ...fields.properties,
    },
  };
}

/** One closed schema per kind, for a caller that checks `kind` itself and wants only that kind's errors. */
export const DOCUMENT_KIND_SCHEMAS: Record<DocumentKind, JsonSchema> = Object.fromEntries(
  DOCUMENT_KINDS.map((kind) => [kind, kindSchema(kind)]),
) as Record<DocumentKind, JsonSchema>;

/** Any project document: `kind` must be known, then the kind's schema applies. */
export const DOCUMENT_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: [...DOCUMENT_KINDS] } },
  allOf: DOCUMENT_KINDS.map((kind) => ({
    if: { properties: { kind: { const: kind } }, required: ['kind'] },
    then: { $ref: `#/$defs/${kind}` },
  })),
  $defs: DOCUMENT_KIND_SCHEMAS,
};
