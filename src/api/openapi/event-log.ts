import { EVENT_LOG_OUTCOMES, REFUSAL_REASONS } from '../../store/event-log';
import { EVENT_LOG_QUERY_SCHEMA } from '../routes/event-log';
import {
  authErrors,
  bearer,
  count,
  cursorParam,
  dateTime,
  json,
  limitParam,
  nextCursor,
  nullableString,
  pathParam,
  problemRef,
  queryParam,
  record,
  ref,
  type OpenApiPart,
  type Schema,
} from './common';
import { appQuery } from './billing';

const bucket: Schema = {
  type: 'string',
  pattern: '^(operator|unattributed|app:.+)$',
  description: '"app:{slug}", "operator", or "unattributed" (deliveries no app can be named for)',
};
const nullablePath: Schema = { ...nullableString, description: 'An API path; null when there is none' };
const errors = {
  ...authErrors,
  403: problemRef('The token does not grant the app; unattributed and not an admin'),
  404: problemRef('Unknown app'),
};

/** The query parameters, described by the schema the route validates them with. */
const params = (Object.keys(EVENT_LOG_QUERY_SCHEMA.properties) as (keyof typeof EVENT_LOG_QUERY_SCHEMA.properties)[])
  .filter((name) => name !== 'cursor')
  .map((name) => {
    const { description, ...schema } = EVENT_LOG_QUERY_SCHEMA.properties[name] as { description: string };
    return queryParam(name, description, schema);
  });

const entry = {
  id: { type: 'string', description: 'evl_… ' },
  bucket,
  at: { ...dateTime, description: 'When the delivery arrived (a counted refusal: the start of its minute)' },
  lastAt: { ...dateTime, description: 'The last delivery this entry stands for' },
  count: { ...count, minimum: 1, description: 'Deliveries this entry stands for: refusals before authorization are counted per minute' },
  outcome: { enum: EVENT_LOG_OUTCOMES },
  status: { type: 'integer', description: 'The status code the receiver answered' },
  reason: {
    ...nullableString,
    description: `Ignored: unknown_type, test_event, no_subscriber. Rejected: ${REFUSAL_REASONS.join(', ')}. For operators only: the caller's 401 is the same for every reason.`,
  },
  detail: { ...nullableString, description: "More about the reason (an invalid event's schema errors, a parse error)" },
  endpoint: { enum: ['app', 'operator'] },
  app: { ...nullableString, description: 'The app parameter as given' },
  eventId: nullableString,
  type: nullableString,
  subscriberId: { ...nullableString, description: 'The customer record the event was routed to' },
  workflowId: nullableString,
  workflowUrl: { ...nullableString, description: 'The workflow in the Temporal UI, when the API shows links to it' },
  deadLetterId: { ...nullableString, description: 'The intake dead letter a conflicting body was parked as' },
  bodyBytes: { type: ['integer', 'null'] },
  links: record({ customer: nullablePath, timelineEntry: nullablePath, self: { type: 'string' } }),
};

/** The event log (routes/event-log.ts). */
export const eventLogPart: OpenApiPart = {
  schemas: {
    EventLogEntry: record(entry),
    EventLogPage: record({ bucket, events: { type: 'array', items: ref('EventLogEntry') }, nextCursor }),
    EventLogEntryDetail: record({
      ...entry,
      body: {
        description:
          'What was delivered: an accepted, duplicate or ignored event from the webhook inbox (while the inbox keeps it), a conflicting body from its dead letter; null otherwise. Never a header: the Authorization value is not kept.',
      },
      bodySource: { enum: ['inbox', 'dead_letter', 'excerpt', 'expired', null], description: 'Where body (or bodyExcerpt) comes from' },
      bodyExcerpt: {
        ...nullableString,
        description: 'The first 4 KiB of an authorized body that was refused (invalid, unavailable store)',
      },
      timeline: {
        anyOf: [
          record({
            customerId: { type: 'string', description: 'The customer as it is now (through merges)' },
            entry: ref('TimelineEntry'),
          }),
          { type: 'null' },
        ],
        description: "The entry the event made on its customer's timeline, once applied",
      },
    }),
  },
  paths: {
    '/v1/billing/events': {
      get: {
        summary: 'The event log: every webhook delivery',
        description:
          "Every delivery to the scope's receiver, newest first: accepted, duplicate, ignored (with its reason), conflict, or rejected with a reason code. Filters combine; kept EVENT_LOG_RETENTION_DAYS and at most EVENT_LOG_MAX_PER_SCOPE entries per scope (EVENT_LOG_MAX_UNATTRIBUTED for unattributed). Written within a second of the answer.",
        tags: ['billing'],
        security: bearer,
        parameters: [appQuery, ...params, limitParam(200, 50), cursorParam],
        responses: {
          200: json('A page of deliveries', ref('EventLogPage')),
          400: problemRef('A bad filter, limit or cursor; no app parameter and not an admin (missing_app)'),
          ...errors,
        },
      },
    },
    '/v1/billing/events/{id}': {
      get: {
        summary: 'One delivery, with what was delivered',
        description: "The entry, its body (an accepted event's JSON from the inbox), and the entry it made on its customer's timeline.",
        tags: ['billing'],
        security: bearer,
        parameters: [pathParam('id', 'evl_…'), appQuery, params.find((p) => p.name === 'unattributed')!],
        responses: {
          200: json('The delivery', ref('EventLogEntryDetail')),
          400: problemRef('A repeated app parameter, or app with unattributed; no app parameter and not an admin (missing_app)'),
          ...errors,
          404: problemRef('Unknown app or entry'),
        },
      },
    },
  },
};
