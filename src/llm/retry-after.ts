/**
 * The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds from
 * `nowMs`, or undefined when the header is absent or unreadable (the caller's own backoff then applies).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the IMF-fixdate form names a weekday and "GMT"; Date.parse also reads the obsolete forms.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
