import Router from '@koa/router';
import { isTerminal } from '../../invocations/wait';
import { isSettled, versionOf } from '../../invocations/follow';
import type { InvocationRecord } from '../../store/invocations';
import type { AppDeps } from '../deps';
import { presentInvocation } from '../resources/invocation-resource';
import { authenticate, principalOf } from '../access/authenticate';
import { answerWithEventStream } from '../http/event-stream';
import { notFound } from '../http/problem';
import { projectForCaller } from '../access/project-access';

/** A stream ends after this long even if the invocation has not (the client reconnects with Last-Event-ID). */
const MAX_STREAM_MS = 5 * 60_000;

/**
 * `GET …/invocations/{id}/events`: the invocation's progress as Server-Sent Events, so a browser or a CLI sees it
 * without polling. `status` events carry the status and progress on every change (the current state first), then
 * a `result` event with the whole invocation once it is terminal, and another for each later version of the result
 * (the model's rewrite after the deterministic draft); the stream ends with the final version. Event ids are the
 * record's version (a result's ends in `:result`): a client that reconnects with `Last-Event-ID` gets only what
 * changed since, and 204 once it has had the final result.
 */
// Its own id, so that a client that saw the final `status` event but not the result still gets the result.
const resultEventId = (record: InvocationRecord) => `${versionOf(record)}:result`;

export function invocationEventRoutes(deps: AppDeps): Router {
  const { projects } = deps.repos;
  const service = deps.invocations;
  const router = new Router();

  router.get('/v1/agents/:project/invocations/:id/events', authenticate(deps.config.jwt), async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const record = await service.get(project._id, ctx.params.id!);
    if (!record) throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    const first = record;
    const resumedAt = ctx.get('Last-Event-ID') || null;
    // The client has had the final result: 204 tells an EventSource to stop reconnecting (it would otherwise get
    // the result again every `retry` interval). A draft's result is not final: its rewrite is still to come.
    if (isSettled(first) && resumedAt === resultEventId(first)) {
      ctx.status = 204;
      return;
    }
    answerWithEventStream(ctx, service, principalOf(ctx).sub, 'invocation event', async (write, signal) => {
      const send = (event: string, id: string, data: unknown) => write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      write('retry: 2000\n\n');
      let last: InvocationRecord = first;
      // The service's records carry their results: a terminal one is the result event's whole invocation.
      const sendResult = (record: InvocationRecord) => send('result', resultEventId(record), presentInvocation(record));
      for await (const current of service.follow(first, { signal, until: Date.now() + MAX_STREAM_MS })) {
        last = current;
        // A client that reconnects after this very state has seen it.
        if (versionOf(current) === resumedAt) continue;
        send('status', versionOf(current), {
          status: current.status,
          progress: current.progress,
          updatedAt: current.updatedAt,
          ...(current.revision ? { revision: current.revision } : {}),
        });
        // A version that another follows: its result now, the next one when it is stored.
        if (isTerminal(current) && !isSettled(current)) sendResult(current);
      }
      if (isSettled(last)) sendResult(last);
    });
  });

  return router;
}
