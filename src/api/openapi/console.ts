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
import { EVENT_TRENDS_QUERY_SCHEMA } from '../routes/billing-dashboard';

const scopeErrors = {
  ...authErrors,
  403: problemRef('The token does not grant the app'),
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
    TimelineEntry: record({
      eventId: { type: 'string' },
      type: { type: 'string' },
      providerAt: nullableDateTime,
      receivedAt: nullableDateTime,
      appliedAt: dateTime,
      version: { type: 'integer', description: "The record's version after the change" },
      before: { anyOf: [snapshot, { type: 'null' }] },
      after: snapshot,
      ownChange: {
        type: 'boolean',
        description: "before and after are this event's own; false: the whole write's, shared with the events applied with it",
      },
      facts: { anyOf: [ref('EventFacts'), { type: 'null' }], description: 'What the event says about money and the customer' },
    }),
    EventFacts: record({
      priceUsd: { type: ['number', 'null'], description: 'The provider’s price in USD; negative on a refund' },
      currency: nullableString,
      priceInPurchasedCurrency: { type: ['number', 'null'] },
      store: nullableString,
      productId: nullableString,
      environment: nullableString,
      country: nullableString,
      periodType: nullableString,
      transactionId: nullableString,
      originalTransactionId: nullableString,
      purchasedAtMs: { type: ['integer', 'null'] },
      expirationAtMs: { type: ['integer', 'null'] },
      endReason: { ...nullableString, description: 'cancel_reason or expiration_reason' },
      kind: { enum: ['purchase', 'renewal', 'conversion', 'one_time', 'refund', 'expiration', 'other'] },
    }),
    EventTrends: record({
      scope,
      days: { enum: [30, 90, 365] },
      currency: { const: 'USD' },
      firstDay: {
        type: ['string', 'null'],
        format: 'date',
        description: "The day of the scope's first event (provider time); null: none yet",
      },
      points: {
        type: 'array',
        description: 'One per UTC day of provider time, from the first event (or the period start) to today; none before the first event',
        items: record({
          day: { type: 'string', format: 'date' },
          revenue: { type: 'number', description: 'USD from purchases, renewals and one-time purchases' },
          refunds: count,
          refundAmount: { type: 'number', description: 'USD refunded' },
          newCustomers: { ...count, description: 'Customers with an INITIAL_PURCHASE that day' },
          trialStarts: count,
          trialConversions: { ...count, description: 'Renewals that ended a trial (is_trial_conversion)' },
          expirations: { ...count, description: 'Subscriptions that expired (refunds apart)' },
        }),
      },
      options: record(
        {
          stores: { type: 'array', items: { type: 'string' } },
          products: { type: 'array', items: { type: 'string' } },
          countries: { type: 'array', items: { type: 'string' } },
        },
        'The values the filters can take in the days shown',
      ),
    }),
    Timeline: record({
      scope,
      id: { type: 'string', description: 'The canonical customer id' },
      entries: { type: 'array', items: ref('TimelineEntry') },
      nextCursor,
    }),
    TimelineEntryOfCustomer: record({
      scope,
      id: { type: 'string', description: 'The canonical customer id' },
      entry: ref('TimelineEntry'),
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
          "MRR, active subscriptions, trials, flagged customers, scheduled downgrades and churned subscriptions, from the kept daily snapshots, oldest first, from the scope's first snapshot on (no point before it).",
        tags: ['billing'],
        security: bearer,
        parameters: [appQuery, queryParam('days', '30, 90 or 365 (default 30)', { type: 'integer', enum: [30, 90, 365], default: 30 })],
        responses: {
          200: json('The points, oldest first', ref('Trends')),
          400: problemRef('Bad days; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
        },
      },
    },
    '/v1/billing/trends/events': {
      get: {
        summary: 'What the events of each day add up to, by provider time',
        description:
          "Revenue, refunds (count and amount), new customers, trial starts and conversions and expirations per UTC day of the events' provider time (or their receipt when that is implausible), from the scope's first event on, filtered by store, product, environment and country. Kept per day from the customers' timelines.",
        tags: ['billing'],
        security: bearer,
        parameters: [
          appQuery,
          ...(Object.keys(EVENT_TRENDS_QUERY_SCHEMA.properties) as (keyof typeof EVENT_TRENDS_QUERY_SCHEMA.properties)[]).map((name) => {
            const { description, ...schema } = EVENT_TRENDS_QUERY_SCHEMA.properties[name] as { description: string };
            return queryParam(name, description, schema);
          }),
        ],
        responses: {
          200: json('The points, oldest first', ref('EventTrends')),
          400: problemRef('A bad period or filter; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
        },
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
        responses: {
          200: json('A page of customers', ref('CustomerPage')),
          400: problemRef('Bad days, limit or cursor; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
        },
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
          400: problemRef('Bad limit or cursor; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
          404: problemRef('Unknown app or customer'),
        },
      },
    },
    '/v1/billing/customers/{id}/timeline/{eventId}': {
      get: {
        summary: "One event's entry on a customer's timeline",
        description: 'What the event changed (before and after), as the timeline lists it; the event log links here.',
        tags: ['billing'],
        security: bearer,
        parameters: [pathParam('id', 'Any app user id or alias'), pathParam('eventId', 'The provider event id'), appQuery],
        responses: {
          200: json('The entry', ref('TimelineEntryOfCustomer')),
          400: problemRef('A repeated app parameter; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
          404: problemRef('Unknown app, customer, or no such event on its timeline'),
        },
      },
    },
  },
};
