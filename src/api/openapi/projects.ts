import { ORG_BODY_SCHEMA, PROJECT_BODY_SCHEMA } from '../../contracts/bodies';
import { authErrors, bearer, json, jsonBody, pathParam, problemRef, type Paths } from './common';

export const projectPaths: Paths = {
  '/v1/orgs/{org}': {
    put: {
      summary: 'Create or update an org (admin)',
      tags: ['projects'],
      security: bearer,
      parameters: [pathParam('org', 'Org id')],
      requestBody: jsonBody(ORG_BODY_SCHEMA),
      responses: { 200: json('Updated'), 201: json('Created'), 400: problemRef('Invalid body'), ...authErrors },
    },
    get: {
      summary: 'An org and its entitlements (admin)',
      tags: ['projects'],
      security: bearer,
      parameters: [pathParam('org', 'Org id')],
      responses: { 200: json('The org'), ...authErrors, 404: problemRef('Unknown org') },
    },
  },
  '/v1/projects/{project}': {
    put: {
      summary: 'Create or update a project (admin)',
      tags: ['projects'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      requestBody: jsonBody(PROJECT_BODY_SCHEMA),
      responses: { 200: json('Updated'), 201: json('Created'), 400: problemRef('Invalid body'), ...authErrors, 404: problemRef('Unknown org') },
    },
    get: {
      summary: 'A project, with its effective entitlements',
      tags: ['projects'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      responses: { 200: json('The project'), ...authErrors, 404: problemRef('Unknown project') },
    },
  },
};
