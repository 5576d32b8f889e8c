// @ts-check
// Money and times in the reader's locale; times in the reader's zone, which is named.

const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
/** @param {unknown} n */
export const money = (n) => usd.format(Number(n));

const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** An instant in the reader's zone, named; "—" for none. @param {string | null | undefined} iso */
export const when = (iso) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? '—' : dateTime.format(t);
};

/** The date part of an ISO time. @param {string | null | undefined} iso */
export const day = (iso) => (iso ? String(iso).slice(0, 10) : '—');

/** How long until (or since) an instant: "in 4 d 3 h", "2 h 5 min ago (overdue)". @param {string} iso */
export function timeLeft(iso) {
  const ms = Date.parse(iso) - Date.now();
  if (Number.isNaN(ms)) return '';
  const past = ms < 0;
  const abs = Math.abs(ms);
  const d = Math.floor(abs / 86400000),
    h = Math.floor((abs % 86400000) / 3600000),
    m = Math.floor((abs % 3600000) / 60000);
  const s = d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
  return past ? `${s} ago (overdue)` : `in ${s}`;
}
