import { SKILLS } from '../../skills/catalog';
import { authErrors, bearer, json, jsonBody, pathParam, problemRef, queryParam, type Paths } from './common';

const invocationSchema = {
  type: 'object',
  required: ['id', 'project', 'skill', 'status', 'createdAt'],
  properties: {
    id: { type: 'string' },
    project: { type: 'string' },
    skill: { type: 'string' },
    inputs: { type: 'object' },
    status: { enum: ['queued', 'retrieving', 'drafting', 'completed', 'failed', 'cancelled'] },
    progress: { type: 'object', properties: { step: { type: 'string' }, completedSteps: { type: 'integer' }, totalSteps: { type: 'integer' } } },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    completedAt: { type: ['string', 'null'], format: 'date-time' },
    result: { type: ['object', 'null'] },
    error: { type: ['object', 'null'] },
  },
};

export const invocationPaths: Paths = {
  '/v1/agents/{project}/skills/{skill}': {
    post: {
      summary: 'Invoke a skill (starts a durable workflow; poll the Location)',
      tags: ['skills'],
      security: bearer,
      parameters: [
        pathParam('project', 'Project id'),
        { name: 'skill', in: 'path', required: true, schema: { enum: SKILLS.map((s) => s.name) } },
        { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Same key + same body within 24 h → the same invocation' },
        { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', example: 'wait=10' }, description: 'wait=N (N ≤ 60): hold the answer until the invocation finishes (answered as soon as it does)' },
      ],
      requestBody: jsonBody({ oneOf: SKILLS.map((s) => s.inputSchema) }),
      responses: {
        200: json('Finished within Prefer: wait (the whole invocation)', invocationSchema),
        202: json('Accepted; Location names the invocation', invocationSchema),
        400: problemRef('Inputs do not match the skill schema (errors[] has JSON pointers)'),
        ...authErrors,
        402: problemRef('The project is not entitled to this skill'),
        404: problemRef('Unknown project or skill'),
        409: problemRef('Idempotency-Key reused with a different body (idempotency_key_reused), or held by a request still in progress (idempotency_key_busy)'),
        413: problemRef('Body over 64 KiB'),
        415: problemRef('Body is not application/json'),
        422: problemRef('Valid shape but impossible for this project'),
        429: problemRef('Rate limited; see Retry-After'),
        503: problemRef('Temporal unreachable (temporal_unavailable, with Retry-After). Either nothing was started, or the start could not be confirmed: then the invocation is kept (Location names it), and a retry with the same Idempotency-Key resumes it without a second run'),
      },
    },
  },
  '/v1/agents/{project}/invocations': {
    get: {
      summary: 'Invocations, newest first',
      tags: ['skills'],
      security: bearer,
      parameters: [
        pathParam('project', 'Project id'),
        queryParam('skill', 'Filter by skill'),
        queryParam('status', 'Filter by status'),
        queryParam('limit', '1-100 (default 20)', { type: 'integer' }),
        queryParam('cursor', 'nextCursor of the previous page'),
      ],
      responses: { 200: json('A page of invocations'), 400: problemRef('Bad filter or cursor'), ...authErrors, 404: problemRef('Unknown project') },
    },
  },
  '/v1/agents/{project}/invocations/{id}': {
    get: {
      summary: 'One invocation: status, progress, result with citations',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id'), pathParam('id', 'Invocation id')],
      responses: { 200: json('The invocation', invocationSchema), ...authErrors, 404: problemRef('Unknown project or invocation') },
    },
  },
  '/v1/agents/{project}/invocations/{id}/events': {
    get: {
      summary:
        'The invocation as Server-Sent Events: `status` events (status and progress, the current state first, then each change), one `result` event with the whole invocation when it is terminal, then the stream ends. Event ids are the record version: reconnect with Last-Event-ID to get only what changed. A stream lasts at most 5 minutes.',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id'), pathParam('id', 'Invocation id'), { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'The id of the last event received' }],
      responses: {
        200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...authErrors,
        404: problemRef('Unknown project or invocation'),
        503: problemRef('Too many streams open (too_many_streams); poll instead'),
      },
    },
  },
  '/v1/agents/{project}/mcp': {
    post: {
      summary: 'MCP over Streamable HTTP (the project skills as tools; see README). Bearer token and project access as everywhere; a session (Mcp-Session-Id) is bound to its project and caller. POST carries JSON-RPC requests (initialize first); answers JSON or an event stream (progress notifications).',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol' } } } },
      responses: {
        200: { description: 'JSON-RPC response, or text/event-stream', content: { 'application/json': {}, 'text/event-stream': {} } },
        202: { description: 'A notification or response was accepted' },
        400: problemRef('No session and not an initialize request (mcp_session_required), or malformed JSON'),
        ...authErrors,
        404: problemRef('Unknown project, or no such session for this project and caller (unknown_mcp_session)'),
      },
    },
    get: {
      summary: 'The session\'s server-to-client event stream (MCP Streamable HTTP)',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      responses: { 200: { description: 'text/event-stream', content: { 'text/event-stream': {} } }, 400: problemRef('No Mcp-Session-Id'), ...authErrors, 404: problemRef('Unknown project or session') },
    },
    delete: {
      summary: 'Ends the MCP session',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      responses: { 200: { description: 'Session ended' }, 400: problemRef('No Mcp-Session-Id'), ...authErrors, 404: problemRef('Unknown project or session') },
    },
  },
  '/v1/agents/{project}/.well-known/agent-card.json': {
    get: {
      summary: "The project's A2A agent card (protocol 0.3): one skill per skill, the JSON-RPC endpoint, Bearer security",
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      responses: { 200: json('The agent card'), ...authErrors, 404: problemRef('Unknown project') },
    },
  },
  '/v1/agents/{project}/a2a': {
    post: {
      summary:
        'A2A JSON-RPC (0.3): message/send, message/stream (text/event-stream), tasks/get, tasks/cancel, tasks/resubscribe. A task is an invocation (same id). Errors are JSON-RPC errors with 200; authentication and project access are problem+json.',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id')],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request' } } } },
      responses: {
        200: { description: 'A JSON-RPC response, or for the streaming methods an event stream of JSON-RPC responses', content: { 'application/json': {}, 'text/event-stream': {} } },
        ...authErrors,
        404: problemRef('Unknown project'),
        413: problemRef('Body over the limit'),
        415: problemRef('Body is not application/json'),
        503: problemRef('A streaming method while too many streams are open (too_many_streams)'),
      },
    },
  },
  '/v1/agents/{project}/invocations/{id}/cancel': {
    post: {
      summary: 'Cancel a running invocation',
      tags: ['skills'],
      security: bearer,
      parameters: [pathParam('project', 'Project id'), pathParam('id', 'Invocation id')],
      responses: {
        202: json('Cancellation accepted; status is cancelled', invocationSchema),
        ...authErrors,
        404: problemRef('Unknown project or invocation'),
        409: problemRef('The invocation already finished'),
        503: problemRef('Temporal unreachable'),
      },
    },
  },
};
