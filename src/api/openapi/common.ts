/** Building blocks of the OpenAPI 3.1 document, shared by every resource's path descriptions. */

export type Operation = Record<string, unknown>;
export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', Operation>>;
export type Paths = Record<string, PathItem>;

export const problemRef = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

export const json = (description: string, schema: object = { type: 'object' }) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = (schema: object) => ({ required: true, content: { 'application/json': { schema } } });

export const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
export const queryParam = (name: string, description: string, schema: object = { type: 'string' }, required = false) =>
  ({ name, in: 'query', required, schema, description });

export const bearer = [{ bearerAuth: [] }];

/** The 4xx every authenticated route can answer. */
export const authErrors = {
  401: problemRef('Missing, malformed, expired or badly signed token'),
  403: problemRef('The token does not grant this resource'),
};
