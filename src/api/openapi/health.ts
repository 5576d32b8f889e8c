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
    get: { summary: 'Prometheus metrics', tags: ['operations'], responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': {} } } } },
  },
  '/dashboard': {
    get: { summary: 'Billing dashboard web page (reads /v1/billing/* with a pasted token)', tags: ['billing'], responses: { 200: { description: 'HTML', content: { 'text/html': {} } } } },
  },
  '/openapi.json': { get: { summary: 'This document', tags: ['operations'], responses: { 200: json('OpenAPI 3.1 document') } } },
};
