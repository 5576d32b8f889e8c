import type { Context, Next } from 'koa';
import { HttpProblem, badRequest } from '../problem';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Reads a JSON request body with a hard size limit. Written by hand because the contract needs exact
 * statuses (415 for a non-JSON type, 413 past the limit, 400 for malformed JSON) as problem+json.
 * A body-less POST (no Content-Length, no Transfer-Encoding) is allowed and parses as `undefined`.
 */
export function jsonBody(limitBytes: number) {
  return async function parseJson(ctx: Context, next: Next): Promise<void> {
    if (BODY_METHODS.has(ctx.method)) ctx.state.body = await readJsonBody(ctx, limitBytes);
    return next();
  };
}

/** Reads and parses the body; used directly by routes that must authenticate before reading anything. */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const hasBody = ctx.request.length !== undefined ? ctx.request.length > 0 : ctx.get('Transfer-Encoding') !== '';
  if (!hasBody) return undefined;
  if (!ctx.is('application/json', 'application/*+json')) {
    throw new HttpProblem(415, 'unsupported_media_type', 'Request bodies must be application/json');
  }
  if (ctx.request.length !== undefined && ctx.request.length > limitBytes) {
    ctx.req.resume();
    throw tooLarge(limitBytes);
  }
  const raw = await readLimited(ctx, limitBytes);
  try {
    return JSON.parse(raw) as unknown;
  } catch (err) {
    throw badRequest('malformed_json', `Request body is not valid JSON: ${(err as Error).message}`);
  }
}

function tooLarge(limitBytes: number): HttpProblem {
  return new HttpProblem(413, 'payload_too_large', `Request body exceeds ${limitBytes} bytes`, {
    extensions: { limitBytes },
    headers: { Connection: 'close' },
  });
}

function readLimited(ctx: Context, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      ctx.req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        // Stop buffering but keep draining so the client can read our 413 instead of a reset.
        finish(() => reject(tooLarge(limitBytes)));
        ctx.req.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(() => resolve(Buffer.concat(chunks).toString('utf8')));
    const onError = (err: Error) => finish(() => reject(badRequest('unreadable_body', `Could not read request body: ${err.message}`)));
    const onAborted = () => finish(() => reject(badRequest('unreadable_body', 'Request was aborted')));
    ctx.req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}
