import { badRequest } from './problem';

/** What a cursor field holds: sent as a string, read back as its type. */
type FieldKind = 'string' | 'date' | 'integer';
type FieldValue<K extends FieldKind> = K extends 'date' ? Date : K extends 'integer' ? number : string;
export type CursorOf<F extends Record<string, FieldKind>> = { [N in keyof F]: FieldValue<F[N]> };

/** Longer than any cursor this API hands out: read no further. */
const CURSOR_MAX_CHARS = 1024;

const invalid = () => badRequest('invalid_cursor', 'cursor is not one this API returned');

/**
 * The one page-cursor codec: an opaque base64url JSON of the last row's sort key, its fields named and typed
 * once per listing. `decode` takes the query value as it came (absent, repeated, too long, not one of ours,
 * a field of the wrong kind: 400 invalid_cursor) and gives the typed key.
 */
export function cursorCodec<F extends Record<string, FieldKind>>(fields: F) {
  const names = Object.keys(fields) as (keyof F & string)[];
  return {
    encode(key: CursorOf<F>): string {
      const raw: Record<string, string> = {};
      for (const n of names) {
        const v = key[n] as unknown;
        raw[n] = v instanceof Date ? v.toISOString() : String(v);
      }
      return Buffer.from(JSON.stringify(raw)).toString('base64url');
    },
    decode(query: unknown): CursorOf<F> | undefined {
      if (query === undefined || query === '') return undefined;
      if (typeof query !== 'string' || query.length > CURSOR_MAX_CHARS) throw invalid();
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(Buffer.from(query, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        throw invalid();
      }
      if (typeof parsed !== 'object' || parsed === null) throw invalid();
      const out: Record<string, unknown> = {};
      for (const n of names) {
        const v = parsed[n];
        if (typeof v !== 'string') throw invalid();
        if (fields[n] === 'date') {
          const at = new Date(v);
          if (Number.isNaN(at.getTime())) throw invalid();
          out[n] = at;
        } else if (fields[n] === 'integer') {
          const i = Number(v);
          if (!Number.isSafeInteger(i)) throw invalid();
          out[n] = i;
        } else out[n] = v;
      }
      return out as CursorOf<F>;
    },
  };
}

export function parseLimit(raw: unknown, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw badRequest('invalid_input', `limit must be an integer from 1 to ${max}`, [{ path: '/limit', message: `must be 1..${max}` }]);
  }
  return n;
}
