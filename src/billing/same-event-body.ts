/**
 * Whether two JSON texts of a provider event say the same thing: equal text, or equal after ordering object
 * members (a redelivery may serialize members in another order). Anything that cannot be compared (not JSON,
 * nested too deep to walk) counts as different, which parks it rather than applying it.
 */
export function sameEventBody(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonical(JSON.parse(a), 0) === canonical(JSON.parse(b), 0);
  } catch {
    return false;
  }
}

/** Provider events nest a few levels (subscriber attributes, entitlements); far deeper is not an event. */
const MAX_DEPTH = 64;

function canonical(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new RangeError('nested too deep');
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
