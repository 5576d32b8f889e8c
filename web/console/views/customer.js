// @ts-check
// One customer: status, entitlements, the scheduled downgrade, flags, aliases, merges, what it paid and was
// refunded, since when and from where, its subscriptions, its workflow, and the timeline of every event applied
// to it (each with its own before → after, its price or refund), exportable as CSV.
import { api } from '../api.js';
import { csvButton } from '../csv.js';
import { el, loading, problemBox, safeUrl, scrollBox } from '../dom.js';
import { money, timeEl, timeLeft, when } from '../format.js';
import { navLink, params, scopeQuery } from '../nav.js';

/** @typedef {import('../types').Customer} Customer */
/** @typedef {import('../types').Snapshot} Snapshot */
/** @typedef {import('../types').TimelineEntry} TimelineEntry */

/** A snapshot as a sentence (its times by the console's one rule). @param {Snapshot | null} s */
export function snapshotText(s) {
  if (!s) return 'new record';
  const ents = s.entitlements.map((e) => e.id + (e.expiresAt ? ' until ' + when(e.expiresAt) : '')).join(', ') || 'none';
  return `${s.status}; entitlements ${ents}; ${money(s.mrrContribution)}/mo${s.flagged ? '; flagged' : ''}${s.scheduledDowngradeAt ? '; downgrade ' + when(s.scheduledDowngradeAt) : ''}`;
}

/** What an event says about money: "$9.99 paid", "$9.99 refunded". @param {TimelineEntry} e */
export function moneyText(e) {
  const f = e.facts;
  if (!f || f.priceUsd === null) return '';
  if (f.kind === 'refund') return `${money(Math.abs(f.priceUsd))} refunded`;
  if (['purchase', 'renewal', 'conversion', 'one_time'].includes(f.kind) && f.priceUsd > 0)
    return `${money(f.priceUsd)} paid${f.environment === 'SANDBOX' ? ' (sandbox)' : ''}${f.kind === 'conversion' ? ', trial converted' : ''}`;
  return '';
}

