import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { Logger } from '../logging/logger';
import { principalOf } from './middleware/authenticate';
import type { StreamBudget } from './stream-budget';

/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Answers with a Server-Sent Events stream that `produce` writes to until it returns or the client goes away
 * (`signal`); then the stream ends. Counted in the caller's share of `streams` (429 or 503 past it), kept alive
 * through proxies, and an error in `produce` is logged and ends the stream (the status line is long sent).
 */
export function answerWithEventStream(
  ctx: Context,
  streams: StreamBudget,
  what: string,
  produce: (write: (chunk: string) => void, signal: AbortSignal) => Promise<void>,
): void {
  const release = streams.acquire(principalOf(ctx).sub);
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
