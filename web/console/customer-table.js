// @ts-check
// The customers table, shared by the customer list and the work lists.
import { el } from './dom.js';
import { money, timeEl, timeLeft } from './format.js';
import { navLink } from './nav.js';

/** @typedef {import('./types').Customer} Customer */

/** What a customer's subscriptions make it besides its status: a trial or a sandbox purchase is not a paying one. @param {Customer} c */
export function countsAs(c) {
  const subs = (c.subscriptions || []).filter((x) => x.status === 'active' || x.status === 'cancelled');
  const tags = [];
  if (subs.some((x) => x.periodType === 'TRIAL')) tags.push('trial');
  if (subs.length && subs.every((x) => x.environment === 'SANDBOX')) tags.push('sandbox');
  if (subs.some((x) => x.isFamilyShare)) tags.push('family share');
  if ((c.subscriptions || []).some((x) => x.status === 'refunded')) tags.push('refunded');
  return tags;
}

/** @param {(string | null)[]} xs */
const distinct = (xs) => [...new Set(xs.filter(Boolean))];

/**
 * @typedef {{ sort: string, hrefFor: (next: string) => string, idOnly: boolean }} Sorting
 */

/**
 * The customers table. With `sorting`, the id, MRR and last-event headers are links that sort by that column
 * (again: the other way), and the sorted one says so (aria-sort).
 * @param {Sorting | null} sorting
 */
export function customerTable(sorting) {
  /** @type {Record<string, string>} */
  const sortable = { Customer: 'id', MRR: 'mrr', 'Last event': 'lastEvent' };
  const head = ['Customer', 'Status', 'Entitlements', 'MRR', 'Store · environment', 'Scheduled downgrade', 'Flags', 'Last event'];
  /** @param {string} h */
  const th = (h) => {
    const key = sorting && sortable[h];
    if (!sorting || !key) return el('th', { scope: 'col' }, h);
    const current = sorting.sort.replace(/^-/, '') === key;
    const desc = sorting.sort.startsWith('-');
    // A column sorted ascending sorts descending on the next click; MRR and last event start descending.
    const next = current ? (desc ? key : '-' + key) : key === 'id' ? 'id' : '-' + key;
    const disabled = sorting.idOnly && key !== 'id';
    return el(
      'th',
      { scope: 'col', 'aria-sort': current ? (desc ? 'descending' : 'ascending') : null },
      disabled
        ? h
        : el(
            'a',
            { href: sorting.hrefFor(next), 'data-nav': '', 'data-sort': next, title: `Sort by ${h.toLowerCase()}` },
            h,
            current ? (desc ? ' ↓' : ' ↑') : '',
          ),
    );
  };
  const body = el('tbody');
  /** @param {Customer[]} list */
  const add = (list) => {
    for (const c of list) {
      const tags = countsAs(c);
      body.append(
        el(
          'tr',
          { class: c.flags.length ? 'flagged' : null, 'data-customer': c.id },
          el('td', {}, navLink(c.id, { view: 'customer', id: c.id })),
          el('td', {}, el('span', { class: 'status ' + c.status }, c.status), ...tags.map((t) => el('span', { class: 'tag' }, t))),
          el(
            'td',
            {},
            ...c.entitlements.flatMap((e, i) => [i ? ', ' : '', e.id, ...(e.expiresAt ? [' until ', timeEl(e.expiresAt)] : [])]),
          ),
          el('td', { class: 'num' }, money(c.mrrContribution)),
          el(
            'td',
            {},
            [
              distinct((c.subscriptions || []).map((x) => x.store)).join(', '),
              distinct((c.subscriptions || []).map((x) => x.environment)).join(', '),
            ]
              .filter(Boolean)
              .join(' · ') || '—',
          ),
          el(
            'td',
            {},
            ...(c.scheduledDowngrade
              ? [timeEl(c.scheduledDowngrade.at), ` (${c.scheduledDowngrade.reason}, ${timeLeft(c.scheduledDowngrade.at)})`]
              : []),
          ),
          el('td', {}, ...c.flags.flatMap((f, i) => [i ? ', ' : '', `${f.type} since `, timeEl(f.since)])),
          el('td', {}, ...(c.lastEvent ? [`${c.lastEvent.type} `, timeEl(c.lastEvent.at)] : [])),
        ),
      );
    }
  };
  return { table: el('table', { id: sorting ? 'customers' : null }, el('thead', {}, el('tr', {}, ...head.map(th))), body), add };
}
