import { CUSTOMER_LIST_QUERY_SCHEMA } from '../routes/billing-dashboard';
import { DISCARD_SCHEMA } from '../../contracts/bodies';
import {
  authErrors,
  bearer,
  bodyErrors,
  jsonBody,
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
  type Schema,
  withOptional,
} from './common';

/** The customer list's filters, sort and search, described by the schema the route validates them with. */
function customerListParams(names: (keyof typeof CUSTOMER_LIST_QUERY_SCHEMA.properties)[]) {
  return names.map((name) => {
    const { description, ...schema } = CUSTOMER_LIST_QUERY_SCHEMA.properties[name] as { description: string };
    return queryParam(name, description, schema);
  });
}

const tags = ['billing'];
export const appQuery = queryParam(
  'app',
  "App slug; required unless the token is an admin's (400 missing_app), and for an admin's omitted means the operator scope",
);
export const scope: Schema = { type: 'string', pattern: '^(operator|app:.+)$', description: '"app:{slug}" or "operator"' };
const usd: Schema = { type: 'number', description: 'USD per month, rounded to the cent' };
const workflowUrl: Schema = {
  ...nullableString,
  description: 'The workflow in the Temporal UI, for admins; null for other tokens and when TEMPORAL_UI_URL is not configured',
};
const scopeErrors = {
  ...authErrors,
  403: problemRef('The token does not grant the app'),
  404: problemRef('Unknown app'),
};

/** billing/customer-resource.ts, and what the dashboard route adds. */
const customerProperties: Record<string, Schema> = {
  scope,
  id: { type: 'string', description: 'The canonical app user id' },
  aliases: { type: 'array', items: { type: 'string' }, description: 'The other ids the customer has used' },
  mergedInto: nullableString,
  status: { enum: ['active', 'cancelled', 'expired', 'none'] },
  entitlements: { type: 'array', items: ref('Entitlement') },
  flags: { type: 'array', items: record({ type: { const: 'billing_issue' }, since: dateTime, eventId: { type: 'string' } }) },
  scheduledDowngrade: {
    anyOf: [
      record({
        at: dateTime,
        reason: { type: 'string', description: 'The event type that scheduled it: CANCELLATION, EXPIRATION or SUBSCRIPTION_PAUSED' },
      }),
      { type: 'null' },
    ],
  },
  mrrContribution: usd,
  lastEvent: { anyOf: [record({ id: { type: 'string' }, type: { type: 'string' }, at: dateTime }), { type: 'null' }] },
  workflowId: { type: 'string', description: 'billing/{scope}/{id}' },
  subscriptions: { type: 'array', items: ref('Subscription') },
  summary: { type: 'string', description: 'The one-line summary the Temporal UI shows' },
  workflowUrl,
  updatedAt: dateTime,
};

