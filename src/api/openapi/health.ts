import { json, problemRef, type Paths } from './common';

export const healthPaths: Paths = {
  '/healthz': { get: { summary: 'Liveness', tags: ['operations'], responses: { 200: json('The process runs') } } },
  '/readyz': {
    get: {
      summary: 'Readiness: MongoDB and Temporal answer',
      tags: ['operations'],
      responses: { 200: json('Both dependencies answer'), 503: problemRef('A dependency is down; `checks` names it') },
    },
  },
  '/metrics': {
    get: {
      summary: 'Prometheus metrics (with METRICS_TOKEN set: only for Authorization: Bearer <METRICS_TOKEN>)',
      tags: ['operations'],
      responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': {} } }, 401: problemRef('METRICS_TOKEN is set and the bearer value is missing or wrong') },
    },
  },
  '/dashboard': {
    get: { summary: 'Operator console web page: scopes, trends, customers and their timelines, work lists, skill invocations (reads /v1/* with the token from the URL fragment or pasted)', tags: ['billing'], responses: { 200: { description: 'HTML', content: { 'text/html': {} } } } },
  },
  '/dashboard/assets/{name}': {
    get: {
      summary: "The console's script and style and the libraries it uses (uPlot, markdown-it), served from the project and node_modules",
      tags: ['billing'],
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' }, description: 'Asset file name' }],
      responses: { 200: { description: 'JavaScript or CSS', content: { 'application/javascript': {}, 'text/css': {} } }, 404: problemRef('No such asset') },
    },
  },
  '/openapi.json': { get: { summary: 'This document', tags: ['operations'], responses: { 200: json('OpenAPI 3.1 document') } } },
};
