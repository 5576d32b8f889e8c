// @ts-check
// Money in the reader's locale. Times follow one rule everywhere: every instant is shown in the reader's zone,
// which is named (PST, GMT+5:30), or in UTC when the header's switch says so (`tz=utc` in the address); the other
// rendering is on hover. Trend points are UTC days (a day is a bucket, not an instant) and say so.
import { el } from './dom.js';

const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
/** @param {unknown} n */
export const money = (n) => usd.format(Number(n));

let utc = false;

/** Shows every time in UTC (true) or in the reader's zone (false). @param {boolean} on */
export function showUtc(on) {
  utc = on;
}
export const showingUtc = () => utc;

/** @param {boolean} inUtc */
const formatter = (inUtc) =>
  new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(inUtc ? { timeZone: 'UTC' } : {}),
  });
const LOCAL = formatter(false);
const UTC = formatter(true);

/** @param {string | number | null | undefined} at an ISO time or epoch milliseconds */
const msOf = (at) => (at === null || at === undefined || at === '' ? NaN : typeof at === 'number' ? at : Date.parse(at));

/** An instant as the rule says (the reader's zone or UTC, named); "—" for none. @param {string | number | null | undefined} at */
export const when = (at) => {
  const t = msOf(at);
  return Number.isNaN(t) ? '—' : (utc ? UTC : LOCAL).format(t);
};

/** The same instant in the other rendering (UTC when showing local times, and the other way). @param {string | number | null | undefined} at */
const other = (at) => {
  const t = msOf(at);
  return Number.isNaN(t) ? '' : (utc ? LOCAL : UTC).format(t);
};

/** The zone times are shown in, named: "UTC", or the reader's ("America/Los_Angeles"). */
export const zoneName = () => (utc ? 'UTC' : Intl.DateTimeFormat().resolvedOptions().timeZone || 'your zone');

/**
 * An instant as an element: the text as the rule says, `datetime` the exact instant, and the other rendering on
 * hover. Every time the console shows goes through here (or `when` inside a sentence).
 * @param {string | number | null | undefined} at
 */
export function timeEl(at) {
  const t = msOf(at);
  if (Number.isNaN(t)) return el('span', {}, '—');
  return el('time', { datetime: new Date(t).toISOString(), title: other(t) }, when(t));
}

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
