import { count, json, nullable, open, problemRef, record, ref, type OpenApiPart } from './common';

const tags = ['operations'];

const consoleAsset = {
  200: {
    description: 'JavaScript or CSS',
    content: { 'application/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } },
  },
  404: problemRef('No such asset'),
};

export const healthPart: OpenApiPart = {
  schemas: {
    Liveness: record({ status: { const: 'ok' } }),
    Readiness: record({ status: { const: 'ready' }, checks: ref('ReadinessChecks'), backlog: ref('Backlog') }),
    QueueBacklog: record({
      tasks: { ...count, description: "Workflow tasks waiting (Temporal's approximate count)" },
      ageSeconds: { type: 'number', minimum: 0, description: 'How long the oldest of them has waited' },
    }),
    Backlog: record(
      {
        status: {
          enum: ['ok', 'lagging'],
          description: 'lagging: accepted events or queued tasks have waited over 30 s; nothing is lost, effects come late',
        },
        relay: record({
          events: { ...count, description: 'Accepted webhook events this instance has not yet handed to their workflows' },
          lagSeconds: { type: 'number', minimum: 0, description: 'How long the oldest of them has waited' },
        }),
        queues: {
          type: 'object',
          description: 'By role (billing, skills); null when Temporal did not report. Empty while Temporal is down.',
          additionalProperties: nullable(ref('QueueBacklog')),
        },
      },
      'How far behind the service runs. A backlog never makes /readyz answer 503: the API keeps accepting.',
    ),
  },
  paths: {
    '/healthz': {
      get: {
        summary: 'Liveness',
        description: 'Answers 200 while the process runs.',
        tags,
        security: open,
        responses: { 200: json('The process runs', ref('Liveness')) },
      },
    },
    '/readyz': {
      get: {
        summary: 'Readiness',
        description:
          'Whether MongoDB and Temporal both answer (each probed for at most 2 s), and how far behind the billing relay and the task queues run (`backlog`).',
        tags,
        security: open,
        responses: {
          200: json('Both dependencies answer', ref('Readiness')),
          503: problemRef('A dependency is down (not_ready); `checks` names it; Retry-After: 5'),
        },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics',
        description: 'Prometheus text format. With METRICS_TOKEN set, only for `Authorization: Bearer <METRICS_TOKEN>`; without it, open.',
        tags,
        security: [{}, { metricsToken: [] }],
        responses: {
          200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: problemRef('METRICS_TOKEN is set and the bearer value is missing or wrong'),
        },
      },
    },
    '/dashboard': {
      get: {
        summary: 'Operator console web page',
        description:
          'Scopes, trends, customers and their timelines, work lists, skill invocations; it reads /v1/* with the token from the URL fragment or pasted.',
        tags: ['console'],
        security: open,
        responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    '/dashboard/assets/{name}': {
      get: {
        summary: "The console's scripts and styles",
        description:
          "The console's entry module, shared modules and style, and the libraries it uses (uPlot, markdown-it), as built into dist/console/ (scripts/build-console.mjs).",
        tags: ['console'],
        security: open,
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' }, description: 'Asset file name' }],
        responses: consoleAsset,
      },
    },
    '/dashboard/assets/views/{name}': {
      get: {
        summary: "The console's view modules",
        description: 'One ES module per view of the console (trends, customers, customer, work lists, event log, skills, ...).',
        tags: ['console'],
        security: open,
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' }, description: 'Module file name' }],
        responses: consoleAsset,
      },
    },
    '/openapi.json': {
      get: {
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of every route, the outbound webhook payload under `webhooks`.',
        tags,
        security: open,
        responses: { 200: json('OpenAPI 3.1 document', { type: 'object', additionalProperties: true }) },
      },
    },
  },
};
