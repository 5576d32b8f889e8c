// @ts-check
// The customer list. Its filters, sort and search live in the query string (a reload or a shared link keeps
// them) and go to the API as they are; it validates them and answers a problem for a value it does not know.
import { api } from '../api.js';
import { csvButton } from '../csv.js';
import { customerTable } from '../customer-table.js';
import { el } from '../dom.js';
import { money } from '../format.js';
import { go, hrefWith, navLink, params, scopeQuery } from '../nav.js';
import { pagedList } from '../paged-list.js';

/** @typedef {[value: string, label: string]} Option */

/** @type {Option[]} */
const STATUSES = [
  ['', 'Any status'],
  ['active', 'Active'],
  ['trial', 'In trial'],
  ['cancelled', 'Cancelled (access until period end)'],
  ['billing_issue', 'Billing issue'],
  ['refunded', 'Refunded'],
  ['expired', 'Expired'],
  ['none', 'No subscription'],
];
const STORES = ['APP_STORE', 'MAC_APP_STORE', 'PLAY_STORE', 'AMAZON', 'STRIPE', 'RC_BILLING', 'PADDLE', 'ROKU', 'PROMOTIONAL'];
/** @type {Option[]} */
const ENVIRONMENTS = [
  ['', 'Any environment'],
  ['PRODUCTION', 'Production'],
  ['SANDBOX', 'Sandbox'],
];
/** @type {Option[]} */
const SORTS = [
  ['id', 'Id (A→Z)'],
  ['-id', 'Id (Z→A)'],
  ['-mrr', 'MRR (highest first)'],
  ['mrr', 'MRR (lowest first)'],
  ['-lastEvent', 'Last event (newest first)'],
  ['lastEvent', 'Last event (oldest first)'],
];
const LIST_KEYS = ['status', 'store', 'environment', 'product', 'sort', 'q', 'flagged'];

