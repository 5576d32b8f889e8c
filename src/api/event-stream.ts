import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { Logger } from '../logging/logger';
import { HttpProblem } from './problem';

/** Event streams open at once per API process (invocation events, A2A streams); past it, 503. */
const MAX_STREAMS = 500;
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
let open = 0;

/**
 * Answers with a Server-Sent Events stream that `produce` writes to until it returns or the client goes away
 * (`signal`); then the stream ends. Bounded per process, kept alive through proxies, and an error in `produce`
 * is logged and ends the stream (the status line is long sent).
 */
export function answerWithEventStream(
  ctx: Context,
  what: string,
  produce: (write: (chunk: string) => void, signal: AbortSignal) => Promise<void>,
): void {
  if (open >= MAX_STREAMS)
    throw new HttpProblem(503, 'too_many_streams', 'Too many event streams are open; poll instead, or retry', {
      headers: { 'Retry-After': '5' },
    });
  const out = new PassThrough();
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
  ctx.body = out;
  ctx.req.socket.setNoDelay(true);
  const closed = new AbortController();
  const stop = () => closed.abort();
  ctx.req.once('close', stop);
  open += 1;
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
  void (async () => {
    try {
      await produce((chunk) => out.write(chunk), closed.signal);
    } catch (err) {
      (ctx.state.log as Logger).warn(
        { err: { name: (err as Error).name, message: (err as Error).message } },
        `${what} stream ended by an error`,
      );
    } finally {
      clearInterval(heartbeat);
      ctx.req.off('close', stop);
      open -= 1;
      out.end();
    }
  })();
}
