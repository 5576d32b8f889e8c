import { authErrors, bearer, json, pathParam, problemRef, type Paths } from './common';

export const skillCatalogPaths: Paths = {
  '/v1/agents/{project}/skills': {
    get: {
      summary: "The project's skills with their input schemas and availability",
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      responses: { 200: json('The catalog'), ...authErrors, 404: problemRef('Unknown project') },
    },
  },
};
