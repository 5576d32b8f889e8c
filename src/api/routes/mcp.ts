import Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../deps';
import { API_BODY_LIMIT } from '../http/limits';
import { mcpOriginGuard } from '../agents/mcp/origin-guard';
import type { McpSession } from '../agents/mcp/session-pool';
import { skillToolsServer } from '../agents/mcp/skill-tools';
import { API_VERSION } from '../http/api-version';
import { takeStream } from '../http/event-stream';
import { authenticate, principalOf } from '../access/authenticate';
import { readJsonBody } from '../middleware/json-body';
import { badRequest, notFound } from '../http/problem';
import { projectForCaller } from '../access/project-access';

/**
 * `/v1/agents/{project}/mcp`: the project's skills as an MCP server over Streamable HTTP (the official SDK's
 * transport). Every request carries the same Bearer token as the rest of the API and is checked against the
 * project; a session is bound to its project and to the token's subject, and counted in that caller's quota
 * (src/api/agents/mcp/session-pool.ts); a GET stream counts in the caller's share of streams. Sessions live in this
 * process (behind a load balancer, route a session's requests to one instance, e.g. by the Mcp-Session-Id header).
 */
export function mcpRoutes(deps: AppDeps): Router {
  const router = new Router();
  const pool = deps.mcpSessions;

  const handle = async (ctx: Context) => {
    const project = await projectForCaller(ctx, deps.repos.projects, ctx.params.project!);
    const caller = principalOf(ctx).sub;
    const body = ctx.method === 'POST' ? await readJsonBody(ctx, API_BODY_LIMIT) : undefined;
    const sessionId = ctx.get('Mcp-Session-Id');
    const post = ctx.method === 'POST';
    let session: McpSession;
    let connect: (() => Promise<void>) | null = null;
    if (sessionId) {
      const found = pool.find(sessionId, project._id, caller);
      if (!found) throw notFound('unknown_mcp_session', 'No such MCP session for this project and caller; initialize a new one');
      session = found;
    } else {
      if (!post || !isInitializeRequest(body))
        throw badRequest(
          'mcp_session_required',
          'Send an initialize request first, then the Mcp-Session-Id it answers with on every request',
        );
      const id = randomUUID();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
      const created = pool.admit(id, transport, project._id, caller);
      transport.onclose = () => pool.remove(id);
      session = created;
      const tools = { service: deps.invocations, version: API_VERSION };
      connect = () => skillToolsServer(tools, project, caller, { closedByServer: () => created.closedByServer }).connect(transport);
    }
    const open = session;
    const releaseStream = ctx.method === 'GET' ? takeStream(deps.invocations, caller) : null;
    // Busy from here on (a new session too, while it connects), until the answer ends or the client goes away.
    pool.begin(open, post);
    ctx.res.once('close', () => {
      pool.end(open, post);
      releaseStream?.();
      // An initialize the transport refused made no session.
      if (open.transport.sessionId === undefined) pool.remove(open.id);
    });
    await connect?.();
    // The transport answers on the raw response (JSON or an event stream); Koa stays out of it.
    ctx.respond = false;
    await open.transport.handleRequest(ctx.req, ctx.res, body);
    ctx.status = ctx.res.statusCode;
  };
  // POST carries requests, GET opens the server's event stream, DELETE ends the session.
  const path = '/v1/agents/:project/mcp';
  const guard = mcpOriginGuard(deps.config.agents);
  const auth = authenticate(deps.config.jwt);
  router.post(path, guard, auth, handle);
  router.get(path, guard, auth, handle);
  router.delete(path, guard, auth, handle);

  return router;
}
