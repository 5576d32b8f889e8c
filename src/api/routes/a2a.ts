import Router from '@koa/router';
import type { Context } from 'koa';
import { isSettled } from '../../invocations/follow';
import { InvocationRefused } from '../../invocations/invoke';
import { describeRefusal } from '../../invocations/refusal-text';
import { isTerminal } from '../../invocations/wait';
import { findSkill, SKILLS } from '../../skills/catalog';
import type { InvocationRecord } from '../../store/invocations';
import type { ProjectRecord } from '../../store/projects';
import {
  A2A_ERRORS,
  howToCall,
  projectCardFacts,
  publicCardFacts,
  refusedTask,
  requestedSkill,
  taskOf,
  type A2aMessage,
  type A2aTask,
} from '../agents/a2a/protocol';
import { blocking, card, messageOf, operationOf, rendering, requestedVersion, versionNaming, type A2aVersion } from '../agents/a2a/wire';
import { readEnvelope, type JsonRpcId } from '../agents/a2a/json-rpc';
import { a2aIdempotencyKey } from '../agents/agent-idempotency';
import { canUseProject } from '../access/auth';
import type { AppDeps } from '../deps';
import { API_BODY_LIMIT } from '../http/limits';
import { authenticate, principalOf } from '../access/authenticate';
import { readJsonBody } from '../middleware/json-body';
import { answerWithEventStream } from '../http/event-stream';
import { HttpProblem } from '../http/problem';
import { API_VERSION } from '../http/api-version';
import { projectForCaller } from '../access/project-access';

/** How long a blocking send (0.3 `configuration.blocking`; 1.0 unless `returnImmediately`) holds the answer for a terminal task. */
const BLOCKING_WAIT_SECONDS = 60;
/** A stream ends after this long even if the task has not (the client resubscribes). */
const MAX_STREAM_MS = 5 * 60_000;
/** Cards change with a deployment only. */
const CARD_MAX_AGE_SECONDS = 300;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The A2A version a request asks for: the `A2A-Version` header, else the query parameter of that name (A2A 1.0 §3.6.1). */
const versionAsked = (ctx: Context): string =>
  ctx.get('A2A-Version') || (typeof ctx.query['A2A-Version'] === 'string' ? ctx.query['A2A-Version'] : '');

/**
 * The projects' skills as A2A agents, JSON-RPC binding, protocol 1.0 and 0.3 on the same URLs (the version a
 * request asks for with `A2A-Version`; none is 0.3):
 * - `/.well-known/agent-card.json`, without a token: the host's public card (the skills, no tenant's data), whose
 *   endpoint `/a2a` serves the project the request's `tenant` (1.0) or the token's only project names;
 * - `/v1/agents/{project}/.well-known/agent-card.json` and `/v1/agents/{project}/a2a`: a project's own card and
 *   endpoint, with the token's project rules; the authenticated extended card is the project's card.
 * A task is an invocation (same id, same record and durable workflow, through the invocation service).
 */