/** The billing dashboard's reads (routes/billing-dashboard.ts) and dead letters (routes/dead-letters.ts). */
export const billingPart: OpenApiPart = {
  schemas: {
    BillingMetrics: record({
      scope,
      mrr: record({ amount: usd, currency: { const: 'USD' } }),
      activeSubscriptions: count,
      activeTrials: count,
      flaggedCustomers: count,
      scheduledDowngrades: count,
      updatedAt: { ...nullableDateTime, description: "Null before the scope's first event" },
      metricsWorkflowUrl: workflowUrl,
    }),
    /** billing/canonical-view.ts CanonicalSubscription. */
    Subscription: record({
      key: { type: 'string' },
      status: { enum: ['active', 'cancelled', 'expired', 'refunded'] },
      productId: nullableString,
      entitlementIds: { type: 'array', items: { type: 'string' } },
      periodType: { ...nullableString, description: 'NORMAL, TRIAL, INTRO, …' },
      store: { ...nullableString, description: 'APP_STORE, PLAY_STORE, STRIPE, …' },
      environment: { ...nullableString, description: 'PRODUCTION or SANDBOX' },
      isFamilyShare: { type: 'boolean' },
      priceUsd: { type: ['number', 'null'] },
      purchasedAtMs: { type: ['integer', 'null'], description: 'Epoch milliseconds' },
      expiresAtMs: { type: ['integer', 'null'], description: 'Epoch milliseconds; null: no end' },
      mrrMicros: {
        type: 'integer',
        description: 'What it counts toward MRR, in micro-dollars per month (0 for a trial, a sandbox purchase, …)',
      },
    }),
    Customer: record(customerProperties),
    CustomerDetail: record({ ...customerProperties, facts: ref('CustomerFacts') }),
    CustomerPage: withOptional(record({ customers: { type: 'array', items: ref('Customer') }, nextCursor }), {
      exactMatch: {
        anyOf: [ref('Customer'), { type: 'null' }],
        description:
          'With q only: the customer q names exactly (its id or any alias, through merges, in any case; or a transaction id of one of its purchases), or null',
      },
      exactMatchBy: { enum: ['id', 'transaction', null], description: 'With q only: what q matched (an id or alias, or a transaction id)' },
    }),
    CustomerFacts: record(
      {
        since: { ...nullableDateTime, description: 'Its first event or purchase' },
        lifetimeSpendUsd: {
          type: 'number',
          description: 'Purchases, renewals and one-time purchases at their USD price, sandbox excluded',
        },
        refunds: record({ count, amountUsd: { type: 'number' } }),
        country: { ...nullableString, description: 'The newest country_code of its events' },
        partial: { type: 'boolean', description: 'True when only its newest 5,000 events were read' },
      },
      "From the customer's timeline (events applied before the timeline kept their facts are not in it)",
    ),
    DeadLetter: record({
      id: { type: 'string', pattern: '^dl_[0-9a-f]{32}$' },
      scope,
      stage: { enum: ['intake', 'relay', 'apply', 'effect'] },
      status: { enum: ['parked', 'retried', 'discarded'] },
      eventId: nullableString,
      type: nullableString,
      subscriberId: nullableString,
      reason: { type: 'string' },
      parkedAt: dateTime,
      attempts: { type: 'integer', minimum: 1, description: 'How many times it was parked' },
      retriedAt: nullableDateTime,
      workflowId: nullableString,
      workflowUrl,
      retryable: { type: 'boolean', description: 'Whether a retry can succeed (an intake conflict never can)' },
      notRetryableReason: { ...nullableString, description: 'Why not, when not' },
      discardedAt: nullableDateTime,
      discardReason: { ...nullableString, description: "The operator's reason for discarding it" },
      discardedBy: { ...nullableString, description: "The discarding token's subject" },
    }),
    DeadLetterPage: record({ scope, deadLetters: { type: 'array', items: ref('DeadLetter') }, nextCursor }),
  },
  paths: {
    '/v1/billing/metrics': {
      get: {
        summary: 'MRR and counts of a scope',
        description: 'No app: the operator scope, admins only.',
        tags,
        security: bearer,
        parameters: [appQuery],
        responses: {
          200: json('The totals', ref('BillingMetrics')),
          400: problemRef('app is not a single slug; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
        },
      },
    },
    '/v1/billing/customers': {
      get: {
        summary: 'Customers of a scope',
        tags,
        security: bearer,
        parameters: [
          appQuery,
          ...customerListParams(['status', 'flagged', 'store', 'environment', 'product', 'sort', 'q']),
          limitParam(200, 50),
          queryParam('cursor', 'nextCursor of the previous page (of the same sort)'),
        ],
        responses: {
          200: json('A page of customers', ref('CustomerPage')),
          400: problemRef('Bad filter, limit or cursor; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
        },
      },
    },
    '/v1/billing/customers/{id}': {
      get: {
        summary: 'One customer',
        description: 'Any alias resolves to the merged customer.',
        tags,
        security: bearer,
        parameters: [pathParam('id', 'Any app user id or alias'), appQuery],
        responses: {
          200: json('The customer, and what it paid, since when, from where', ref('CustomerDetail')),
          400: problemRef('app is not a single slug; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
          404: problemRef('Unknown app or customer'),
        },
      },
    },
    '/v1/billing/dead-letters': {
      get: {
        summary: 'Billing work parked after failing for good, newest first',
        description:
          'A redelivery whose body conflicts with the first under its id, an event Temporal refused, an event the reducer could not apply, an effect that kept failing.',
        tags,
        security: bearer,
        parameters: [
          appQuery,
          queryParam('status', 'parked (default) | retried | discarded | all', {
            enum: ['parked', 'retried', 'discarded', 'all'],
            default: 'parked',
          }),
          limitParam(200, 50),
          cursorParam,
        ],
        responses: {
          200: json('A page of dead letters', ref('DeadLetterPage')),
          400: problemRef('Bad filter, limit or cursor; no app parameter and not an admin (missing_app)'),
          ...scopeErrors,
        },
      },
    },
    '/v1/billing/dead-letters/{id}/retry': {
      post: {
        summary: 'Retry a dead letter (admin)',
        description: 'Hands it back to its subscriber workflow: the event again, or the effect to carry out again.',
        tags,
        security: bearer,
        parameters: [pathParam('id', 'The dead letter id (dl_…)')],
        responses: {
          202: json('Handed back; status is now retried (failing again parks it again)', ref('DeadLetter')),
          ...authErrors,
          404: problemRef('Unknown dead letter'),
          409: problemRef('Already retried (dead_letter_not_parked)'),
          422: problemRef(
            'Refused (retry_refused): Temporal refused it again, or it is an intake conflict, which is never applied; it stays parked',
          ),
          503: problemRef('Temporal unreachable; nothing was done'),
        },
      },
    },
    '/v1/billing/dead-letters/{id}/discard': {
      post: {
        summary: 'Discard a dead letter, with a reason (admin)',
        description:
          'Puts a parked record aside for good (an intake conflict once looked at, a failure no retry can help): it leaves the parked list and the billing_dead_letters_parked gauge, and keeps the reason and who gave it.',
        tags,
        security: bearer,
        parameters: [pathParam('id', 'The dead letter id (dl_…)')],
        requestBody: jsonBody(DISCARD_SCHEMA),
        responses: {
          200: json('Discarded', ref('DeadLetter')),
          400: problemRef('No reason, or more than 500 characters'),
          ...authErrors,
          404: problemRef('Unknown dead letter'),
          409: problemRef('Not parked (dead_letter_not_parked): retried or discarded already'),
          ...bodyErrors,
        },
      },
    },
  },
};
