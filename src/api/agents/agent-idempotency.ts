import { createHash } from 'node:crypto';

/**
 * The Idempotency-Keys of invocations the agent protocols start, derived from their JSON-RPC ids. An id may be
 * any string (spaces, non-ASCII, any length) or number, while a key is 1-255 printable ASCII characters: the key
 * is a hash of the id, so every id is usable and two ids are one invocation only when they are the same id.
 */

/** A tools/call retried on its session (the same JSON-RPC id: `1` and `"1"` are different ids) is one invocation. */
export function mcpIdempotencyKey(sessionId: string, requestId: string | number): string {
  return `mcp:${digest(sessionId, JSON.stringify(requestId))}`;
}

/** An A2A message sent again (the same messageId) is the same task. */
export function a2aIdempotencyKey(messageId: string): string {
  return `a2a:${digest(messageId)}`;
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('base64url');