export function a2aRoutes(deps: AppDeps): Router {
  const { projects } = deps.repos;
  const service = deps.invocations;
  const router = new Router();
  const auth = authenticate(deps.config.jwt);
  const base = deps.config.http.publicBaseUrl;
  const endpoint = (project: string) => `${base}/v1/agents/${encodeURIComponent(project)}/a2a`;
  const projectCard = (version: A2aVersion, project: ProjectRecord) =>
    card(version, projectCardFacts(project, SKILLS, endpoint(project._id), API_VERSION));

  router.get('/.well-known/agent-card.json', (ctx) => {
    answerCard(ctx, 'public', card(cardVersion(ctx), publicCardFacts(SKILLS, `${base}/a2a`, API_VERSION)));
  });

  router.get('/v1/agents/:project/.well-known/agent-card.json', auth, async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    answerCard(ctx, 'private', projectCard(cardVersion(ctx), project));
  });

  router.post('/v1/agents/:project/a2a', auth, async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    await rpc(ctx, async (params) => {
      const tenant = tenantOf(params);
      if (tenant !== undefined && tenant !== project._id)
        throw new RpcError(A2A_ERRORS.invalidParams, `This endpoint serves project ${project._id}; params.tenant names another`);
      return project;
    });
  });

  router.post('/a2a', auth, async (ctx) => {
    await rpc(ctx, async (params) => {
      const named = tenantOf(params) ?? onlyProject(ctx);
      if (!named)
        throw new RpcError(
          A2A_ERRORS.invalidParams,
          "Name the project: your token's projects claim does not name exactly one, so set params.tenant (A2A 1.0) or use the project's own agent, /v1/agents/{project}/a2a",
        );
      return projectForCaller(ctx, projects, named);
    });
  });

  return router;

  /** One JSON-RPC request: its envelope, its version, its project, then its method. */
  async function rpc(ctx: Context, projectOf: (params: Record<string, unknown>) => Promise<ProjectRecord>): Promise<void> {
    let body: unknown;
    try {
      body = await readJsonBody(ctx, API_BODY_LIMIT);
    } catch (err) {
      if (err instanceof HttpProblem && err.status === 400)
        return reply(ctx, '0.3', null, { error: new RpcError(A2A_ERRORS.parse, err.detail) });
      throw err;
    }
    const asked = versionAsked(ctx);
    const version = requestedVersion(asked);
    const request = readEnvelope(body);
    if (request.kind === 'invalid')
      return reply(ctx, version ?? '1.0', request.id, { error: new RpcError(A2A_ERRORS.invalidRequest, request.message) });
    const id = request.kind === 'request' ? request.id : null;
    if (!version) {
      if (request.kind === 'notification') return void (ctx.status = 204);
      return reply(ctx, '1.0', id, {
        error: new RpcError(
          A2A_ERRORS.versionNotSupported,
          `A2A-Version ${asked.slice(0, 20)} is not supported: this agent speaks 1.0 (A2A-Version: 1.0) and 0.3 (no A2A-Version)`,
        ),
      });
    }
    const { params } = request;
    try {
      const project = await projectOf(params);
      if (request.kind === 'notification') {
        await notified(project, principalOf(ctx).sub, version, request.method, params);
        ctx.status = 204;
        return;
      }
      await dispatch(ctx, version, request.id, request.method, project, params);
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      if (request.kind === 'notification') return void (ctx.status = 204);
      return reply(ctx, version, id, { error: err });
    }
  }

  async function dispatch(
    ctx: Context,
    version: A2aVersion,
    id: JsonRpcId,
    method: string,
    project: ProjectRecord,
    params: Record<string, unknown>,
  ): Promise<void> {
    const render = rendering(version);
    const caller = principalOf(ctx).sub;
    switch (operationOf(version, method)) {
      case 'send': {
        const sent = await send(project, caller, version, params);
        if ('refused' in sent) return reply(ctx, version, id, { result: render.sent(sent.refused) });
        const current = blocking(version, params) ? await service.wait(sent.record, BLOCKING_WAIT_SECONDS) : sent.record;
        return reply(ctx, version, id, { result: render.sent(taskOf(current)) });
      }
      case 'stream': {
        const sent = await send(project, caller, version, params);
        return 'refused' in sent ? streamRefused(ctx, version, id, sent.refused) : stream(ctx, version, id, sent.record);
      }
      case 'subscribe': {
        const record = await task(project, params);
        // 1.0 §3.1.6: a task at its end has nothing more to stream (a draft whose rewrite follows has); 0.3 clients
        // get its last state.
        if (version === '1.0' && isSettled(record))
          throw new RpcError(A2A_ERRORS.unsupportedOperation, `Task ${record._id} is ${record.status}: read it with GetTask`);
        return stream(ctx, version, id, record);
      }
      case 'get':
        return reply(ctx, version, id, { result: render.task(taskOf(await task(project, params))) });
      case 'cancel':
        return reply(ctx, version, id, { result: render.task(taskOf(await cancel(project, params))) });
      case 'extendedCard':
        return reply(ctx, version, id, { result: projectCard(version, project) });
      case 'list':
        throw new RpcError(
          A2A_ERRORS.unsupportedOperation,
          `ListTasks is not offered; the project's invocations (its tasks) are listed by GET /v1/agents/${project._id}/invocations`,
        );
      case 'push':
        throw new RpcError(A2A_ERRORS.pushNotSupported, 'Push notifications are not supported; stream with the streaming methods instead');
      default: {
        const other = versionNaming(method);
        throw new RpcError(
          A2A_ERRORS.methodNotFound,
          other
            ? `${method} is an A2A ${other} method: ${other === '1.0' ? 'send the header A2A-Version: 1.0' : 'send no A2A-Version header (0.3)'}`
            : `Unknown method ${method.slice(0, 100)}`,
        );
      }
    }
  }

  /**
   * A request without an id (JSON-RPC 2.0 §4.1): done for its effect, never answered. Starting and cancelling
   * tasks are the effects; an error is not reported either.
   */
  async function notified(project: ProjectRecord, caller: string, version: A2aVersion, method: string, params: Record<string, unknown>) {
    const operation = operationOf(version, method);
    if (operation === 'send' || operation === 'stream') await send(project, caller, version, params);
    else if (operation === 'cancel') await cancel(project, params);
  }

  async function cancel(project: ProjectRecord, params: Record<string, unknown>): Promise<InvocationRecord> {
    const record = await task(project, params);
    const outcome = await service.cancel(project._id, record._id);
    if (outcome.kind === 'finished') throw new RpcError(A2A_ERRORS.taskNotCancelable, `Task ${record._id} is already ${outcome.status}`);
    if (outcome.kind === 'not_found') throw new RpcError(A2A_ERRORS.taskNotFound, `No task ${record._id}`);
    return outcome.record;
  }

  /**
   * A send: the message names a skill and its inputs (a data part, or a text part holding that JSON); its
   * messageId keys the invocation. Other text is answered with a failed task saying how to call.
   */
  async function send(
    project: ProjectRecord,
    caller: string,
    version: A2aVersion,
    params: Record<string, unknown>,
  ): Promise<{ record: InvocationRecord } | { refused: A2aTask }> {
    const message = messageOf(version, params) as A2aMessage | undefined;
    if (!message || typeof message !== 'object' || typeof message.messageId !== 'string' || !Array.isArray(message.parts)) {
      throw new RpcError(A2A_ERRORS.invalidParams, 'params.message with a messageId and parts is required');
    }
    if (message.taskId)
      throw new RpcError(A2A_ERRORS.unsupportedOperation, 'A task takes no further messages: send a new message for a new task');
    const asked = requestedSkill(message);
    if (asked.kind === 'text') return { refused: refusedTask(message.messageId, howToCall(SKILLS), new Date()) };
    if (asked.kind === 'none')
      throw new RpcError(
        A2A_ERRORS.invalidParams,
        'Send a data part {"skill": "<skill id>", "inputs": {…}}, or a text part holding that JSON; the agent card lists the skills',
      );
    const skill = findSkill(asked.skill);
    if (!skill) throw new RpcError(A2A_ERRORS.invalidParams, `No skill "${asked.skill.slice(0, 100)}"; the agent card lists them`);
    try {
      // A message sent again (same messageId) is the same task.
      const invoked = await service.invoke({
        caller,
        project,
        skill,
        inputs: asked.inputs,
        idempotencyKey: a2aIdempotencyKey(message.messageId),
      });
      return { record: invoked.record };
    } catch (err) {
      if (err instanceof InvocationRefused)
        throw new RpcError(A2A_ERRORS.invalidParams, describeRefusal(err.refusal, project._id, skill.name));
      throw err;
    }
  }

  async function task(project: ProjectRecord, params: Record<string, unknown>): Promise<InvocationRecord> {
    if (typeof params.id !== 'string') throw new RpcError(A2A_ERRORS.invalidParams, 'params.id (the task id) is required');
    const record = await service.get(project._id, params.id);
    if (!record) throw new RpcError(A2A_ERRORS.taskNotFound, `No task ${params.id.slice(0, 100)} in project ${project._id}`);
    return record;
  }

  /** Server-Sent Events, each a JSON-RPC response: the task, its status changes, the document, the final status. */
  function stream(ctx: Context, version: A2aVersion, id: JsonRpcId, start: InvocationRecord): void {
    const render = rendering(version);
    // The service's records carry their results: a completed one is its task's document.
    answerWithEventStream(ctx, service, principalOf(ctx).sub, 'A2A', async (write, signal) => {
      const event = (result: unknown) => write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
      event(render.taskEvent(taskOf(start)));
      let last: InvocationRecord | null = null;
      for await (const current of service.follow(start, { signal, until: Date.now() + MAX_STREAM_MS })) {
        const first = last === null;
        last = current;
        // The first state is the one the task event above carried; the settled one closes the stream below.
        if (first || isSettled(current)) continue;
        if (isTerminal(current)) {
          // A version of the document that a later one replaces (the draft before the model's rewrite).
          const draft = taskOf(current);
          for (const artifact of draft.artifacts) event(render.artifactEvent(draft, artifact));
          event(render.statusEvent(draft, false));
          continue;
        }
        event(render.statusEvent(taskOf(current), false));
      }
      if (last && isSettled(last)) {
        const finished = taskOf(last);
        for (const artifact of finished.artifacts) event(render.artifactEvent(finished, artifact));
        event(render.statusEvent(finished, true));
      }
    });
  }

  /** The stream of a refused message: the failed task, and the end. */
  function streamRefused(ctx: Context, version: A2aVersion, id: JsonRpcId, refused: A2aTask): void {
    answerWithEventStream(ctx, service, principalOf(ctx).sub, 'A2A', async (write) => {
      write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: rendering(version).taskEvent(refused) })}\n\n`);
    });
  }

  /** The token's one project, when its projects claim names exactly one (not the wildcard). */
  function onlyProject(ctx: Context): string | undefined {
    const { projects: granted } = principalOf(ctx);
    return granted.length === 1 && granted[0] !== '*' && canUseProject(principalOf(ctx), granted[0]!) ? granted[0] : undefined;
  }
}

/** A 1.0 request's `tenant` (the project), when it sets one. */
function tenantOf(params: Record<string, unknown>): string | undefined {
  return typeof params.tenant === 'string' && params.tenant !== '' ? params.tenant : undefined;
}

/** The card a GET asks for: 1.0 with `A2A-Version: 1.0`, else the 0.3 card that also lists the 1.0 interfaces. */
const cardVersion = (ctx: Context): A2aVersion => (requestedVersion(versionAsked(ctx)) === '1.0' ? '1.0' : '0.3');

function answerCard(ctx: Context, cache: 'public' | 'private', body: Record<string, unknown>): void {
  ctx.set('Cache-Control', `${cache}, max-age=${CARD_MAX_AGE_SECONDS}`);
  ctx.vary('A2A-Version');
  ctx.body = body;
}

function reply(ctx: Context, version: A2aVersion, id: JsonRpcId, answer: { result: unknown } | { error: RpcError }): void {
  ctx.status = 200;
  if ('result' in answer) {
    ctx.body = { jsonrpc: '2.0', id, result: answer.result };
    return;
  }
  const data = rendering(version).errorData(answer.error.code);
  ctx.body = { jsonrpc: '2.0', id, error: { code: answer.error.code, message: answer.error.message, ...(data ? { data } : {}) } };
}
