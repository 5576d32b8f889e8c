// @ts-check
// The event log: every webhook delivery to the scope's receiver and what became of it (accepted, duplicate,
// ignored, conflict, or refused and why), newest first, filtered in the address; each opens in place to show
// what was delivered (an accepted event's JSON, as text) and links to its customer, timeline entry and workflow.
import { api } from '../api.js';
import { csvButton } from '../csv.js';
import { openInPlace } from '../detail-row.js';
import { el, safeUrl } from '../dom.js';
import { timeEl, when, zoneName } from '../format.js';
import { go, hrefWith, navLink, params, scopeQuery } from '../nav.js';
import { pagedList } from '../paged-list.js';
import { explain } from '../reasons.js';
import { me } from '../session.js';

/**
 * @typedef {{ id: string, bucket: string, at: string, lastAt: string, count: number, outcome: string, status: number,
 *   reason: string | null, detail: string | null, endpoint: string, app: string | null, eventId: string | null,
 *   type: string | null, subscriberId: string | null, workflowId: string | null, workflowUrl: string | null,
 *   deadLetterId: string | null, bodyBytes: number | null,
 *   links: { customer: string | null, timelineEntry: string | null, self: string } }} Entry
 * @typedef {Entry & { body: unknown, bodySource: string | null, bodyExcerpt: string | null,
 *   timeline: { customerId: string, entry: import('../types').TimelineEntry } | null }} EntryDetail
 */

const OUTCOMES = ['accepted', 'duplicate', 'ignored', 'conflict', 'rejected'];
const FILTERS = ['outcome', 'reason', 'type', 'subscriber', 'since', 'until'];

