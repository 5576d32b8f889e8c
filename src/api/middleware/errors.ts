import type { Context, Next } from 'koa';
import type { Logger } from '../../logging/logger';
import { HttpProblem, problemBody } from '../http/problem';

/**
 * First middleware: turns anything thrown below into application/problem+json. Internal errors are logged
 * with their stack and leave as a bare 500 so no internals reach a client.
 */
export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpProblem(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
      // The routers' allowedMethods answer a known path with an unknown method: 405 (or 501 for a method no route
      // has) with Allow set (RFC 9110 §15.5.6 requires it) and no body; the body is a problem like any other.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) {
        const allow = ctx.response.get('Allow');
        throw new HttpProblem(
          ctx.status,
          ctx.status === 405 ? 'method_not_allowed' : 'not_implemented',
          `${ctx.method} is not supported on ${ctx.path}${allow ? `; allowed: ${allow}` : ''}`,
          { headers: allow ? { Allow: allow } : {} },
        );
      }
    } catch (err) {
      const log = (ctx.state.log as Logger | undefined) ?? logger;
      if (err instanceof HttpProblem) {
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = err.toBody();
      } else if (isExposedHttpError(err)) {
        // Errors raised by Koa or @koa/router themselves (405, 501), with their own safe messages.
        ctx.status = err.status;
        if (err.headers) ctx.set(err.headers);
        ctx.body = problemBody(err.status, err.status === 405 ? 'method_not_allowed' : 'http_error', err.message);
      } else if (isStoreUnavailable(err)) {
        // The store is down or unreachable: a condition to retry through, not a bug.
        log.warn({ err: { name: (err as Error).name, message: (err as Error).message } }, 'store unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', '5');
        ctx.body = problemBody(503, 'store_unavailable', 'The data store is unavailable. Retry later.');
      } else {
        log.error({ err }, 'unhandled error');
        ctx.status = 500;
        ctx.body = problemBody(500, 'internal_error', 'An unexpected error occurred. It has been logged.');
      }
      ctx.type = 'application/problem+json';
    }
  };
}

function isExposedHttpError(err: unknown): err is { status: number; message: string; headers?: Record<string, string> } {
  if (!err || typeof err !== 'object') return false;
  const e = err as { status?: unknown; expose?: unknown };
  return typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true;
}

/** The driver's errors for a store it cannot reach (selection timeout, network, closed client, pool). */
const STORE_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
]);

function isStoreUnavailable(err: unknown): boolean {
  return err instanceof Error && STORE_UNAVAILABLE.has(err.name);
}
