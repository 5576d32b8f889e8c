import Router from '@koa/router';
import { PassThrough } from 'node:stream';
import { isTerminal } from '../../invocations/wait';
import { followInvocation, versionOf } from '../../invocations/follow';
import type { InvocationRecord } from '../../store/invocations';
import type { AppDeps } from '../deps';
import { presentInvocation } from '../invocation-resource';
import { authenticate } from '../middleware/authenticate';
import { HttpProblem, notFound } from '../problem';
import { projectForCaller } from '../project-access';

/** Streams open at once per API process; past it, 503 (clients fall back to polling or retry). */
const MAX_STREAMS = 500;
/** A stream ends after this long even if the invocation has not (the client reconnects with Last-Event-ID). */
const MAX_STREAM_MS = 5 * 60_000;
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET …/invocations/{id}/events`: the invocation's progress as Server-Sent Events, so a browser or a CLI sees it
 * without polling. `status` events carry the status and progress on every change (the current state first), then
 * one `result` event with the whole invocation once it is terminal, and the stream ends. Event ids are the
 * record's version: a client that reconnects with `Last-Event-ID` gets only what changed since.
 */
export function invocationEventRoutes(deps: AppDeps): Router {
  const { projects, invocations } = deps.repos;
  const router = new Router();
  let open = 0;

  router.get('/v1/agents/:project/invocations/:id/events', authenticate(deps.config.jwt), async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const record = await invocations.get(project._id, ctx.params.id!);
    if (!record) throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    if (open >= MAX_STREAMS) throw new HttpProblem(503, 'too_many_streams', 'Too many event streams are open; poll the invocation instead, or retry', { headers: { 'Retry-After': '5' } });

    const stream = new PassThrough();
    ctx.status = 200;
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    ctx.body = stream;
    ctx.req.socket.setNoDelay(true);

    const closed = new AbortController();
    const stop = () => closed.abort();
    ctx.req.once('close', stop);
    open += 1;
    const first = record;
    const send = (event: string, id: string, data: unknown) => stream.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    void (async () => {
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      try {
        stream.write('retry: 2000\n\n');
        const resumedAt = ctx.get('Last-Event-ID') || null;
        let last: InvocationRecord = first;
        for await (const current of followInvocation(invocations, first, { signal: closed.signal, until: Date.now() + MAX_STREAM_MS })) {
          last = current;
          // A client that reconnects after this very state has seen it.
          if (versionOf(current) !== resumedAt) send('status', versionOf(current), { status: current.status, progress: current.progress, updatedAt: current.updatedAt });
        }
        if (isTerminal(last)) {
          const finished = (await invocations.getFinished(last.project, last._id)) ?? last;
          send('result', versionOf(finished), presentInvocation(finished));
        }
      } catch (err) {
        ctx.state.log.warn({ err: { name: (err as Error).name, message: (err as Error).message } }, 'invocation event stream ended by an error');
      } finally {
        clearInterval(heartbeat);
        ctx.req.off('close', stop);
        open -= 1;
        stream.end();
      }
    })();
  });

  return router;
}
