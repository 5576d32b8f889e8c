import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../logging/logger';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (the caller's X-Request-Id when sane), a child logger, and one access-log line. */
export function requestContext(logger: Logger, observe?: (route: string, method: string, status: number, seconds: number) => void) {
  return async function withRequestContext(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      observe?.(String(route), ctx.method, ctx.status, seconds);
      // The webhook receivers tell apps apart by `?app=`: kept on the line (bounded), like the path.
      const app = typeof ctx.query.app === 'string' ? ctx.query.app.slice(0, 64) : undefined;
      (ctx.state.log as Logger).info(
        { method: ctx.method, path: ctx.path, ...(app !== undefined ? { app } : {}), status: ctx.status, ms: Math.round(seconds * 1000) },
        'request',
      );
    }
  };
}
