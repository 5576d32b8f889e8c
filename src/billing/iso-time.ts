/**
 * Timestamps for people and for the API. `new Date(ms)` is deterministic (only the argument-less form reads the
 * clock), so this is workflow-safe. Provider timestamps are not range-checked by the schema, and one outside
 * Date's range must not throw inside a workflow task: it is shown as the number instead.
 */

export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

export function isoDay(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString().slice(0, 10);
}