/** `datetime-local` values are in the reader's zone (or UTC with the switch); the API takes ISO instants. */
const toInstant = (/** @type {string} */ local, /** @type {boolean} */ utc) => {
  if (!local) return '';
  const t = Date.parse(utc ? local + 'Z' : local);
  return Number.isNaN(t) ? '' : new Date(t).toISOString();
};
const toLocalInput = (/** @type {string | null} */ iso, /** @type {boolean} */ utc) => {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return '';
  const d = new Date(utc ? t : t - new Date(t).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** @param {HTMLElement} box */
export async function viewEvents(box) {
  const p = params();
  const unattributed = p.get('unattributed') === 'true';
  /** @type {Record<string, string>} */
  const f = Object.fromEntries(FILTERS.map((k) => [k, p.get(k) || '']));
  const utc = p.get('tz') === 'utc';
  const query = (/** @type {string | null} */ cursor, limit = 50) =>
    unattributed
      ? `?unattributed=true&${new URLSearchParams(Object.entries({ ...f, limit: String(limit), cursor: cursor || '' }).filter(([, v]) => v)).toString()}`
      : scopeQuery({ ...f, limit, cursor });
  const form = el(
    'form',
    { class: 'toolbar filters', role: 'search', 'aria-label': 'Filter deliveries' },
    el(
      'label',
      {},
      'Outcome ',
      el(
        'select',
        { name: 'outcome', id: 'event-outcome' },
        el('option', { value: '' }, 'Any outcome'),
        ...OUTCOMES.map((o) => el('option', { value: o, selected: o === f.outcome ? 'selected' : null }, o)),
      ),
    ),
    el(
      'label',
      {},
      'Type ',
      el('input', { name: 'type', id: 'event-type', value: f.type, size: 16, maxlength: 100, placeholder: 'RENEWAL' }),
    ),
    el(
      'label',
      {},
      'Customer ',
      el('input', { name: 'subscriber', id: 'event-subscriber', value: f.subscriber, size: 16, maxlength: 512, placeholder: 'any id' }),
    ),
    el(
      'label',
      {},
      `From (${zoneName()}) `,
      el('input', { name: 'since', id: 'event-since', type: 'datetime-local', value: toLocalInput(f.since || null, utc) }),
    ),
    el(
      'label',
      {},
      'To ',
      el('input', { name: 'until', id: 'event-until', type: 'datetime-local', value: toLocalInput(f.until || null, utc) }),
    ),
    el('button', { type: 'submit' }, 'Apply'),
    FILTERS.some((k) => f[k]) ? navLink('Clear', { view: 'events', unattributed: unattributed ? 'true' : null }) : null,
  );
  /** @param {string} name */
  const field = (name) => /** @type {HTMLInputElement | HTMLSelectElement} */ (form.elements.namedItem(name));
  const apply = () =>
    go(
      hrefWith(
        {
          view: 'events',
          unattributed: unattributed ? 'true' : null,
          outcome: field('outcome').value,
          reason: f.reason && field('outcome').value === f.outcome ? f.reason : null,
          type: field('type').value.trim(),
          subscriber: field('subscriber').value.trim(),
          since: toInstant(field('since').value, utc),
          until: toInstant(field('until').value, utc),
        },
        false,
      ),
    );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });
  field('outcome').addEventListener('change', apply);
  const fetchPage = async (/** @type {string | null} */ cursor, limit = 50) => {
    const page = await api('/v1/billing/events' + query(cursor, limit));
    return { items: /** @type {Entry[]} */ (page.events), nextCursor: /** @type {string | null} */ (page.nextCursor) };
  };
  box.append(
    el('h2', {}, unattributed ? 'Event log · unattributed deliveries' : 'Event log'),
    el(
      'p',
      { class: 'muted' },
      unattributed
        ? 'Deliveries no app can be named for: an unknown ?app= slug, or none. '
        : 'Every webhook delivery to this scope, newest first: what arrived, what the receiver answered, and why it refused one (the caller always gets the same 401). ',
      me.admin && !unattributed ? navLink('Unattributed deliveries', { view: 'events', unattributed: 'true' }) : null,
      unattributed ? navLink('← This scope', { view: 'events' }) : null,
    ),
    form,
    f.reason
      ? el('p', { class: 'muted' }, `Reason: ${f.reason} — ${explain(f.reason)} `, navLink('any reason', { reason: null }, true))
      : '',
    el(
      'p',
      {},
      csvButton(
        'event-log.csv',
        [
          'time',
          'last',
          'count',
          'outcome',
          'status',
          'reason',
          'type',
          'event id',
          'customer',
          'workflow id',
          'app',
          'receiver',
          'detail',
        ],
        (e) => [
          e.at,
          e.lastAt,
          e.count,
          e.outcome,
          e.status,
          e.reason,
          e.type,
          e.eventId,
          e.subscriberId,
          e.workflowId,
          e.app,
          e.endpoint,
          e.detail,
        ],
        (cursor) => fetchPage(cursor, 200),
      ),
    ),
  );
  await pagedList(
    box,
    (cursor) => fetchPage(cursor),
    () => {
      const body = el('tbody');
      const head = ['Time', 'Outcome', 'Reason', 'Type', 'Event', 'Customer', ''];
      /** @param {Entry[]} list */
      const add = (list) =>
        list.forEach((e) => {
          const {
            button: details,
            row: detailRow,
            toggle,
          } = openInPlace({
            id: e.id,
            param: 'entry',
            dataName: 'data-event-details',
            detailId: 'event-detail-' + body.children.length,
            columns: head.length,
            what: 'what was delivered',
            fetch: async () => entryDetail(/** @type {EntryDetail} */ (await api(e.links.self))),
          });
          if (params().get('entry') === e.id) void toggle();
          body.append(
            el(
              'tr',
              {
                'data-entry': e.id,
                'data-outcome': e.outcome,
                class: e.outcome === 'rejected' || e.outcome === 'conflict' ? 'flagged' : null,
              },
              el(
                'td',
                {},
                timeEl(e.at),
                e.count > 1 ? el('div', { class: 'muted' }, `${e.count} deliveries, the last `, timeEl(e.lastAt)) : null,
              ),
              el(
                'td',
                {},
                el('span', { class: 'status outcome-' + e.outcome }, e.outcome),
                ' ',
                el('span', { class: 'muted' }, String(e.status)),
              ),
              el('td', {}, e.reason ? el('code', { title: explain(e.reason) }, e.reason) : '—'),
              el('td', {}, e.type || '—'),
              el('td', {}, e.eventId || '—'),
              el(
                'td',
                {},
                e.subscriberId && !unattributed
                  ? navLink(e.subscriberId, { view: 'customer', id: e.subscriberId })
                  : unattributed
                    ? e.app || '—'
                    : '—',
              ),
              el('td', { class: 'actions' }, details),
            ),
            detailRow,
          );
        });
      return {
        table: el('table', { id: 'events' }, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))), body),
        add,
      };
    },
    FILTERS.some((k) => f[k]) ? 'No delivery matches.' : 'No delivery yet.',
  );
}

