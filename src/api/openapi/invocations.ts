import { SKILLS } from '../../skills/catalog';
import { INVOCATION_STATUSES } from '../../skills/invocation-status';
import {
  authErrors,
  bearer,
  bodyErrors,
  count,
  cursorParam,
  dateTime,
  headers,
  json,
  jsonBody,
  limitParam,
  nextCursor,
  nullable,
  nullableDateTime,
  nullableString,
  pathParam,
  problemRef,
  queryParam,
  tooMany,
  record,
  ref,
  type OpenApiPart,
  withOptional,
} from './common';
import { resultSchemas } from './result';
import { SKILL_INPUT_REFS } from './skills';

const tags = ['skills'];
const status = { enum: [...INVOCATION_STATUSES] };
const skillName = { enum: SKILLS.map((s) => s.name) };
const project = pathParam('project', 'Project id');
const id = pathParam('id', 'Invocation id');

export const invocationPart: OpenApiPart = {
  schemas: {
    ...resultSchemas,
    /** src/api/resources/invocation-resource.ts presentInvocation: the polling, waiting, cancelling and streaming answers alike. */
    Invocation: withOptional(
      record({
        id: { type: 'string' },
        project: { type: 'string' },
        skill: skillName,
        inputs: { type: 'object', additionalProperties: true, description: 'The inputs as sent (the SkillInput_* component of the skill)' },
        status,
        progress: record({ step: status, completedSteps: count, totalSteps: count }),
        createdAt: dateTime,
        updatedAt: dateTime,
        completedAt: nullableDateTime,
        result: { ...nullable(ref('SkillResult')), description: 'Set once completed' },
        error: { ...nullable(record({ code: { type: 'string' }, message: { type: 'string' } })), description: 'Set when failed' },
        workflowId: { type: 'string', description: 'The Temporal workflow id, skill/{project}/{id}' },
        requestedBy: { type: 'string', description: 'The `sub` of the token that invoked it' },
        generator: { ...nullableString, description: 'result.generator, null until completed' },
        durationMs: { type: ['integer', 'null'], minimum: 0, description: 'From creation to completion; null until finished' },
        revision: {
          ...nullable(record({ number: { type: 'integer', minimum: 1 }, final: { type: 'boolean' } })),
          description:
            "Which version of the result this is (null until completed). With a model configured, version 1 is the deterministic draft (`final: false`, answered at once) and the model's rewrite replaces it as version 2 (`final: true`); the event stream, MCP progress and A2A status show the new version",
        },
        links: record({ self: { type: 'string' }, cancel: { type: 'string' } }),
      }),
      {
        workflowUrl: {
          ...nullableString,
          description:
            'In the list and the read: the workflow in the Temporal UI, for administrators (null for others, or when TEMPORAL_UI_URL is unset)',
        },
      },
    ),
    InvocationAccepted: record({
      id: { type: 'string' },
      project: { type: 'string' },
      skill: skillName,
      status,
      createdAt: dateTime,
      links: record({ self: { type: 'string', description: 'Poll this (also in Location)' } }),
    }),
    InvocationPage: record({ invocations: { type: 'array', items: ref('Invocation') }, nextCursor }),
  },
  paths: {
    '/v1/agents/{project}/skills/{skill}': {
      post: {
        summary: 'Invoke a skill',
        description:
          'Starts a durable workflow; poll the Location, or follow …/events. With `Prefer: wait=N` the answer waits up to N s for the invocation to finish.',
        tags,
        security: bearer,
        parameters: [
          project,
          pathParam('skill', 'Skill name', skillName),
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            schema: { type: 'string', maxLength: 255 },
            description: 'Same key + same body within 24 h → the same invocation',
          },
          {
            name: 'Prefer',
            in: 'header',
            required: false,
            schema: { type: 'string', examples: ['wait=10'] },
            description: 'wait=N (N ≤ 60): hold the answer until the invocation finishes (answered as soon as it does)',
          },
        ],
        requestBody: jsonBody({ oneOf: SKILL_INPUT_REFS }),
        responses: {
          200: json('Finished within Prefer: wait (the whole invocation); Preference-Applied: wait=N', ref('Invocation'), {
            ...headers.location,
            'Preference-Applied': { description: 'wait=N', schema: { type: 'string' } },
            ...headers.rateLimit,
          }),
          202: json('Accepted; Location names the invocation', ref('InvocationAccepted'), { ...headers.location, ...headers.rateLimit }),
          400: {
            ...problemRef('Inputs do not match the skill schema (errors[] has JSON pointers), or a bad Idempotency-Key'),
            headers: headers.rateLimit,
          },
          ...authErrors,
          402: { ...problemRef('The project is not entitled to this skill'), headers: headers.rateLimit },
          404: problemRef('Unknown project or skill'),
          409: problemRef(
            'Idempotency-Key reused with a different body (idempotency_key_reused), or held by a request still in progress (idempotency_key_busy)',
          ),
          ...bodyErrors,
          422: { ...problemRef('Valid shape but impossible for this project'), headers: headers.rateLimit },
          429: {
            ...problemRef(
              'Rate limited (rate_limited): SKILL_INVOCATIONS_PER_MINUTE per caller and project in any minute (a sliding window), MCP tool calls and A2A tasks included; Retry-After says when one more fits',
            ),
            headers: { ...headers.retryAfter, ...headers.rateLimit },
          },
          503: problemRef(
            'Temporal unreachable (temporal_unavailable, with Retry-After). Either nothing was started, or the start could not be confirmed: then the invocation is kept (Location names it), and a retry with the same Idempotency-Key resumes it without a second run',
          ),
        },
      },
    },
    '/v1/agents/{project}/invocations': {
      get: {
        summary: 'Invocations, newest first',
        tags,
        security: bearer,
        parameters: [
          project,
          queryParam('skill', 'Filter by skill', skillName),
          queryParam('status', 'Filter by status', status),
          limitParam(100, 20),
          cursorParam,
        ],
        responses: {
          200: json('A page of invocations', ref('InvocationPage')),
          400: problemRef('Bad filter, limit or cursor'),
          ...authErrors,
          404: problemRef('Unknown project'),
        },
      },
    },
    '/v1/agents/{project}/invocations/{id}': {
      get: {
        summary: 'One invocation',
        description: 'Status, progress, and once completed the result with its citations.',
        tags,
        security: bearer,
        parameters: [project, id],
        responses: { 200: json('The invocation', ref('Invocation')), ...authErrors, 404: problemRef('Unknown project or invocation') },
      },
    },
    '/v1/agents/{project}/invocations/{id}/events': {
      get: {
        summary: 'The invocation as Server-Sent Events',
        description:
          '`status` events (status, progress and updatedAt: the current state first, then each change), one `result` event with the whole invocation (the Invocation schema) when it is terminal and one more for each later version of its result (with a model: the deterministic draft first, then the model’s rewrite; `revision` says which), then the stream ends. Event ids are the record version (the id of a `result` event ends in `:result`): reconnect with Last-Event-ID to get only what changed; a reconnect after the final `result` event answers 204, which tells an EventSource to stop reconnecting. A stream lasts at most 5 minutes.',
        tags,
        security: bearer,
        parameters: [
          project,
          id,
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description: 'The id of the last event received',
          },
        ],
        responses: {
          200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          204: { description: 'Last-Event-ID is the result event of a finished invocation: nothing more will come' },
          ...authErrors,
          404: problemRef('Unknown project or invocation'),
          429: tooMany('The caller has EVENT_STREAMS_PER_CALLER streams open already (too_many_streams); close one, or poll'),
          503: problemRef('Too many streams open in this process (too_many_streams); poll instead'),
        },
      },
    },
    '/v1/agents/{project}/invocations/{id}/cancel': {
      post: {
        summary: 'Cancel a running invocation',
        tags,
        security: bearer,
        parameters: [project, id],
        responses: {
          202: json('Cancellation accepted; status is cancelled', ref('Invocation')),
          400: problemRef('A request body that is not JSON (none is needed)'),
          ...authErrors,
          ...bodyErrors,
          404: problemRef('Unknown project or invocation'),
          409: problemRef('The invocation already finished'),
          503: problemRef('Temporal unreachable'),
        },
      },
    },
  },
};
