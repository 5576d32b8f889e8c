import { DOCUMENT_KIND_SCHEMAS } from '../../skills/documents';
import { DOCUMENT_KINDS } from '../../skills/types';
import { MAX_DOCUMENTS_PER_REQUEST } from '../../contracts/bodies';
import { authErrors, bearer, json, jsonBody, pathParam, problemRef, queryParam, type Paths } from './common';

/**
 * Each kind's document schema as a component, and a document as one of them by `kind`: the same rules the API
 * validates with (skills/document-schema.ts), in the form client generators read (the validator's own form
 * refers to `#/$defs`, which inside this document would resolve against its root).
 */
export const documentSchemas: Record<string, unknown> = Object.fromEntries(DOCUMENT_KINDS.map((kind) => [`Document_${kind}`, DOCUMENT_KIND_SCHEMAS[kind]]));
const DOCUMENT = {
  oneOf: DOCUMENT_KINDS.map((kind) => ({ $ref: `#/components/schemas/Document_${kind}` })),
  discriminator: { propertyName: 'kind', mapping: Object.fromEntries(DOCUMENT_KINDS.map((kind) => [kind, `#/components/schemas/Document_${kind}`])) },
};

export const documentPaths: Paths = {
  '/v1/projects/{project}/documents': {
    post: {
      summary: 'Upsert documents by (kind, externalId); a bad document is rejected alone',
      tags: ['projects'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      requestBody: jsonBody({
        type: 'object',
        required: ['documents'],
        properties: { documents: { type: 'array', maxItems: MAX_DOCUMENTS_PER_REQUEST, items: DOCUMENT } },
      }),
      responses: {
        200: json('Counts, and each rejected document with its errors', {
          type: 'object',
          properties: { inserted: { type: 'integer' }, updated: { type: 'integer' }, rejected: { type: 'array' } },
        }),
        400: problemRef('Not a { documents: [...] } body'),
        ...authErrors,
        404: problemRef('Unknown project'),
        413: problemRef('Body over 64 KiB'),
        415: problemRef('Body is not application/json'),
      },
    },
    get: {
      summary: "A page of the project's documents, newest first",
      tags: ['projects'],
      security: bearer,
      parameters: [
        pathParam('project', 'Project id'),
        queryParam('kind', 'Document kind', { enum: [...DOCUMENT_KINDS] }),
        queryParam('q', 'Words that must all be in the title or body (whole words, any case; up to 8), answered from an index'),
        queryParam('limit', '1-200 (default 50)', { type: 'integer' }),
        queryParam('cursor', 'nextCursor of the previous page'),
      ],
      responses: { 200: json('A page of documents'), 400: problemRef('Bad filter'), ...authErrors, 404: problemRef('Unknown project') },
    },
  },
};
