import { ORG_BODY_SCHEMA, PROJECT_SETTINGS_BODY_SCHEMA } from '../../contracts/bodies';
import { LISTING_SCHEMA } from '../../skills/release-notes/listing';
import {
  authErrors,
  bearer,
  bodyErrors,
  dateTime,
  json,
  jsonBody,
  nullableDateTime,
  nullableString,
  pathParam,
  problemRef,
  record,
  ref,
  type OpenApiPart,
  type Schema,
} from './common';

const tags = ['projects'];

const owned = {
  name: { type: 'string' },
  entitlements: { type: 'array', items: ref('Entitlement'), description: "Granted by the operator scope's billing (or by hand)" },
  createdAt: dateTime,
  updatedAt: dateTime,
};
const PROJECT: Schema = record({
  id: { type: 'string' },
  org: { type: 'string' },
  ...owned,
  releaseNotes: record(
    { listing: { ...LISTING_SCHEMA, required: ['internalWork', 'docs'] } },
    "The project's release-notes settings in effect (its own, else the defaults: internal work omitted, documentation counted)",
  ),
});

export const projectPart: OpenApiPart = {
  schemas: {
    Entitlement: record({
      id: { type: 'string' },
      productId: nullableString,
      expiresAt: { ...nullableDateTime, description: 'Null: no end' },
    }),
    Org: record({ id: { type: 'string' }, ownerEmail: { type: 'string', format: 'email' }, ...owned }),
    Project: PROJECT,
    ProjectDetail: {
      ...PROJECT,
      required: [...(PROJECT.required as string[]), 'effectiveEntitlements'],
      properties: {
        ...(PROJECT.properties as Record<string, Schema>),
        effectiveEntitlements: {
          type: 'array',
          items: ref('Entitlement'),
          description: "The project's and its org's entitlements that have not expired",
        },
      },
    },
  },
  paths: {
    '/v1/orgs/{org}': {
      put: {
        summary: 'Create or update an org (admin)',
        tags,
        security: bearer,
        parameters: [pathParam('org', 'Org id')],
        requestBody: jsonBody(ORG_BODY_SCHEMA),
        responses: {
          200: json('Updated', ref('Org')),
          201: json('Created', ref('Org')),
          400: problemRef('Invalid body or org id'),
          ...authErrors,
          ...bodyErrors,
        },
      },
      get: {
        summary: 'An org and its entitlements (admin)',
        tags,
        security: bearer,
        parameters: [pathParam('org', 'Org id')],
        responses: { 200: json('The org', ref('Org')), ...authErrors, 404: problemRef('Unknown org') },
      },
    },
    '/v1/projects/{project}': {
      put: {
        summary: 'Create or update a project (admin)',
        tags,
        security: bearer,
        parameters: [pathParam('project', 'Project id')],
        requestBody: jsonBody(PROJECT_SETTINGS_BODY_SCHEMA),
        responses: {
          200: json('Updated', ref('Project')),
          201: json('Created', ref('Project')),
          400: problemRef('Invalid body or project id'),
          ...authErrors,
          404: problemRef('Unknown org'),
          ...bodyErrors,
        },
      },
      get: {
        summary: 'A project, with its effective entitlements',
        tags,
        security: bearer,
        parameters: [pathParam('project', 'Project id')],
        responses: { 200: json('The project', ref('ProjectDetail')), ...authErrors, 404: problemRef('Unknown project') },
      },
    },
  },
};
