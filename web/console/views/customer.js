// @ts-check
// One customer: status, entitlements, the scheduled downgrade, flags, aliases, merges, subscriptions, its
// workflow, and the timeline of every event applied to it.
import { api } from '../api.js';
import { el, loading, problemBox, scrollBox } from '../dom.js';
import { day, money, timeLeft, when } from '../format.js';
import { navLink, params, scopeQuery } from '../nav.js';

/** @typedef {import('../types').Customer} Customer */
/** @typedef {import('../types').Snapshot} Snapshot */
/** @typedef {import('../types').TimelineEntry} TimelineEntry */

/** @param {Snapshot | null} s */
function snapshotText(s) {
  if (!s) return 'new record';
  const ents = s.entitlements.map((e) => e.id + (e.expiresAt ? ' until ' + day(e.expiresAt) : '')).join(', ') || 'none';
  return `${s.status}; entitlements ${ents}; ${money(s.mrrContribution)}/mo${s.flagged ? '; flagged' : ''}${s.scheduledDowngradeAt ? '; downgrade ' + when(s.scheduledDowngradeAt) : ''}`;
}

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewCustomer(box, current) {
  const id = params().get('id') || '';
  /** @type {Customer} */
  const c = await api('/v1/billing/customers/' + encodeURIComponent(id) + scopeQuery());
  if (!current()) return;
  const wf = c.workflowUrl
    ? el('a', { href: c.workflowUrl, target: '_blank', rel: 'noopener noreferrer' }, c.workflowId + ' (Temporal UI)')
    : c.workflowId;
  const facts = el('dl', { class: 'facts' });
  /** @param {string} k @param {...(Node | string)} v */
  const fact = (k, ...v) => facts.append(el('dt', {}, k), el('dd', {}, ...v));
  fact('Status', el('span', { class: 'status ' + c.status, id: 'customer-status' }, c.status));
  fact('MRR contribution', money(c.mrrContribution) + '/mo');
  fact(
    'Entitlements',
    c.entitlements.length ? c.entitlements.map((e) => `${e.id} (${e.productId || '—'}) until ${when(e.expiresAt)}`).join('; ') : 'none',
  );
  fact(
    'Scheduled downgrade',
    c.scheduledDowngrade
      ? `${when(c.scheduledDowngrade.at)} · ${c.scheduledDowngrade.reason} · ${timeLeft(c.scheduledDowngrade.at)}`
      : 'none',
  );
  fact('Flags', c.flags.length ? c.flags.map((f) => `${f.type} since ${when(f.since)} (event ${f.eventId})`).join('; ') : 'none');
  fact('Aliases', c.aliases.length ? c.aliases.join(', ') : 'none');
  fact('Merged into', c.mergedInto ? navLink(c.mergedInto, { view: 'customer', id: c.mergedInto }) : '—');
  fact('Last event', c.lastEvent ? `${c.lastEvent.type} at ${when(c.lastEvent.at)}` : '—');
  fact('Workflow', wf);
  if (id !== c.id) fact('Found by', `alias “${id}” of ${c.id}`);
  // Every subscription with its store, environment, price and period: a trial or a sandbox purchase is not
  // a paying one, and says so.
  const subs = c.subscriptions || [];
  /** @param {import('../types').Subscription} x */
  const kind = (x) =>
    [x.environment === 'SANDBOX' ? 'sandbox' : null, x.periodType === 'TRIAL' ? 'trial' : null, x.isFamilyShare ? 'family share' : null]
      .filter(Boolean)
      .join(', ');
  const subscriptions = el(
    'table',
    { id: 'subscriptions' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Subscription', 'Status', 'Product', 'Store', 'Environment', 'Period', 'Price', 'Counts as', 'Expires'].map((h) =>
          el('th', { scope: 'col' }, h),
        ),
      ),
    ),
    el(
      'tbody',
      {},
      ...subs.map((x) =>
        el(
          'tr',
          {},
          el('td', {}, x.key),
          el('td', {}, el('span', { class: 'status ' + x.status }, x.status)),
          el('td', {}, x.productId || '—'),
          el('td', {}, x.store || '—'),
          el('td', {}, x.environment || '—'),
          el('td', {}, x.periodType || '—'),
          el('td', {}, x.priceUsd === null ? '—' : money(x.priceUsd)),
          el('td', {}, x.mrrMicros > 0 ? money(x.mrrMicros / 1e6) + '/mo' : kind(x) || 'no MRR'),
          el('td', {}, x.expiresAtMs === null ? 'no end' : when(new Date(x.expiresAtMs).toISOString())),
        ),
      ),
    ),
  );
  box.append(
    el('h2', {}, `Customer ${c.id}`),
    el('p', {}, navLink('← Customers', { view: 'customers' })),
    el('section', { class: 'panel' }, facts),
    el('h3', {}, 'Subscriptions'),
    subs.length ? scrollBox('Subscriptions', subscriptions) : el('p', {}, 'None.'),
    el('h3', {}, 'Timeline (newest first)'),
  );
  const list = el('ol', { class: 'timeline', id: 'timeline' });
  const more = el('button', { type: 'button', hidden: true }, 'Older events');
  const status = el('div', { class: 'list-status' });
  box.append(list, status, el('p', {}, more));
  /** @type {string | null} */
  let cursor = null;
  const load = async () => {
    more.disabled = true;
    status.replaceChildren(loading(cursor ? 'older events' : 'the timeline'));
    /** @type {{ entries: TimelineEntry[], nextCursor: string | null }} */
    let page;
    try {
      page = await api('/v1/billing/customers/' + encodeURIComponent(c.id) + '/timeline' + scopeQuery({ limit: 50, cursor }));
      status.replaceChildren();
    } catch (err) {
      status.replaceChildren(problemBox(err, () => load().catch(() => {})));
      throw err;
    } finally {
      more.disabled = false;
    }
    // Events applied in one write (a batch the relay sent together) share the record's before and after: say so,
    // rather than show each as if it alone made the whole change.
    /** @type {Map<number, number>} */
    const perVersion = new Map();
    for (const e of page.entries) perVersion.set(e.version, (perVersion.get(e.version) || 0) + 1);
    for (const e of page.entries) {
      const together = (perVersion.get(e.version) || 1) - 1;
      const changeText = `${snapshotText(e.before)} → ${snapshotText(e.after)}`;
      list.append(
        el(
          'li',
          { 'data-event-id': e.eventId },
          el('strong', {}, e.type),
          ' ',
          el('span', { class: 'muted' }, `event ${e.eventId}`),
          el(
            'div',
            { class: 'muted' },
            `provider time ${when(e.providerAt)} · received ${when(e.receivedAt)} · applied ${when(e.appliedAt)}`,
          ),
          el(
            'div',
            { class: 'change' },
            together > 0 ? `applied with ${together} other event${together > 1 ? 's' : ''} in one write: ${changeText}` : changeText,
          ),
        ),
      );
    }
    if (!cursor && page.entries.length === 0) list.append(el('li', {}, 'No event recorded yet.'));
    cursor = page.nextCursor;
    more.hidden = !cursor;
  };
  more.addEventListener('click', () => load().catch(() => {}));
  await load();
}
