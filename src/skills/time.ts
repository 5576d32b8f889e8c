/** Timestamps and durations as readers see them, always in UTC so output does not depend on the host. */

export function toMillis(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: ${JSON.stringify(iso)}`);
  return ms;
}

/** "2025-03-21 14:07 UTC". */
export function formatTimestamp(iso: string): string {
  const s = new Date(toMillis(iso)).toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 16)} UTC`;
}

/** "14:07" when the day is obvious from context. */
export function formatClock(iso: string): string {
  return new Date(toMillis(iso)).toISOString().slice(11, 16);
}

/** "2025-03-21". */
export function formatDate(iso: string): string {
  return new Date(toMillis(iso)).toISOString().slice(0, 10);
}

/** "45 s", "18 min", "1 h 5 min", "2 d 3 h"; rounded down to the unit shown. */
export function formatDuration(ms: number): string {
  if (ms < 0) return `-${formatDuration(-ms)}`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