/** @param {TimelineEntry} e @param {number} together how many other events its write applied */
function timelineItem(e, together) {
  const changeText = `${snapshotText(e.before)} → ${snapshotText(e.after)}`;
  const shared = !e.ownChange && together > 0;
  const paid = moneyText(e);
  return el(
    'li',
    { 'data-event-id': e.eventId, id: 'event-' + e.eventId },
    el('strong', {}, e.type),
    ' ',
    el('span', { class: 'muted' }, `event ${e.eventId}`),
    paid ? el('span', { class: 'tag money' }, paid) : null,
    el(
      'div',
      { class: 'muted' },
      'provider time ',
      timeEl(e.providerAt),
      ' · received ',
      timeEl(e.receivedAt),
      ' · applied ',
      timeEl(e.appliedAt),
      e.facts && e.facts.country ? ` · ${e.facts.country}` : '',
      e.facts && e.facts.transactionId ? ` · transaction ${e.facts.transactionId}` : '',
    ),
    el(
      'div',
      { class: 'change' },
      shared ? `applied with ${together} other event${together > 1 ? 's' : ''} in one write: ${changeText}` : changeText,
      !shared && together > 0
        ? el('span', { class: 'muted' }, ` (one write with ${together} other event${together > 1 ? 's' : ''})`)
        : null,
    ),
  );
}

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewCustomer(box, current) {
  const id = params().get('id') || '';
  /** @type {Customer} */
  const c = await api('/v1/billing/customers/' + encodeURIComponent(id) + scopeQuery());
  if (!current()) return;
  const workflowUrl = safeUrl(c.workflowUrl);
  const wf = workflowUrl
    ? el('a', { href: workflowUrl, target: '_blank', rel: 'noopener noreferrer' }, c.workflowId + ' (Temporal UI)')
    : c.workflowId;
  const facts = el('dl', { class: 'facts' });
  /** @param {string} k @param {...(Node | string | null)} v */
  const fact = (k, ...v) => facts.append(el('dt', {}, k), el('dd', {}, ...v));
  const refunded = (c.subscriptions || []).some((x) => x.status === 'refunded');
  fact(
    'Status',
    el('span', { class: 'status ' + c.status, id: 'customer-status' }, c.status),
    refunded ? el('span', { class: 'tag refunded' }, 'refunded') : null,
  );
  fact('MRR contribution', money(c.mrrContribution) + '/mo');
  if (c.facts) {
    fact('Customer since', timeEl(c.facts.since));
    fact(
      'Lifetime spend',
      el('span', { id: 'lifetime-spend' }, money(c.facts.lifetimeSpendUsd)),
      c.facts.partial ? ' (its newest 5,000 events)' : '',
    );
    fact(
      'Refunds',
      el('span', { id: 'refunds' }, c.facts.refunds.count ? `${c.facts.refunds.count} · ${money(c.facts.refunds.amountUsd)}` : 'none'),
    );
    fact('Country', el('span', { id: 'country' }, c.facts.country || '—'));
  }
  fact(
    'Entitlements',
    ...(c.entitlements.length
      ? c.entitlements.flatMap((e, i) => [i ? '; ' : '', `${e.id} (${e.productId || '—'}) until `, timeEl(e.expiresAt)])
      : ['none']),
  );
  fact(
    'Scheduled downgrade',
    ...(c.scheduledDowngrade
      ? [timeEl(c.scheduledDowngrade.at), ` · ${c.scheduledDowngrade.reason} · ${timeLeft(c.scheduledDowngrade.at)}`]
      : ['none']),
  );
  fact(
    'Flags',
    ...(c.flags.length
      ? c.flags.flatMap((f, i) => [i ? '; ' : '', `${f.type} since `, timeEl(f.since), ` (event ${f.eventId})`])
      : ['none']),
  );
  fact('Aliases', c.aliases.length ? c.aliases.join(', ') : 'none');
  fact('Merged into', c.mergedInto ? navLink(c.mergedInto, { view: 'customer', id: c.mergedInto }) : '—');
  fact('Last event', ...(c.lastEvent ? [`${c.lastEvent.type} at `, timeEl(c.lastEvent.at)] : ['—']));
  fact('Workflow', wf);
  fact('Deliveries', navLink('its webhook deliveries in the event log', { view: 'events', subscriber: c.id }));
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
          el(
            'td',
            {},
            x.status === 'refunded' ? 'refunded: no MRR' : x.mrrMicros > 0 ? money(x.mrrMicros / 1e6) + '/mo' : kind(x) || 'no MRR',
          ),
          el('td', {}, x.expiresAtMs === null ? 'no end' : timeEl(x.expiresAtMs)),
        ),
      ),
    ),
  );
  const timelinePage = (/** @type {string | null} */ cursor, limit = 50) =>
    api('/v1/billing/customers/' + encodeURIComponent(c.id) + '/timeline' + scopeQuery({ limit, cursor }));
  box.append(
    el('h2', { class: 'wrap' }, `Customer ${c.id}`),
    el('p', {}, navLink('← Customers', { view: 'customers' })),
    el('section', { class: 'panel' }, facts),
    el('h3', {}, 'Subscriptions'),
    subs.length ? scrollBox('Subscriptions', subscriptions) : el('p', {}, 'None.'),
  );
  const linked = params().get('event');
  if (linked) await linkedEntry(box, c, linked);
  box.append(
    el('h3', {}, 'Timeline (newest first)'),
    el(
      'p',
      {},
      csvButton(
        `timeline-${c.id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)}.csv`,
        [
          'event id',
          'type',
          'provider time',
          'received',
          'applied',
          'price (USD)',
          'kind',
          'product',
          'store',
          'environment',
          'country',
          'transaction',
          'status before',
          'status after',
          'MRR after',
        ],
        (/** @type {TimelineEntry} */ e) => [
          e.eventId,
          e.type,
          e.providerAt,
          e.receivedAt,
          e.appliedAt,
          e.facts ? e.facts.priceUsd : null,
          e.facts ? e.facts.kind : null,
          e.facts ? e.facts.productId : null,
          e.facts ? e.facts.store : null,
          e.facts ? e.facts.environment : null,
          e.facts ? e.facts.country : null,
          e.facts ? e.facts.transactionId : null,
          e.before ? e.before.status : 'new record',
          e.after.status,
          e.after.mrrContribution,
        ],
        async (cursor) => {
          const page = await timelinePage(cursor, 200);
          return { items: page.entries, nextCursor: page.nextCursor };
        },
      ),
    ),
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
      page = await timelinePage(cursor);
      status.replaceChildren();
    } catch (err) {
      status.replaceChildren(problemBox(err, () => load().catch(() => {})));
      throw err;
    } finally {
      more.disabled = false;
    }
    // Events applied in one write (a batch the relay sent together) share a version: each keeps its own before and
    // after when the store could work them out (ownChange), else they share the write's, and say so.
    /** @type {Map<number, number>} */
    const perVersion = new Map();
    for (const e of page.entries) perVersion.set(e.version, (perVersion.get(e.version) || 0) + 1);
    for (const e of page.entries) list.append(timelineItem(e, (perVersion.get(e.version) || 1) - 1));
    if (!cursor && page.entries.length === 0) list.append(el('li', {}, 'No event recorded yet.'));
    cursor = page.nextCursor;
    more.hidden = !cursor;
  };
  more.addEventListener('click', () => load().catch(() => {}));
  await load();
}

/**
 * The timeline entry an event log link names (`event=`), shown above the timeline, whichever page it is on.
 * @param {HTMLElement} box @param {Customer} c @param {string} eventId
 */
async function linkedEntry(box, c, eventId) {
  const section = el('section', { id: 'linked-event', class: 'linked' }, el('h3', {}, 'The event you followed'));
  box.append(section);
  try {
    const { entry } = await api(
      '/v1/billing/customers/' + encodeURIComponent(c.id) + '/timeline/' + encodeURIComponent(eventId) + scopeQuery(),
    );
    section.append(el('ol', { class: 'timeline' }, timelineItem(entry, 0)));
  } catch (err) {
    section.append(problemBox(err, null));
  }
}
