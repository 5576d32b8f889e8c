import { authErrors, bearer, json, pathParam, problemRef, queryParam, type Paths } from './common';

const appParam = queryParam('app', 'App slug; omit for the operator scope (admins only)');
const page = [queryParam('limit', '1-200 (default 50)', { type: 'integer' }), queryParam('cursor', 'nextCursor of the previous page')];

export const consolePaths: Paths = {
  '/v1/console/scopes': {
    get: {
      summary: "The billing scopes this token may see: its apps (all for admins or apps ['*']), and the operator scope for admins",
      tags: ['billing'],
      security: bearer,
      responses: {
        200: json('The scopes', {
          type: 'object',
          required: ['scopes'],
          properties: {
            scopes: { type: 'array', items: { type: 'object', properties: { scope: { type: 'string' }, app: { type: ['string', 'null'] }, name: { type: 'string' } } } },
            temporalUiUrl: { type: ['string', 'null'] },
          },
        }),
        401: authErrors[401],
      },
    },
  },
  '/v1/console/projects': {
    get: {
      summary: "The projects this token may see (its `projects` claim; all for admins or ['*'])",
      tags: ['skills'],
      security: bearer,
      responses: { 200: json('The projects'), 401: authErrors[401] },
    },
  },
  '/v1/billing/trends': {
    get: {
      summary: 'One point per UTC day (MRR, active subscriptions, trials, flagged customers, scheduled downgrades, churned subscriptions) from the kept daily snapshots',
      tags: ['billing'],
      security: bearer,
      parameters: [appParam, queryParam('days', '30, 90 or 365 (default 30)', { type: 'integer', enum: [30, 90, 365] })],
      responses: { 200: json('The points, oldest first; a day without a change carries the previous totals'), 400: problemRef('Bad days'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/billing/downgrades': {
    get: {
      summary: 'Customers whose scheduled downgrade is due within the next N days, soonest first',
      tags: ['billing'],
      security: bearer,
      parameters: [appParam, queryParam('days', '1-365 (default 7)', { type: 'integer' }), ...page],
      responses: { 200: json('A page of customers'), 400: problemRef('Bad days, limit or cursor'), ...authErrors, 404: problemRef('Unknown app') },
    },
  },
  '/v1/billing/customers/{id}/timeline': {
    get: {
      summary: "Every event applied to a customer, newest first: type, provider time, received time, the status/entitlements before and after",
      tags: ['billing'],
      security: bearer,
      parameters: [pathParam('id', 'Any app user id or alias'), appParam, ...page],
      responses: { 200: json('A page of timeline entries'), 400: problemRef('Bad limit or cursor'), ...authErrors, 404: problemRef('Unknown app or customer') },
    },
  },
};