/** @param {Option[]} options @param {string} value */
const labelOf = (options, value) => (options.find(([v]) => v === value) || [value, value])[1];

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewCustomers(box, current) {
  const p = params();
  /** @type {Record<string, string>} */
  const f = Object.fromEntries(LIST_KEYS.map((k) => [k, p.get(k) || '']));
  const idOnly = !!f.q;
  const sort = f.sort || 'id';
  /** @param {string} name @param {string} label @param {Option[]} options */
  const select = (name, label, options) => {
    const value = name === 'sort' ? sort : f[name] || '';
    const known = options.some(([v]) => v === value);
    // A value from a link that the list does not offer is still shown (and sent): the API judges it.
    /** @type {Option[]} */
    const all = known ? options : [...options, [value, value]];
    return el(
      'label',
      {},
      label + ' ',
      el(
        'select',
        { name, id: 'filter-' + name },
        ...all.map(([v, text]) =>
          el(
            'option',
            {
              value: v,
              selected: v === value ? 'selected' : null,
              disabled: name === 'sort' && idOnly && !v.endsWith('id') ? 'disabled' : null,
            },
            text,
          ),
        ),
      ),
    );
  };
  const form = el(
    'form',
    { class: 'toolbar filters', role: 'search', 'aria-label': 'Filter customers' },
    el(
      'label',
      {},
      'Search ',
      el('input', {
        id: 'customer-search',
        name: 'q',
        type: 'search',
        value: f.q,
        size: 24,
        maxlength: 200,
        placeholder: 'any id, alias or transaction',
        autocomplete: 'off',
      }),
    ),
    select('status', 'Status', STATUSES),
    select('store', 'Store', [['', 'Any store'], ...STORES.map((x) => /** @type {Option} */ ([x, x]))]),
    select('environment', 'Environment', ENVIRONMENTS),
    el(
      'label',
      {},
      'Product ',
      el('input', {
        id: 'filter-product',
        name: 'product',
        value: f.product,
        size: 16,
        maxlength: 200,
        placeholder: 'product id',
        autocomplete: 'off',
      }),
    ),
    select('sort', 'Sort', SORTS),
    el('button', { type: 'submit' }, 'Apply'),
    LIST_KEYS.some((k) => f[k]) ? navLink('Clear', { view: 'customers' }) : null,
  );
  /** @param {string} name */
  const field = (name) => /** @type {HTMLInputElement | HTMLSelectElement} */ (form.elements.namedItem(name));
  const apply = () => {
    /** @type {Record<string, string | null>} */
    const changes = { view: 'customers' };
    for (const k of ['q', 'status', 'store', 'environment', 'product', 'sort']) {
      const v = field(k).value.trim();
      changes[k] = k === 'sort' && v === 'id' ? null : v;
    }
    // An id prefix lists in id order: another order is dropped rather than refused.
    if (changes.q && changes.sort && !/^-?id$/.test(changes.sort)) changes.sort = null;
    changes.flagged = null;
    go(hrefWith(changes, false));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });
  for (const name of ['status', 'store', 'environment', 'sort']) field(name).addEventListener('change', apply);
  const summary = [
    f.q ? `id starting with “${f.q}”` : null,
    f.status ? labelOf(STATUSES, f.status).toLowerCase() : null,
    f.flagged ? (f.flagged === 'true' ? 'flagged' : 'not flagged') : null,
    f.store || null,
    f.environment ? f.environment.toLowerCase() : null,
    f.product ? `product ${f.product}` : null,
  ].filter(Boolean);
  box.append(
    el('h2', {}, 'Customers'),
    form,
    el(
      'p',
      { class: 'muted', id: 'list-summary' },
      (summary.length ? 'Showing customers: ' + summary.join(', ') : 'Showing every customer') + ` · sorted by ${labelOf(SORTS, sort)}`,
      idOnly ? ' (a search lists in id order)' : '',
    ),
  );
  const exact = el('div', { id: 'exact-match' });
  /** @param {string | null} cursor @param {number} limit */
  const listPage = (cursor, limit) =>
    api(
      '/v1/billing/customers' +
        scopeQuery({
          limit,
          cursor,
          status: f.status,
          store: f.store,
          environment: f.environment,
          product: f.product,
          sort: f.sort,
          q: f.q,
          flagged: f.flagged,
        }),
    );
  box.append(
    el(
      'p',
      {},
      csvButton(
        'customers.csv',
        [
          'id',
          'status',
          'aliases',
          'entitlements',
          'MRR (USD/month)',
          'stores',
          'environments',
          'products',
          'scheduled downgrade',
          'flagged since',
          'last event',
          'last event at',
        ],
        (/** @type {import('../types').Customer} */ c) => [
          c.id,
          c.status,
          c.aliases.join(' '),
          c.entitlements.map((e) => `${e.id}${e.expiresAt ? ' until ' + e.expiresAt : ''}`).join('; '),
          c.mrrContribution,
          [...new Set((c.subscriptions || []).map((x) => x.store).filter(Boolean))].join(' '),
          [...new Set((c.subscriptions || []).map((x) => x.environment).filter(Boolean))].join(' '),
          [...new Set((c.subscriptions || []).map((x) => x.productId).filter(Boolean))].join(' '),
          c.scheduledDowngrade ? c.scheduledDowngrade.at : null,
          c.flags.map((x) => x.since).join(' '),
          c.lastEvent ? c.lastEvent.type : null,
          c.lastEvent ? c.lastEvent.at : null,
        ],
        async (cursor) => {
          const page = await listPage(cursor, 200);
          return { items: page.customers, nextCursor: page.nextCursor };
        },
      ),
    ),
    exact,
  );
  /** @param {string} next */
  const hrefFor = (next) => hrefWith({ sort: next === 'id' ? null : next });
  await pagedList(
    box,
    async (cursor) => {
      const page = await listPage(cursor, 50);
      if (!cursor && current() && page.exactMatch) {
        /** @type {import('../types').Customer} */
        const m = page.exactMatch;
        // Opened by the id as typed, so the customer page says which alias found it (a transaction opens the customer).
        const [said, opens] =
          page.exactMatchBy === 'transaction'
            ? [`Transaction “${f.q}” belongs to `, m.id]
            : m.id === f.q
              ? ['Exactly this id: ', m.id]
              : m.aliases.includes(f.q)
                ? [`“${f.q}” is an alias of `, f.q]
                : [`“${f.q}” is an id of (in another case) `, m.id];
        exact.replaceChildren(
          el(
            'p',
            { class: 'panel' },
            said,
            navLink(m.id, { view: 'customer', id: opens }),
            ` (${m.status}, ${money(m.mrrContribution)}/mo)`,
          ),
        );
      }
      return { items: page.customers, nextCursor: page.nextCursor };
    },
    () => customerTable({ sort, hrefFor, idOnly }),
    f.q ? 'No customer id starts with that.' : 'No customer matches.',
  );
}
