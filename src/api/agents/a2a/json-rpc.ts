/**
 * The JSON-RPC 2.0 envelope of an A2A request, read before anything runs: a request has an `id` (a string, a
 * number or null), a notification has none and gets no answer, and anything else (an id that is an object, an
 * array or a boolean; no method; not version 2.0) is an invalid request. Pure.
 */
export type JsonRpcId = string | number | null;

export type Envelope =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string; params: Record<string, unknown> }
  /** Answered with -32600 and the id when it could be read (else null, as JSON-RPC 2.0 §5 says). */
  | { kind: 'invalid'; id: JsonRpcId; message: string };

const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v === null;

export function readEnvelope(body: unknown): Envelope {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { kind: 'invalid', id: null, message: 'Not a JSON-RPC 2.0 request (batches are not supported)' };
  const request = body as Record<string, unknown>;
  const hasId = Object.hasOwn(request, 'id');
  if (hasId && !isId(request.id)) return { kind: 'invalid', id: null, message: 'A JSON-RPC id is a string, a number or null' };
  const id = hasId ? (request.id as JsonRpcId) : null;
  if (request.jsonrpc !== '2.0' || typeof request.method !== 'string')
    return { kind: 'invalid', id, message: 'Not a JSON-RPC 2.0 request' };
  const params = (request.params && typeof request.params === 'object' ? request.params : {}) as Record<string, unknown>;
  return hasId ? { kind: 'request', id, method: request.method, params } : { kind: 'notification', method: request.method, params };
}
