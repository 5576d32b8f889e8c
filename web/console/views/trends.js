// @ts-check
// Trends: two charts (MRR; counts) over 30/90/365 days, with the points as a table for keyboards and readers.
import { api } from '../api.js';
import { el, scrollBox } from '../dom.js';
import { money, when } from '../format.js';
import { hrefWith, params, scopeQuery } from '../nav.js';

/**
 * @typedef {{ day: string, mrr: number, activeSubscriptions: number, activeTrials: number, flaggedCustomers: number, churned: number }} Point
 */

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewTrends(box, current) {
  const asked = params().get('days');
  const days = asked && ['30', '90', '365'].includes(asked) ? asked : '30';
  const [m, t] = await Promise.all([api('/v1/billing/metrics' + scopeQuery()), api('/v1/billing/trends' + scopeQuery({ days }))]);
  if (!current()) return;
  /** @type {Point[]} */
  const points = t.points;
  /** @param {string} label @param {string | number} value */
  const card = (label, value) => el('div', { class: 'card' }, el('div', { class: 'label' }, label), el('div', { class: 'value' }, value));
  const toolbar = el(
    'div',
    { class: 'toolbar', role: 'group', 'aria-label': 'Period' },
    el('span', { class: 'muted' }, 'Last'),
    ...['30', '90', '365'].map((d) =>
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
  const rows = points
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
  box.append(
    el('h2', {}, `Trends · ${m.scope}`),
    el(
      'section',
      { class: 'cards' },
      card('MRR', money(m.mrr.amount)),
      card('Active subscriptions', m.activeSubscriptions),
      card('Active trials', m.activeTrials),
      card('Flagged customers', m.flaggedCustomers),
      card('Scheduled downgrades', m.scheduledDowngrades),
      card('Updated', when(m.updatedAt)),
    ),
    toolbar,
    mrrChart,
    countChart,
    el(
      'details',
      {},
      el('summary', {}, 'Daily points as a table'),
      scrollBox(
        'Daily points',
        el(
          'table',
          {},
          el('thead', {}, el('tr', {}, ...['Day', 'MRR', 'Active', 'Trials', 'Flagged', 'Churned'].map((h) => el('th', {}, h)))),
          el('tbody', {}, ...rows),
        ),
      ),
    ),
  );
  const xs = points.map((p) => Date.parse(p.day + 'T00:00:00Z') / 1000);
  const width = Math.max(320, box.clientWidth - 20);
  /**
   * @param {HTMLElement} target
   * @param {import('uplot').Series[]} series
   * @param {(number | null)[][]} data
   */
  const draw = (target, series, data) => {
    // Daily points are UTC days: drawn and labelled in UTC, whatever the reader's zone.
    new window.uPlot(
      {
        width,
        height: 240,
        series: [{ label: 'Day (UTC)', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) }, ...series],
        axes: [{ label: 'UTC day' }, { size: 60 }],
        legend: { live: true },
        tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      },
      [xs, ...data],
      target,
    );
    target.setAttribute('data-points', String(xs.length));
  };
  draw(
    mrrChart,
    [{ label: 'MRR ($)', stroke: '#2251cc', width: 2, value: (_u, v) => (v === null ? '—' : money(v)) }],
    [points.map((p) => p.mrr)],
  );
  draw(
    countChart,
    [
      { label: 'Active subscriptions', stroke: '#1b8a3a', width: 2 },
      { label: 'Trials', stroke: '#8a5cd6', width: 2 },
      { label: 'Flagged', stroke: '#d64545', width: 2 },
      { label: 'Churned', stroke: '#e08a00', width: 2 },
    ],
    [
      points.map((p) => p.activeSubscriptions),
      points.map((p) => p.activeTrials),
      points.map((p) => p.flaggedCustomers),
      points.map((p) => p.churned),
    ],
  );
}
