import {
  authErrors,
  bearer,
  count,
  cursorParam,
  dateTime,
  json,
  limitParam,
  nextCursor,
  nullableDateTime,
  nullableString,
  pathParam,
  problemRef,
  queryParam,
  record,
  ref,
  type OpenApiPart,
} from './common';
import { appQuery, scope } from './billing';

const scopeErrors = {
  ...authErrors,
  403: problemRef('The token does not grant the app, or no app and not an admin'),
  404: problemRef('Unknown app'),
};
const snapshot = ref('TimelineSnapshot');

/** What the operator console reads besides the dashboard's reads (routes/console.ts, routes/billing-dashboard.ts). */
export const consolePart: OpenApiPart = {
  schemas: {
    ConsoleScopes: record({
      sub: { type: 'string', description: "The token's subject" },
      admin: { type: 'boolean' },
      scopes: { type: 'array', items: record({ scope, app: nullableString, name: { type: 'string' } }) },
      temporalUiUrl: { ...nullableString, description: 'The Temporal UI (TEMPORAL_UI_URL), for admins; null for other tokens' },
    }),
    ConsoleProjects: record({ projects: { type: 'array', items: record({ id: { type: 'string' } }) } }),
    Trends: record({
      scope,
      days: { enum: [30, 90, 365] },
      currency: { const: 'USD' },
      points: {
        type: 'array',
        items: record({
          day: { type: 'string', format: 'date' },
          mrr: { type: 'number' },
          activeSubscriptions: count,
          activeTrials: count,
          flaggedCustomers: count,
          scheduledDowngrades: count,
          churned: { ...count, description: 'Subscriptions that ended that day' },
        }),
      },
    }),
    TimelineSnapshot: record({
      status: { enum: ['active', 'cancelled', 'expired', 'none'] },
      entitlements: { type: 'array', items: record({ id: { type: 'string' }, expiresAt: nullableDateTime }) },
      flagged: { type: 'boolean' },
      scheduledDowngradeAt: nullableDateTime,
      mrrContribution: { type: 'number' },
    }),
    Timeline: record({
      scope,
      id: { type: 'string', description: 'The canonical customer id' },
      entries: {
        type: 'array',
        items: record({
          eventId: { type: 'string' },
          type: { type: 'string' },
          providerAt: nullableDateTime,
          receivedAt: nullableDateTime,
          appliedAt: dateTime,
          version: { type: 'integer', description: "The record's version after the change" },
          before: { anyOf: [snapshot, { type: 'null' }] },
          after: snapshot,
        }),
      },
      nextCursor,
    }),
  },
  paths: {
    '/v1/console/scopes': {
      get: {
        summary: 'The billing scopes this token may see',
        description: "Its apps (all for admins or apps ['*']), and the operator scope for admins.",
        tags: ['console'],
        security: bearer,
        responses: { 200: json('The scopes', ref('ConsoleScopes')), 401: authErrors[401] },
      },
    },
    '/v1/console/projects': {
      get: {
        summary: 'The projects this token may see',
        description: "Its `projects` claim; all for admins or ['*'].",
        tags: ['console'],
        security: bearer,
        responses: { 200: json('The projects', ref('ConsoleProjects')), 401: authErrors[401] },
      },
    },
    '/v1/billing/trends': {
      get: {
        summary: 'One point per UTC day',
        description:
          'MRR, active subscriptions, trials, flagged customers, scheduled downgrades and churned subscriptions, from the kept daily snapshots, oldest first.',
        tags: ['billing'],
        security: bearer,
        parameters: [appQuery, queryParam('days', '30, 90 or 365 (default 30)', { type: 'integer', enum: [30, 90, 365], default: 30 })],
        responses: { 200: json('The points, oldest first', ref('Trends')), 400: problemRef('Bad days'), ...scopeErrors },
      },
    },
    '/v1/billing/downgrades': {
      get: {
        summary: 'Scheduled downgrades due soon',
        description: 'Customers whose scheduled downgrade is due within the next N days (or overdue), soonest first.',
        tags: ['billing'],
        security: bearer,
        parameters: [
          appQuery,
          queryParam('days', '1-365 (default 7)', { type: 'integer', minimum: 1, maximum: 365, default: 7 }),
          limitParam(200, 50),
          cursorParam,
        ],
        responses: { 200: json('A page of customers', ref('CustomerPage')), 400: problemRef('Bad days, limit or cursor'), ...scopeErrors },
      },
    },
    '/v1/billing/customers/{id}/timeline': {
      get: {
        summary: "A customer's timeline",
        description:
          'Every event applied to a customer, newest first: type, provider time, received time, the status and entitlements before and after.',
        tags: ['billing'],
        security: bearer,
        parameters: [pathParam('id', 'Any app user id or alias'), appQuery, limitParam(200, 50), cursorParam],
        responses: {
          200: json('A page of timeline entries', ref('Timeline')),
          400: problemRef('Bad limit or cursor'),
          ...scopeErrors,
          404: problemRef('Unknown app or customer'),
        },
      },
    },
  },
};
