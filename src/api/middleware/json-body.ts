import type { Context, Next } from 'koa';
import { HttpProblem, badRequest } from '../http/problem';

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
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch (err) {
    throw badRequest('malformed_json', `Request body is not valid JSON: ${(err as Error).message}`);
  }
  const problem = shapeProblem(parsed);
  if (problem) throw badRequest('malformed_json', problem);
  return parsed;
}

/** In unicode mode a surrogate pair is one code point, so this matches only a lone surrogate (linear time). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Deeper than any request of this API; a deeper body would only exhaust the stack of whatever walks it. */
export const MAX_JSON_DEPTH = 32;

/**
 * What JSON.parse accepts but nothing downstream should see: nesting past MAX_JSON_DEPTH, and strings with a
 * lone surrogate (valid JSON escapes, but not text: stores replace them silently and encoders throw). Walks
 * the value iteratively, so the check itself cannot overflow the stack.
 */
export function shapeProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (LONE_SURROGATE.test(node)) return 'Request body contains a string with a lone UTF-16 surrogate (not valid text)';
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(node)) {
        if (LONE_SURROGATE.test(key)) return 'Request body contains a member name with a lone UTF-16 surrogate (not valid text)';
        stack.push([item, depth + 1]);
      }
    }
  }
  return null;
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
