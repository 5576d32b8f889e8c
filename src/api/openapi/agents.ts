import { authErrors, bearer, bodyErrors, json, pathParam, problemRef, ref, tooMany, type OpenApiPart, type Schema } from './common';

/**
 * The agent protocols over a project's skills: MCP (Streamable HTTP) and A2A (1.0 and 0.3, JSON-RPC). Their message
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
/** The MCP endpoint checks Origin and Host first (DNS rebinding; src/api/agents/mcp/origin-guard.ts). */
const originRefused = problemRef(
  'A 403 for the token or project; or, before anything else, an Origin (forbidden_origin) or Host (forbidden_host) that is not this service’s (MCP_ALLOWED_ORIGINS, MCP_ALLOWED_HOSTS)',
);
const streamRefused = tooMany(
  'The caller has EVENT_STREAMS_PER_CALLER streams open already (too_many_streams): event streams and MCP GET streams together',
);

const versionHeader = {
  name: 'A2A-Version',
  in: 'header',
  required: false,
  schema: { type: 'string', examples: ['1.0', '0.3'] },
  description: 'The A2A protocol version (Major.Minor): 1.0, or 0.3 when absent (A2A 1.0 §3.6)',
};
const a2aBody = {
  required: true,
  content: {
    // One named schema for both media types: generators name an inline body per operation, so two inline copies
    // would be two models of one name (openapi-python-client warns and drops one).
    'application/json': { schema: ref('JsonRpcRequest') },
    'application/a2a+json': { schema: ref('JsonRpcRequest') },
  },
};
const a2aResponses = {
  200: {
    description: 'A JSON-RPC response, or for the streaming methods an event stream of JSON-RPC responses',
    content: { 'application/json': { schema: ref('JsonRpcResponse') }, 'text/event-stream': { schema: { type: 'string' } } },
  },
  204: { description: 'A notification (no id): done, and nothing is answered' },
  ...authErrors,
  ...bodyErrors,
  429: streamRefused,
  503: problemRef('A streaming method while too many streams are open in this process (too_many_streams)'),
};

export const agentPart: OpenApiPart = {
  schemas: {
    JsonRpcRequest: { ...rpcMessage, description: 'A JSON-RPC 2.0 request' },
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
      description:
        'An A2A agent card (https://a2a-protocol.org): with `A2A-Version: 1.0` the 1.0 card (supportedInterfaces, one per version); without, the 0.3 card (protocolVersion, url) with the same supportedInterfaces beside it. One skill per skill of the catalog',
      required: ['name', 'description', 'version', 'capabilities', 'skills', 'supportedInterfaces'],
      properties: {
        protocolVersion: { type: 'string', description: '0.3 card only' },
        name: { type: 'string' },
        description: { type: 'string' },
        url: { type: 'string', format: 'uri', description: 'The JSON-RPC endpoint (0.3 card only)' },
        supportedInterfaces: {
          type: 'array',
          description: 'The JSON-RPC endpoint, once per protocol version (1.0 first, then 0.3)',
          items: {
            type: 'object',
            additionalProperties: true,
            required: ['url', 'protocolBinding', 'protocolVersion'],
            properties: {
              url: { type: 'string', format: 'uri' },
              protocolBinding: { type: 'string' },
              protocolVersion: { type: 'string' },
            },
          },
        },
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
          'The project skills as MCP tools (see docs/agents.md). Bearer token and project access as everywhere; a session (Mcp-Session-Id) is bound to its project and caller. POST carries JSON-RPC requests (initialize first); answers JSON or an event stream (progress notifications). Send `Accept: application/json, text/event-stream`.',
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
    '/.well-known/agent-card.json': {
      get: {
        summary: "The host's public A2A agent card",
        description:
          'Without a token: the skills and the endpoint /a2a, nothing of any project. `A2A-Version: 1.0` gets the 1.0 card; without it, the 0.3 card with the 1.0 interfaces beside it. The project’s own card is the authenticated extended card (GetExtendedAgentCard on /a2a).',
        tags,
        security: [],
        parameters: [versionHeader],
        responses: { 200: json('The public agent card', ref('AgentCard')) },
      },
    },
    '/a2a': {
      post: {
        summary: "A2A JSON-RPC at the host's public card",
        description:
          "As /v1/agents/{project}/a2a, for the project the request's `params.tenant` names (A2A 1.0), else the one project the token's projects claim names (-32602 when it names none or several). GetExtendedAgentCard (1.0) and agent/getAuthenticatedExtendedCard (0.3) answer that project's card.",
        tags,
        security: bearer,
        parameters: [versionHeader],
        requestBody: a2aBody,
        responses: {
          ...a2aResponses,
          403: problemRef('The token does not grant the project params.tenant names'),
          404: problemRef('Unknown project'),
        },
      },
    },
    '/v1/agents/{project}/.well-known/agent-card.json': {
      get: {
        summary: "The project's A2A agent card",
        description:
          'One skill per skill, the JSON-RPC endpoint (1.0 and 0.3), Bearer security; 1.0 with `A2A-Version: 1.0`, else 0.3 with the 1.0 interfaces beside it.',
        tags,
        security: bearer,
        parameters: [project, versionHeader],
        responses: { 200: json('The agent card', ref('AgentCard')), ...authErrors, 404: problemRef('Unknown project') },
      },
    },
    '/v1/agents/{project}/a2a': {
      post: {
        summary: 'A2A JSON-RPC',
        description:
          'A2A 1.0 (`A2A-Version: 1.0`): SendMessage (waits up to 60 s unless configuration.returnImmediately), SendStreamingMessage, GetTask, CancelTask, SubscribeToTask, GetExtendedAgentCard; errors carry google.rpc.ErrorInfo. A2A 0.3 (no A2A-Version): message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, agent/getAuthenticatedExtendedCard. Another version: -32009. A message is a data part {skill, inputs} or a text part holding that JSON; other text gets a failed task that names the skills and their input schemas. A task is an invocation (same id). Errors are JSON-RPC errors with 200 (an id that is not a string, a number or null: -32600 with id null); a request without an id is a notification, done and answered 204. Authentication and project access are problem+json.',
        tags,
        security: bearer,
        parameters: [project, versionHeader],
        requestBody: a2aBody,
        responses: { ...a2aResponses, 404: problemRef('Unknown project') },
      },
    },
  },
};
