// @ts-check
// Trends over 30/90/365 days, with the points as tables for keyboards and readers. Two kinds of series:
// - snapshots (MRR; active subscriptions, trials, flagged, churned): the totals as they stood each day;
// - events, by the provider's event time (revenue, refunds, new customers, trial starts and conversions,
//   expirations), filtered by store, product, environment and country.
// Days are UTC days, drawn and labelled as such. A day before a series' first data point has no value (a gap, not
// a zero): the chart shows no data where there is none.
import { api } from '../api.js';
import { el, scrollBox } from '../dom.js';
import { money, timeEl } from '../format.js';
import { go, hrefWith, params, scopeQuery } from '../nav.js';

/**
 * @typedef {{ day: string, mrr: number, activeSubscriptions: number, activeTrials: number, flaggedCustomers: number, churned: number }} Point
 * @typedef {{ day: string, revenue: number, refunds: number, refundAmount: number, newCustomers: number, trialStarts: number,
 *   trialConversions: number, expirations: number }} EventPoint
 */

const DAY_MS = 86_400_000;
const PERIODS = ['30', '90', '365'];
const EVENT_FILTERS = ['store', 'product', 'environment', 'country'];

/** The UTC days of the period, oldest first. @param {number} days */
function periodDays(days) {
  const today = Date.parse(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * A series over the period's days: the point's value on a day with one, null (no data) before the first.
 * @template P
 * @param {string[]} days
 * @param {Map<string, P>} byDay
 * @param {(p: P) => number} value
 */
const series = (days, byDay, value) =>
  days.map((d) => {
    const p = byDay.get(d);
    return p === undefined ? null : value(p);
  });

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewTrends(box, current) {
  const asked = params().get('days');
  const days = asked && PERIODS.includes(asked) ? asked : '30';
  /** @type {Record<string, string>} */
  const f = Object.fromEntries(EVENT_FILTERS.map((k) => [k, params().get(k) || '']));
  const [m, t, ev] = await Promise.all([
    api('/v1/billing/metrics' + scopeQuery()),
    api('/v1/billing/trends' + scopeQuery({ days })),
    api('/v1/billing/trends/events' + scopeQuery({ days, ...f })),
  ]);
  if (!current()) return;
  /** @type {Point[]} */
  const points = t.points;
  /** @type {EventPoint[]} */
  const events = ev.points;
  const xDays = periodDays(Number(days));
  const snapshots = new Map(points.map((p) => [p.day, p]));
  const byEventDay = new Map(events.map((p) => [p.day, p]));
  /** @param {string} label @param {string | number | Node} value */
  const card = (label, value) => el('div', { class: 'card' }, el('div', { class: 'label' }, label), el('div', { class: 'value' }, value));
  const toolbar = el(
    'div',
    { class: 'toolbar', role: 'group', 'aria-label': 'Period' },
    el('span', { class: 'muted' }, 'Last'),
    ...PERIODS.map((d) =>
      el('a', { href: hrefWith({ days: d }), 'data-nav': '', 'aria-current': d === days ? 'true' : null }, `${d} days`),
    ),
  );
  const mrrChart = el('div', { class: 'chart', id: 'chart-mrr', role: 'img', 'aria-label': `MRR per day, last ${days} days` });
  const countChart = el('div', {
    class: 'chart',
    id: 'chart-counts',
    role: 'img',
    'aria-label': `Subscriptions, trials, flagged and churned per day, last ${days} days`,
  });
  const moneyChart = el('div', {
    class: 'chart',
    id: 'chart-revenue',
    role: 'img',
    'aria-label': `Revenue and refunds per day of event time, last ${days} days`,
  });
  const peopleChart = el('div', {
    class: 'chart',
    id: 'chart-customers',
    role: 'img',
    'aria-label': `New customers, trial starts and conversions, expirations and refunds per day of event time, last ${days} days`,
  });
  const sum = (/** @type {(p: EventPoint) => number} */ pick) => events.reduce((n, p) => n + pick(p), 0);
  const trials = sum((p) => p.trialStarts);
  const conversions = sum((p) => p.trialConversions);
  const snapshotRows = points
    .slice()
    .reverse()
    .map((p) =>
      el(
        'tr',
        {},
        el('td', {}, p.day),
        el('td', {}, money(p.mrr)),
        el('td', {}, p.activeSubscriptions),
        el('td', {}, p.activeTrials),
        el('td', {}, p.flaggedCustomers),
        el('td', {}, p.churned),
      ),
    );
  const eventRows = events
    .slice()
    .reverse()
    .map((p) =>
      el(
        'tr',
        { 'data-day': p.day },
        el('td', {}, p.day),
        el('td', {}, money(p.revenue)),
        el('td', {}, p.refunds),
        el('td', {}, money(p.refundAmount)),
        el('td', {}, p.newCustomers),
        el('td', {}, p.trialStarts),
        el('td', {}, p.trialConversions),
        el('td', {}, p.expirations),
      ),
    );
  box.append(
    el('h2', { class: 'wrap' }, `Trends · ${m.scope}`),
    el(
      'section',
      { class: 'cards' },
      card('MRR', money(m.mrr.amount)),
      card('Active subscriptions', m.activeSubscriptions),
      card('Active trials', m.activeTrials),
      card('Flagged customers', m.flaggedCustomers),
      card('Scheduled downgrades', m.scheduledDowngrades),
      card('Updated', timeEl(m.updatedAt)),
    ),
    toolbar,
    el('h3', {}, 'Totals as they stood each day'),
    el(
      'p',
      { class: 'muted' },
      points.length
        ? `From ${points[0] ? points[0].day : ''}, the scope's first day of totals (UTC days, by when the service processed the events).`
        : 'No totals yet.',
    ),
    // Customers older than the app's connection: its totals begin the day they arrived. Say how to place them.
    ev.firstDay && (!points[0] || ev.firstDay < points[0].day)
      ? el(
          'p',
          { class: 'panel', id: 'backfill-note' },
          `This scope's events date from ${ev.firstDay}, before its first day of totals: `,
          el('code', {}, `npm run cli -- billing-backfill-trends --scope ${m.scope} --days ${days}`),
          " rebuilds the totals by the provider's time from the customers' records.",
        )
      : '',
    mrrChart,
    countChart,
    el(
      'details',
      {},
      el('summary', {}, 'Daily totals as a table'),
      scrollBox(
        'Daily totals',
        el(
          'table',
          { id: 'points-table' },
          el('thead', {}, el('tr', {}, ...['Day', 'MRR', 'Active', 'Trials', 'Flagged', 'Churned'].map((h) => el('th', {}, h)))),
          el('tbody', {}, ...snapshotRows),
        ),
      ),
    ),
    el('h3', {}, 'What the events of each day add up to (provider time)'),
    eventFilters(ev.options, f),
    el(
      'section',
      { class: 'cards', id: 'event-cards' },
      card('Revenue', money(sum((p) => p.revenue))),
      card('Refunds', `${sum((p) => p.refunds)} · ${money(sum((p) => p.refundAmount))}`),
      card(
        'New customers',
        sum((p) => p.newCustomers),
      ),
      card(
        'Trial conversion',
        trials
          ? `${Math.round((100 * conversions) / trials)}% (${conversions} of ${trials})`
          : conversions
            ? `${conversions} converted`
            : '—',
      ),
      card(
        'Expirations',
        sum((p) => p.expirations),
      ),
    ),
    el(
      'p',
      { class: 'muted', id: 'event-first-day' },
      ev.firstDay ? `The scope's first event is dated ${ev.firstDay} (UTC): nothing is drawn before it.` : 'No event yet.',
    ),
    moneyChart,
    peopleChart,
    el(
      'details',
      {},
      el('summary', {}, 'Event totals per day as a table'),
      scrollBox(
        'Event totals per day',
        el(
          'table',
          { id: 'event-points-table' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ...['Day', 'Revenue', 'Refunds', 'Refunded', 'New customers', 'Trial starts', 'Conversions', 'Expirations'].map((h) =>
                el('th', {}, h),
              ),
            ),
          ),
          el('tbody', {}, ...eventRows),
        ),
      ),
    ),
  );
  const xs = xDays.map((d) => Date.parse(d + 'T00:00:00Z') / 1000);
  const width = Math.max(320, box.clientWidth - 20);
  /**
   * @param {HTMLElement} target
   * @param {import('uplot').Series[]} lines
   * @param {(number | null)[][]} data
   */
  const draw = (target, lines, data) => {
    // Daily points are UTC days: drawn and labelled in UTC, whatever the reader's zone. Null values are gaps.
    new window.uPlot(
      {
        width,
        height: 240,
        series: [{ label: 'Day (UTC)', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) }, ...lines],
        axes: [{ label: 'UTC day' }, { size: 60 }],
        legend: { live: true },
        tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      },
      [xs, ...data],
      target,
    );
    target.setAttribute('data-points', String(xs.length));
    // What the chart holds, for readers and tests: the first day with a value, and the days with one.
    const valued = xDays.filter((_, i) => data.some((d) => d[i] !== null && d[i] !== undefined));
    target.setAttribute('data-first-day', valued[0] || '');
    target.setAttribute('data-days-with-data', String(valued.length));
  };
  /** A legend value in dollars. @param {unknown} _u @param {number | null} v */
  const dollars = (_u, v) => (v === null ? '—' : money(v));
  draw(mrrChart, [{ label: 'MRR ($)', stroke: '#2251cc', width: 2, value: dollars }], [series(xDays, snapshots, (p) => p.mrr)]);
  draw(
    countChart,
    [
      { label: 'Active subscriptions', stroke: '#1b8a3a', width: 2 },
      { label: 'Trials', stroke: '#8a5cd6', width: 2 },
      { label: 'Flagged', stroke: '#d64545', width: 2 },
      { label: 'Churned', stroke: '#e08a00', width: 2 },
    ],
    [
      series(xDays, snapshots, (p) => p.activeSubscriptions),
      series(xDays, snapshots, (p) => p.activeTrials),
      series(xDays, snapshots, (p) => p.flaggedCustomers),
      series(xDays, snapshots, (p) => p.churned),
    ],
  );
  draw(
    moneyChart,
    [
      { label: 'Revenue ($)', stroke: '#1b8a3a', width: 2, value: dollars },
      { label: 'Refunded ($)', stroke: '#d64545', width: 2, value: dollars },
    ],
    [series(xDays, byEventDay, (p) => p.revenue), series(xDays, byEventDay, (p) => p.refundAmount)],
  );
  draw(
    peopleChart,
    [
      { label: 'New customers', stroke: '#2251cc', width: 2 },
      { label: 'Trial starts', stroke: '#8a5cd6', width: 2 },
      { label: 'Trial conversions', stroke: '#1b8a3a', width: 2 },
      { label: 'Expirations', stroke: '#e08a00', width: 2 },
      { label: 'Refunds', stroke: '#d64545', width: 2 },
    ],
    [
      series(xDays, byEventDay, (p) => p.newCustomers),
      series(xDays, byEventDay, (p) => p.trialStarts),
      series(xDays, byEventDay, (p) => p.trialConversions),
      series(xDays, byEventDay, (p) => p.expirations),
      series(xDays, byEventDay, (p) => p.refunds),
    ],
  );
}

