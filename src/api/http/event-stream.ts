import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { InvocationService } from '../../invocations/invoke';
import { TooManyStreams } from '../../invocations/stream-budget';
import type { Logger } from '../../logging/logger';
import { HttpProblem } from './problem';

/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Takes one of the caller's streams (`caller`: the token's subject) from the invocation service's one stream
 * limit, or answers 429 (past the caller's share) or 503 (past the process's bound). The answer holding the
 * stream calls the returned release.
 */
export function takeStream(invocations: InvocationService, caller: string): () => void {
  try {
    return invocations.openStream(caller);
  } catch (err) {
    if (!(err instanceof TooManyStreams)) throw err;
    if (err.scope === 'caller')
      throw new HttpProblem(
        429,
        'too_many_streams',
        `You have ${err.open} streams open, the most one caller may: close one, or poll instead`,
        {
          headers: { 'Retry-After': '5' },
        },
      );
    throw new HttpProblem(503, 'too_many_streams', 'Too many event streams are open; poll instead, or retry', {
      headers: { 'Retry-After': '5' },
    });
  }
}

/**
 * Answers with a Server-Sent Events stream that `produce` writes to until it returns or the client goes away
 * (`signal`); then the stream ends. Counted in the caller's share of streams (takeStream: 429 or 503 past it),
 * kept alive through proxies, and an error in `produce` is logged and ends the stream (the status line is long
 * sent).
 */
export function answerWithEventStream(
  ctx: Context,
  invocations: InvocationService,
  caller: string,
  what: string,
  produce: (write: (chunk: string) => void, signal: AbortSignal) => Promise<void>,
): void {
  const release = takeStream(invocations, caller);
  const out = new PassThrough();
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
  ctx.body = out;
  ctx.req.socket.setNoDelay(true);
  const closed = new AbortController();
  const stop = () => closed.abort();
  ctx.req.once('close', stop);
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
      release();
      out.end();
    }
  })();
}
