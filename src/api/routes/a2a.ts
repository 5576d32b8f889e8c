import Router from '@koa/router';
import type { Context } from 'koa';
import { followInvocation } from '../../invocations/follow';
import { InvocationRefused } from '../../invocations/invoke';
import { describeRefusal } from '../../invocations/refusal-text';
import { isTerminal, waitForTerminal } from '../../invocations/wait';
import { findSkill, SKILLS } from '../../skills/catalog';
import type { InvocationRecord } from '../../store/invocations';
import type { ProjectRecord } from '../../store/projects';
import { A2A_ERRORS, agentCard, requestedSkill, taskOf, type A2aMessage } from '../a2a/protocol';
import { readEnvelope, type JsonRpcId } from '../a2a/json-rpc';
import { a2aIdempotencyKey } from '../agent-idempotency';
import type { AppDeps } from '../deps';
import { API_BODY_LIMIT } from '../limits';
import { authenticate, principalOf } from '../middleware/authenticate';
import { readJsonBody } from '../middleware/json-body';
import { answerWithEventStream } from '../event-stream';
import { HttpProblem } from '../problem';
import { API_VERSION } from '../openapi/document';
import { projectForCaller } from '../project-access';

/** How long `message/send` with `configuration.blocking` holds the answer for a terminal task. */
const BLOCKING_WAIT_SECONDS = 60;
/** A stream ends after this long even if the task has not (the client resubscribes). */
const MAX_STREAM_MS = 5 * 60_000;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A project's skills as an A2A agent (v0.3, JSON-RPC binding): the agent card at
 * `/v1/agents/{project}/.well-known/agent-card.json` and the JSON-RPC endpoint `/v1/agents/{project}/a2a` with
 * `message/send`, `message/stream`, `tasks/get`, `tasks/cancel` and `tasks/resubscribe`. A task is an invocation
 * (same id, same record and durable workflow, through the invocation service); the API's Bearer token and project
 * rules apply to both.
 */