/** One delivery in full: the reason explained, the links, the timeline entry, what was delivered (as text). @param {EntryDetail} d */
function entryDetail(d) {
  const facts = el('dl', { class: 'facts' });
  /** @param {string} k @param {...(Node | string)} v */
  const fact = (k, ...v) => facts.append(el('dt', {}, k), el('dd', {}, ...v));
  fact('Received', timeEl(d.at), d.count > 1 ? ` (and ${d.count - 1} more until ${when(d.lastAt)})` : '');
  fact('Answer', `${d.status} · ${d.outcome}`, d.reason ? ` · ${d.reason}` : '');
  if (d.reason) fact('Why', explain(d.reason) || d.reason);
  if (d.detail) fact('Detail', d.detail);
  fact('Receiver', d.endpoint === 'operator' ? 'operator' : `app ${d.app ?? '—'}`);
  if (d.bodyBytes !== null) fact('Body size', `${d.bodyBytes} bytes`);
  if (d.subscriberId) fact('Customer', navLink(d.subscriberId, { view: 'customer', id: d.subscriberId, entry: null }));
  if (d.timeline)
    fact(
      'Timeline entry',
      navLink(`${d.timeline.entry.type}, applied ${when(d.timeline.entry.appliedAt)}`, {
        view: 'customer',
        id: d.timeline.customerId,
        event: d.timeline.entry.eventId,
        entry: null,
      }),
    );
  else if (d.subscriberId && d.outcome !== 'rejected')
    fact('Timeline entry', d.outcome === 'ignored' ? 'none: ignored events change nothing' : 'not applied yet');
  const workflow = safeUrl(d.workflowUrl);
  if (d.workflowId)
    fact(
      'Workflow',
      workflow ? el('a', { href: workflow, target: '_blank', rel: 'noopener noreferrer' }, d.workflowId + ' (Temporal UI)') : d.workflowId,
    );
  if (d.deadLetterId) fact('Dead letter', navLink(d.deadLetterId, { view: 'work', entry: null }));
  /** @param {string} label @param {string} text */
  const block = (label, text) => el('pre', { class: 'payload', tabindex: '0', 'aria-label': label, id: 'event-body' }, text);
  const body =
    d.body !== null && d.body !== undefined
      ? [
          el('h4', {}, d.bodySource === 'dead_letter' ? 'The conflicting body (kept with its dead letter)' : 'The event as delivered'),
          block(`Body of delivery ${d.id}`, JSON.stringify(d.body, null, 2)),
        ]
      : d.bodyExcerpt !== null
        ? [el('h4', {}, 'The body as sent (the first 4 KiB)'), block(`Body of delivery ${d.id}`, d.bodyExcerpt)]
        : [
            el(
              'p',
              { class: 'muted' },
              d.bodySource === 'expired'
                ? 'The body is no longer kept: the webhook inbox keeps events for WEBHOOK_EVENT_RETENTION_DAYS.'
                : d.status === 401
                  ? 'Nothing of an unauthorized delivery is read or kept.'
                  : 'No body was kept.',
            ),
          ];
  return [facts, ...body];
}
