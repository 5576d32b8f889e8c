import Router from '@koa/router';
import { PassThrough } from 'node:stream';
import { isTerminal } from '../../invocations/wait';
import { settledHere, type InvocationRecord } from '../../store/invocations';
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
/** Store reads between changes start fast and slow down to this (a terminal write in this process wakes it at once). */
const MAX_POLL_MS = 1_000;

/** What identifies a state of the record to a reconnecting client: its write sequence and status. */
const versionOf = (r: InvocationRecord) => `${r.seq}.${r.status}`;

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
    let record = await invocations.get(project._id, ctx.params.id!);
    if (!record) throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    if (open >= MAX_STREAMS) throw new HttpProblem(503, 'too_many_streams', 'Too many event streams are open; poll the invocation instead, or retry', { headers: { 'Retry-After': '5' } });

    const stream = new PassThrough();
    ctx.status = 200;
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    ctx.body = stream;
    ctx.req.socket.setNoDelay(true);

    let closed = false;
    let wake: (() => void) | null = null;
    const stop = () => {
      closed = true;
      wake?.();
    };
    ctx.req.once('close', stop);
    open += 1;
    const first = record;
    const send = (event: string, id: string, data: unknown) => stream.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    void (async () => {
      const unsubscribe = settledHere.subscribe(first._id, () => wake?.());
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const ends = Date.now() + MAX_STREAM_MS;
      try {
        stream.write('retry: 2000\n\n');
        let last = ctx.get('Last-Event-ID') || null;
        for (let pause = 50; !closed && Date.now() < ends; pause = Math.min(pause * 2, MAX_POLL_MS)) {
          const current: InvocationRecord = record!;
          if (versionOf(current) !== last) {
            last = versionOf(current);
            send('status', last, { status: current.status, progress: current.progress, updatedAt: current.updatedAt });
            pause = 50;
          }
          if (isTerminal(current)) {
            const finished = (await invocations.getFinished(current.project, current._id)) ?? current;
            send('result', versionOf(finished), presentInvocation(finished));
            break;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, pause);
          });
          wake = null;
          record = (await invocations.get(current.project, current._id)) ?? current;
        }
      } catch (err) {
        ctx.state.log.warn({ err: { name: (err as Error).name, message: (err as Error).message } }, 'invocation event stream ended by an error');
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
        ctx.req.off('close', stop);
        open -= 1;
        stream.end();
      }
    })();
  });

  return router;
}