export function a2aRoutes(deps: AppDeps): Router {
  const { projects, invocations } = deps.repos;
  const service = deps.invocations;
  const router = new Router();
  const auth = authenticate(deps.config.jwt);
  const endpoint = (project: string) => `${deps.config.http.publicBaseUrl}/v1/agents/${encodeURIComponent(project)}/a2a`;

  router.get('/v1/agents/:project/.well-known/agent-card.json', auth, async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    ctx.body = agentCard(project, SKILLS, endpoint(project._id), API_VERSION);
  });

  router.post('/v1/agents/:project/a2a', auth, async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    let body: unknown;
    try {
      body = await readJsonBody(ctx, API_BODY_LIMIT);
    } catch (err) {
      if (err instanceof HttpProblem && err.status === 400) return reply(ctx, null, { error: new RpcError(A2A_ERRORS.parse, err.detail) });
      throw err;
    }
    const request = readEnvelope(body);
    if (request.kind === 'invalid') return reply(ctx, request.id, { error: new RpcError(A2A_ERRORS.invalidRequest, request.message) });
    const { params } = request;
    if (request.kind === 'notification') {
      await notified(project, principalOf(ctx).sub, request.method, params);
      ctx.status = 204;
      return;
    }
    const { id } = request;
    try {
      switch (request.method) {
        case 'message/send': {
          const record = await send(project, principalOf(ctx).sub, params);
          const blocking = (params.configuration as { blocking?: unknown } | undefined)?.blocking === true;
          const current = blocking ? await waitForTerminal(deps.temporal.client, invocations, record, BLOCKING_WAIT_SECONDS) : record;
          return reply(ctx, id, { result: taskOf(await complete(current)) });
        }
        case 'message/stream':
          return stream(ctx, id, await send(project, principalOf(ctx).sub, params));
        case 'tasks/resubscribe':
          return stream(ctx, id, await task(project, params));
        case 'tasks/get':
          return reply(ctx, id, { result: taskOf(await complete(await task(project, params))) });
        case 'tasks/cancel':
          return reply(ctx, id, { result: taskOf(await cancel(project, params)) });
        case 'tasks/pushNotificationConfig/set':
        case 'tasks/pushNotificationConfig/get':
        case 'tasks/pushNotificationConfig/list':
        case 'tasks/pushNotificationConfig/delete':
          throw new RpcError(
            A2A_ERRORS.pushNotSupported,
            'Push notifications are not supported; stream with message/stream or tasks/resubscribe',
          );
        default:
          throw new RpcError(A2A_ERRORS.methodNotFound, `Unknown method ${request.method}`);
      }
    } catch (err) {
      if (err instanceof RpcError) return reply(ctx, id, { error: err });
      throw err;
    }
  });

  return router;

  /**
   * A request without an id (JSON-RPC 2.0 §4.1): done for its effect, never answered. Starting and cancelling
   * tasks are the effects; an error is not reported either.
   */
  async function notified(project: ProjectRecord, caller: string, method: string, params: Record<string, unknown>): Promise<void> {
    try {
      if (method === 'message/send' || method === 'message/stream') await send(project, caller, params);
      else if (method === 'tasks/cancel') await cancel(project, params);
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
    }
  }

  async function cancel(project: ProjectRecord, params: Record<string, unknown>): Promise<InvocationRecord> {
    const record = await task(project, params);
    const outcome = await service.cancel(project._id, record._id);
    if (outcome.kind === 'finished') throw new RpcError(A2A_ERRORS.taskNotCancelable, `Task ${record._id} is already ${outcome.status}`);
    if (outcome.kind === 'not_found') throw new RpcError(A2A_ERRORS.taskNotFound, `No task ${record._id}`);
    return outcome.record;
  }

  /** `message/send` and `message/stream`: the message names a skill and its inputs; its messageId keys the invocation. */
  async function send(project: ProjectRecord, caller: string, params: Record<string, unknown>): Promise<InvocationRecord> {
    const message = params.message as A2aMessage | undefined;
    if (!message || typeof message !== 'object' || typeof message.messageId !== 'string' || !Array.isArray(message.parts)) {
      throw new RpcError(A2A_ERRORS.invalidParams, 'params.message with a messageId and parts is required');
    }
    if (message.taskId)
      throw new RpcError(A2A_ERRORS.unsupportedOperation, 'A task takes no further messages: send a new message for a new task');
    const asked = requestedSkill(message);
    if (!asked)
      throw new RpcError(
        A2A_ERRORS.invalidParams,
        'Send a data part {"skill": "<skill id>", "inputs": {…}}; the agent card lists the skills',
      );
    const skill = findSkill(asked.skill);
    if (!skill) throw new RpcError(A2A_ERRORS.invalidParams, `No skill "${asked.skill}"; the agent card lists them`);
    try {
      // A message sent again (same messageId) is the same task.
      return (await service.invoke({ caller, project, skill, inputs: asked.inputs, idempotencyKey: a2aIdempotencyKey(message.messageId) }))
        .record;
    } catch (err) {
      if (err instanceof InvocationRefused)
        throw new RpcError(A2A_ERRORS.invalidParams, describeRefusal(err.refusal, project._id, skill.name));
      throw err;
    }
  }

  async function task(project: ProjectRecord, params: Record<string, unknown>): Promise<InvocationRecord> {
    if (typeof params.id !== 'string') throw new RpcError(A2A_ERRORS.invalidParams, 'params.id (the task id) is required');
    const record = await invocations.get(project._id, params.id);
    if (!record) throw new RpcError(A2A_ERRORS.taskNotFound, `No task ${params.id} in project ${project._id}`);
    return record;
  }

  /** A completed record with its result (stored beside it). */
  async function complete(record: InvocationRecord): Promise<InvocationRecord> {
    return record.status === 'completed' ? ((await invocations.getFinished(record.project, record._id)) ?? record) : record;
  }

  /** Server-Sent Events, each a JSON-RPC response: the task, its status changes, the document, the final status. */
  function stream(ctx: Context, id: JsonRpcId, start: InvocationRecord): void {
    answerWithEventStream(ctx, deps.streams, 'A2A', async (write, signal) => {
      const event = (result: unknown) => write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
      event(taskOf(await complete(start)));
      let last = start;
      for await (const current of followInvocation(invocations, start, { signal, until: Date.now() + MAX_STREAM_MS })) {
        last = current;
        // The first state is the one the task event above carried; the terminal one closes the stream below.
        if (current === start || isTerminal(current)) continue;
        event({ kind: 'status-update', taskId: current._id, contextId: current._id, status: taskOf(current).status, final: false });
      }
      if (isTerminal(last)) {
        const finished = taskOf(await complete(last));
        for (const artifact of finished.artifacts)
          event({ kind: 'artifact-update', taskId: last._id, contextId: last._id, artifact, lastChunk: true });
        event({ kind: 'status-update', taskId: last._id, contextId: last._id, status: finished.status, final: true });
      }
    });
  }
}

function reply(ctx: Context, id: JsonRpcId, answer: { result: unknown } | { error: RpcError }): void {
  ctx.status = 200;
  ctx.body =
    'result' in answer
      ? { jsonrpc: '2.0', id, result: answer.result }
      : { jsonrpc: '2.0', id, error: { code: answer.error.code, message: answer.error.message } };
}
