/** Building blocks of the OpenAPI 3.1 document, shared by every resource's path descriptions. */

export type Schema = Record<string, unknown>;
export type Operation = Record<string, unknown>;
export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', Operation>>;
export type Paths = Record<string, PathItem>;

/** One resource's part of the document: its paths and the component schemas they refer to. */
export interface OpenApiPart {
  paths: Paths;
  schemas?: Record<string, Schema>;
}

/** A reference to a component schema (components/schemas/{name}). */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const problemRef = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

export const json = (description: string, schema: Schema, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});

export const jsonBody = (schema: Schema) => ({ required: true, content: { 'application/json': { schema } } });

export const pathParam = (name: string, description: string, schema: Schema = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  schema,
  description,
});
export const queryParam = (name: string, description: string, schema: Schema = { type: 'string' }, required = false) => ({
  name,
  in: 'query',
  required,
  schema,
  description,
});

export const bearer = [{ bearerAuth: [] }];
/** Routes anyone may call. */
export const open: never[] = [];

/** The 4xx every authenticated route can answer. */
export const authErrors = {
  401: problemRef('Missing, malformed, expired or badly signed token'),
  403: problemRef('The token does not grant this resource'),
};

/** What reading a JSON request body can answer (middleware/json-body.ts), besides the route's own 400s. */
export const bodyErrors = {
  413: problemRef('Body over 64 KiB (payload_too_large, with limitBytes)'),
  415: problemRef('Body is not application/json'),
};

/** Response headers the API sets. */
export const headers = {
  location: { Location: { description: 'Where the resource is', schema: { type: 'string' } } },
  retryAfter: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'string' } } },
  /** The IETF HTTPAPI draft's rate-limit fields (draft-ietf-httpapi-ratelimit-headers; src/api/access/rate-limit-fields.ts). */
  rateLimit: {
    'RateLimit-Policy': {
      description: 'The limit: `"invocations";q=60;w=60` (q invocations in any w seconds, per caller and project)',
      schema: { type: 'string', examples: ['"invocations";q=60;w=60'] },
    },
    RateLimit: {
      description: 'What is left of it: `"invocations";r=59;t=60` (r more now; t seconds until the oldest counted one frees a place)',
      schema: { type: 'string', examples: ['"invocations";r=59;t=60'] },
    },
  },
};

/** A 429 of a per-caller bound, with Retry-After. */
export const tooMany = (description: string) => ({ ...problemRef(description), headers: headers.retryAfter });

// Schema fragments of the members many resources share.
export const dateTime: Schema = { type: 'string', format: 'date-time' };
export const nullableDateTime: Schema = { type: ['string', 'null'], format: 'date-time' };
export const nullableString: Schema = { type: ['string', 'null'] };
export const count: Schema = { type: 'integer', minimum: 0 };
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
/** An object whose members are all listed here (every one always present). */
export const record = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  properties,
});
/** A record with members that are there only sometimes. */
export const withOptional = (schema: Schema, optional: Record<string, Schema>): Schema => ({
  ...schema,
  properties: { ...(schema.properties as Record<string, Schema>), ...optional },
});
/** `nextCursor`: the `cursor` of the next page, or null on the last one. */
export const nextCursor: Schema = { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page' };
export const limitParam = (max: number, dflt: number) =>
  queryParam('limit', `1-${max} (default ${dflt})`, { type: 'integer', minimum: 1, maximum: max, default: dflt });
export const cursorParam = queryParam('cursor', 'nextCursor of the previous page');
