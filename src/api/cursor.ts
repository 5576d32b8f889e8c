import { badRequest } from './problem';

/** Opaque page cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(value: Record<string, string>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<K extends string>(cursor: string | undefined, keys: readonly K[]): Record<K, string> | undefined {
  if (!cursor) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (keys.every((k) => typeof parsed[k] === 'string')) return parsed as Record<K, string>;
  } catch {
    /* fall through */
  }
  throw badRequest('invalid_cursor', 'cursor is not one this API returned');
}

export function parseLimit(raw: unknown, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw badRequest('invalid_input', `limit must be an integer from 1 to ${max}`, [{ path: '/limit', message: `must be 1..${max}` }]);
  }
  return n;
}