/**
 * The event charts' filters, as selects of the values the scope's events have (kept in the address).
 * @param {{ stores: string[], products: string[], countries: string[] }} options
 * @param {Record<string, string>} f
 */
function eventFilters(options, f) {
  /** @param {string} name @param {string} label @param {[string, string][]} choices */
  const select = (name, label, choices) => {
    const value = f[name] || '';
    const all = choices.some(([v]) => v === value) ? choices : [...choices, /** @type {[string, string]} */ ([value, value])];
    const s = el(
      'select',
      { name, id: 'trend-' + name },
      ...all.map(([v, text]) => el('option', { value: v, selected: v === value ? 'selected' : null }, text)),
    );
    s.addEventListener('change', () => go(hrefWith({ [name]: s.value })));
    return el('label', {}, label + ' ', s);
  };
  /** @param {string[]} xs @returns {[string, string][]} */
  const pairs = (xs) => xs.map((x) => [x, x]);
  return el(
    'form',
    { class: 'toolbar filters', 'aria-label': 'Filter the event charts' },
    select('store', 'Store', [['', 'Any store'], ...pairs(options.stores)]),
    select('product', 'Product', [['', 'Any product'], ...pairs(options.products)]),
    select('environment', 'Environment', [
      ['', 'Production (no sandbox)'],
      ['SANDBOX', 'Sandbox'],
      ['ALL', 'Both'],
    ]),
    select('country', 'Country', [['', 'Any country'], ...pairs(options.countries)]),
  );
}
