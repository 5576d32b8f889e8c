import Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../deps';
import { API_BODY_LIMIT } from '../limits';
import { skillToolsServer } from '../mcp/skill-tools';
import { API_VERSION } from '../openapi/document';
import { authenticate, principalOf } from '../middleware/authenticate';
import { readJsonBody } from '../middleware/json-body';
import { badRequest, notFound } from '../problem';
import { projectForCaller } from '../project-access';

/** MCP sessions held by one API process at once; the least recently used goes first past it. */
const MAX_SESSIONS = 200;
/** A session unused this long is closed (its client re-initializes). */
const IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  project: string;
  caller: string;
  lastUsed: number;
}

/**
 * `/v1/agents/{project}/mcp`: the project's skills as an MCP server over Streamable HTTP (the official SDK's
 * transport). Every request carries the same Bearer token as the rest of the API and is checked against the
 * project; a session is bound to its project and to the token's subject. Sessions live in this process (behind a
 * load balancer, route a session's requests to one instance, e.g. by the Mcp-Session-Id header).
 */
export function mcpRoutes(deps: AppDeps): Router {
  const router = new Router();
  const sessions = new Map<string, Session>();

  const sweep = (now: number) => {
    for (const s of sessions.values()) if (now - s.lastUsed > IDLE_MS) void s.transport.close();
    while (sessions.size >= MAX_SESSIONS) {
      const oldest = [...sessions.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0]!;
      void oldest.transport.close();
      sessions.delete(oldest.transport.sessionId!);
    }
  };

  const handle = async (ctx: Context) => {
    const project = await projectForCaller(ctx, deps.repos.projects, ctx.params.project!);
    const caller = principalOf(ctx).sub;
    const body = ctx.method === 'POST' ? await readJsonBody(ctx, API_BODY_LIMIT) : undefined;
    const sessionId = ctx.get('Mcp-Session-Id');
    const now = Date.now();
    let session: Session | undefined;
    if (sessionId) {
      session = sessions.get(sessionId);
      if (!session || session.project !== project._id || session.caller !== caller)
        throw notFound('unknown_mcp_session', 'No such MCP session for this project and caller; initialize a new one');
    } else {
      if (ctx.method !== 'POST' || !isInitializeRequest(body))
        throw badRequest(
          'mcp_session_required',
          'Send an initialize request first, then the Mcp-Session-Id it answers with on every request',
        );
      sweep(now);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      const created: Session = { transport, project: project._id, caller, lastUsed: now };
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await skillToolsServer(
        { service: deps.invocations, invocations: deps.repos.invocations, version: API_VERSION },
        project,
        caller,
      ).connect(transport);
      session = created;
    }
    session.lastUsed = now;
    // The transport answers on the raw response (JSON or an event stream); Koa stays out of it.
    ctx.respond = false;
    await session.transport.handleRequest(ctx.req, ctx.res, body);
    ctx.status = ctx.res.statusCode;
  };
  // POST carries requests, GET opens the server's event stream, DELETE ends the session.
  const path = '/v1/agents/:project/mcp';
  const auth = authenticate(deps.config.jwt);
  router.post(path, auth, handle);
  router.get(path, auth, handle);
  router.delete(path, auth, handle);

  return router;
}
