import { DOCUMENT_KIND_SCHEMAS } from '../../skills/documents';
import { DOCUMENT_KINDS } from '../../skills/types';
import { DOCUMENTS_BODY_SCHEMA } from '../../contracts/bodies';
import {
  authErrors,
  bearer,
  bodyErrors,
  count,
  cursorParam,
  json,
  jsonBody,
  limitParam,
  nextCursor,
  pathParam,
  problemRef,
  queryParam,
  record,
  ref,
  type OpenApiPart,
} from './common';
import { documentKind } from './skills';

const tags = ['projects'];

/**
 * Each kind's document schema as a component, and a document as one of them by `kind`: the same rules the API
 * validates with (skills/document-schema.ts), in the form client generators read (the validator's own form
 * refers to `#/$defs`, which inside this document would resolve against its root). A listed document is one of
 * them too, with `createdAt` always set.
 */
export const documentPart: OpenApiPart = {
  schemas: {
    ...Object.fromEntries(DOCUMENT_KINDS.map((kind) => [`Document_${kind}`, DOCUMENT_KIND_SCHEMAS[kind]])),
    Document: {
      oneOf: DOCUMENT_KINDS.map((kind) => ref(`Document_${kind}`)),
      discriminator: {
        propertyName: 'kind',
        mapping: Object.fromEntries(DOCUMENT_KINDS.map((kind) => [kind, `#/components/schemas/Document_${kind}`])),
      },
    },
    // The route's body schema, with each document described by its kind (the route checks each on its own).
    DocumentUpload: {
      ...DOCUMENTS_BODY_SCHEMA,
      properties: { documents: { ...DOCUMENTS_BODY_SCHEMA.properties.documents, items: ref('Document') } },
    },
    DocumentUploadResult: record({
      inserted: count,
      updated: count,
      rejected: {
        type: 'array',
        description: 'The documents refused, each alone (the others are kept)',
        items: record({ index: { ...count, description: 'Position in the request' }, errors: { type: 'array', items: ref('FieldError') } }),
      },
    }),
    DocumentPage: record({ documents: { type: 'array', items: ref('Document') }, nextCursor }),
  },
  paths: {
    '/v1/projects/{project}/documents': {
      post: {
        summary: 'Upsert documents',
        description:
          'Upserts by (kind, externalId); a bad document is rejected alone, the others are kept. Admin, or a token with the project.',
        tags,
        security: bearer,
        parameters: [pathParam('project', 'Project id')],
        requestBody: jsonBody(ref('DocumentUpload')),
        responses: {
          200: json('Counts, and each rejected document with its errors', ref('DocumentUploadResult')),
          400: problemRef('Not a { documents: [...] } body'),
          ...authErrors,
          404: problemRef('Unknown project'),
          ...bodyErrors,
        },
      },
      get: {
        summary: "The project's documents, newest first",
        tags,
        security: bearer,
        parameters: [
          pathParam('project', 'Project id'),
          queryParam('kind', 'Document kind', documentKind),
          queryParam('q', 'Words that must all be in the title or body (whole words, any case; up to 8), answered from an index', {
            type: 'string',
            maxLength: 200,
          }),
          limitParam(200, 50),
          cursorParam,
        ],
        responses: {
          200: json('A page of documents', ref('DocumentPage')),
          400: problemRef('Bad filter, limit or cursor'),
          ...authErrors,
          404: problemRef('Unknown project'),
        },
      },
    },
  },
};
