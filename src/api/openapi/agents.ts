import { authErrors, bearer, bodyErrors, json, pathParam, problemRef, ref, tooMany, type OpenApiPart, type Schema } from './common';

/**
 * The agent protocols over a project's skills: MCP (Streamable HTTP) and A2A (0.3, JSON-RPC). Their message
 * shapes belong to those specifications, so objects stay open here (additionalProperties: true) and only the
 * members this service always sets are listed.
 */
const tags = ['agents'];
const project = pathParam('project', 'Project id');
const sessionHeader = {
  name: 'Mcp-Session-Id',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'The session the initialize answer named (absent on initialize)',
};
const rpcMessage: Schema = {
  type: 'object',
  additionalProperties: true,
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' } },
  description: 'A JSON-RPC 2.0 message',
};
const rpcError = (description: string) => json(description, ref('JsonRpcResponse'));
/** The MCP endpoint checks Origin and Host first (DNS rebinding; src/api/mcp/origin-guard.ts). */
const originRefused = problemRef(
  'A 403 for the token or project; or, before anything else, an Origin (forbidden_origin) or Host (forbidden_host) that is not this service’s (MCP_ALLOWED_ORIGINS, MCP_ALLOWED_HOSTS)',
);
const streamRefused = tooMany(
  'The caller has EVENT_STREAMS_PER_CALLER streams open already (too_many_streams): event streams and MCP GET streams together',
);

export const agentPart: OpenApiPart = {
  schemas: {
    JsonRpcResponse: {
      type: 'object',
      additionalProperties: true,
      required: ['jsonrpc', 'id'],
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'number', 'null'] },
        result: { description: "The method's result (an A2A Task, Message or event)" },
        error: {
          type: 'object',
          required: ['code', 'message'],
          additionalProperties: true,
          properties: { code: { type: 'integer' }, message: { type: 'string' } },
        },
      },
    },
    AgentCard: {
      type: 'object',
      additionalProperties: true,
      description: 'An A2A 0.3 agent card (https://a2a-protocol.org): one skill per skill of the catalog',
      required: ['protocolVersion', 'name', 'description', 'url', 'version', 'capabilities', 'skills'],
      properties: {
        protocolVersion: { type: 'string' },
        name: { type: 'string' },
        description: { type: 'string' },
        url: { type: 'string', format: 'uri', description: 'The JSON-RPC endpoint (…/a2a)' },
        version: { type: 'string' },
        capabilities: { type: 'object', additionalProperties: true },
        skills: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: true,
            required: ['id', 'name', 'description'],
            properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } },
          },
        },
      },
    },
  },
  paths: {
    '/v1/agents/{project}/mcp': {
      post: {
        summary: 'MCP over Streamable HTTP',
        description:
          'The project skills as MCP tools (see README). Bearer token and project access as everywhere; a session (Mcp-Session-Id) is bound to its project and caller. POST carries JSON-RPC requests (initialize first); answers JSON or an event stream (progress notifications). Send `Accept: application/json, text/event-stream`.',
        tags,
        security: bearer,
        parameters: [project, sessionHeader],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { ...rpcMessage, description: 'A JSON-RPC 2.0 message of the Model Context Protocol' } },
          },
        },
        responses: {
          200: {
            description: 'JSON-RPC response, or an event stream of JSON-RPC messages; an initialize answer carries Mcp-Session-Id',
            headers: { 'Mcp-Session-Id': { description: 'The new session (initialize only)', schema: { type: 'string' } } },
            content: { 'application/json': { schema: ref('JsonRpcResponse') }, 'text/event-stream': { schema: { type: 'string' } } },
          },
          202: { description: 'A notification or response was accepted' },
          400: problemRef('No session and not an initialize request (mcp_session_required), or malformed JSON'),
          ...authErrors,
          403: originRefused,
          404: problemRef('Unknown project, or no such session for this project and caller (unknown_mcp_session)'),
          406: rpcError(
            'The Accept header does not allow both application/json and text/event-stream (a JSON-RPC error from the transport)',
          ),
          ...bodyErrors,
          429: tooMany(
            'An initialize from a caller that holds MCP_SESSIONS_PER_CALLER sessions, each with a request in flight (too_many_mcp_sessions); an idle one of its own is closed instead when there is one',
          ),
          503: problemRef('This process holds MCP_SESSIONS_MAX sessions of other callers (mcp_sessions_exhausted); retry'),
        },
      },
      get: {
        summary: "The MCP session's event stream",
        description: "The session's server-to-client event stream (MCP Streamable HTTP).",
        tags,
        security: bearer,
        parameters: [project, sessionHeader],
        responses: {
          200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          400: problemRef('No Mcp-Session-Id'),
          ...authErrors,
          403: originRefused,
          404: problemRef('Unknown project or session'),
          406: rpcError('The Accept header does not allow text/event-stream'),
          409: rpcError('The session already has a stream open'),
          429: streamRefused,
          503: problemRef('Too many streams open in this process (too_many_streams)'),
        },
      },
      delete: {
        summary: 'End the MCP session',
        tags,
        security: bearer,
        parameters: [project, sessionHeader],
        responses: {
          200: { description: 'Session ended; the invocations of its calls still running are cancelled' },
          400: problemRef('No Mcp-Session-Id'),
          ...authErrors,
          403: originRefused,
          404: problemRef('Unknown project or session'),
        },
      },
    },
    '/v1/agents/{project}/.well-known/agent-card.json': {
      get: {
        summary: "The project's A2A agent card",
        description: 'A2A protocol 0.3: one skill per skill, the JSON-RPC endpoint, Bearer security.',
        tags,
        security: bearer,
        parameters: [project],
        responses: { 200: json('The agent card', ref('AgentCard')), ...authErrors, 404: problemRef('Unknown project') },
      },
    },
    '/v1/agents/{project}/a2a': {
      post: {
        summary: 'A2A JSON-RPC',
        description:
          'A2A 0.3: message/send, message/stream (text/event-stream), tasks/get, tasks/cancel, tasks/resubscribe. A task is an invocation (same id). Errors are JSON-RPC errors with 200 (an id that is not a string, a number or null: -32600 with id null); a request without an id is a notification, done and answered 204. Authentication and project access are problem+json.',
        tags,
        security: bearer,
        parameters: [project],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { ...rpcMessage, description: 'A JSON-RPC 2.0 request' } } },
        },
        responses: {
          200: {
            description: 'A JSON-RPC response, or for the streaming methods an event stream of JSON-RPC responses',
            content: { 'application/json': { schema: ref('JsonRpcResponse') }, 'text/event-stream': { schema: { type: 'string' } } },
          },
          204: { description: 'A notification (no id): done, and nothing is answered' },
          ...authErrors,
          404: problemRef('Unknown project'),
          ...bodyErrors,
          429: streamRefused,
          503: problemRef('A streaming method while too many streams are open in this process (too_many_streams)'),
        },
      },
    },
  },
};
