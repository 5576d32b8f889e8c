// @ts-check
// One endpoint's deliveries, newest first: every attempt's status code, latency and error, the next retry,
// redelivery, and each delivery's payload and answers, opened in place as text.
import { api } from '../api.js';
import { openInPlace } from '../detail-row.js';
import { el, showError } from '../dom.js';
import { timeEl, when } from '../format.js';
import { params } from '../nav.js';
import { pagedList } from '../paged-list.js';

/** @typedef {import('../types').Delivery} Delivery */
/** @typedef {import('../types').Attempt} Attempt */

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewDeliveries(box, current) {
  const app = params().get('app');
  const endpoint = params().get('endpoint') || '';
  const base = '/v1/apps/' + encodeURIComponent(app || '') + '/webhook-endpoints/' + encodeURIComponent(endpoint);
  const ep = await api(base);
  if (!current()) return;
  box.append(
    el('h2', {}, 'Delivery log'),
    el('p', {}, el('code', {}, ep.url), ' ', ep.disabled ? 'disabled: ' + (ep.disabledReason || 'yes') : ''),
  );
  const section = el('section', { id: 'deliveries' });
  box.append(section);
  /** @type {Map<string, () => Promise<void>>} */
  const toggles = new Map();
  await pagedList(
    section,
    async (cursor) => {
      const p = await api(base + '/deliveries' + (cursor ? '?cursor=' + encodeURIComponent(cursor) : ''));
      return { items: /** @type {Delivery[]} */ (p.deliveries), nextCursor: p.nextCursor };
    },
    () => {
      const body = el('tbody');
      const head = ['Event', 'Type', 'Status', 'Attempts (status code · latency · error)', 'Next retry', ''];
      /** @param {Delivery[]} list */
      const add = (list) =>
        list.forEach((d) => {
          const attempts = el(
            'ol',
            {},
            ...(d.attempts || []).map((a) =>
              el(
                'li',
                {},
                `${when(a.at)} · ${a.statusCode === null ? 'no answer' : a.statusCode} · ${a.latencyMs === null ? '—' : a.latencyMs + ' ms'}${a.error ? ' · ' + a.error : ''}`,
              ),
            ),
          );
          const redeliver = ['failed', 'succeeded'].includes(d.status)
            ? el('button', { type: 'button', 'data-redeliver': d.id }, 'Redeliver')
            : null;
          if (redeliver)
            redeliver.addEventListener('click', async () => {
              redeliver.disabled = true;
              try {
                await api(base + '/deliveries/' + encodeURIComponent(d.id) + '/redeliver', { method: 'POST' });
                redeliver.textContent = 'Redelivery started';
              } catch (err) {
                redeliver.disabled = false;
                showError(err);
              }
            });
          const {
            button: details,
            row: detailRow,
            toggle,
          } = openInPlace({
            id: d.id,
            param: 'delivery',
            dataName: 'data-details',
            detailId: 'delivery-detail-' + body.children.length,
            columns: head.length,
            what: 'the payload and responses',
            fetch: async () => deliveryDetail(await api(base + '/deliveries/' + encodeURIComponent(d.id))),
          });
          toggles.set(d.id, toggle);
          body.append(
            el(
              'tr',
              { 'data-delivery': d.id },
              el('td', {}, d.eventId),
              el('td', {}, d.eventType),
              el('td', {}, d.status),
              el('td', {}, attempts),
              el('td', {}, timeEl(d.nextRetryAt)),
              el('td', { class: 'actions' }, details, redeliver),
            ),
            detailRow,
          );
        });
      return { table: el('table', {}, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))), body), add };
    },
    'No delivery yet.',
  );
  const open = params().get('delivery');
  const toggle = open ? toggles.get(open) : undefined;
  if (toggle) await toggle();
}

/** What was sent and what came back, as text: a receiver's answer is never parsed as HTML. @param {Delivery} d */
function deliveryDetail(d) {
  /** @param {string} text */
  const pretty = (text) => {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  };
  /** @param {string} label @param {string} text */
  const block = (label, text) => el('pre', { class: 'payload', tabindex: '0', 'aria-label': label }, text);
  const bytes = new TextEncoder().encode(d.request.body || '').length;
  const limit = Math.round((d.responseBodyLimitBytes || 4096) / 1024);
  /** @param {Attempt} a */
  const answer = (a) => {
    if (a.statusCode === null) return el('p', { class: 'muted' }, 'No answer' + (a.error ? ': ' + a.error : ''));
    if (a.responseBody === null || a.responseBody === undefined)
      return el('p', { class: 'muted' }, 'Answer not kept (logged before answers were).');
    if (a.responseBody === '') return el('p', { class: 'muted' }, 'Empty answer.');
    return el(
      'div',
      {},
      block(`Response body of attempt ${a.attempt}`, pretty(a.responseBody)),
      a.responseBodyTruncated ? el('p', { class: 'muted' }, `The first ${limit} KiB of a longer answer.`) : null,
    );
  };
  return [
    el('h4', {}, 'Request'),
    el('p', {}, 'POST ', el('code', {}, d.request.url)),
    el(
      'dl',
      { class: 'facts' },
      ...Object.entries(d.request.headers || {}).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, el('code', {}, v))]),
    ),
    el('p', { class: 'muted' }, `Payload (${bytes} bytes, signed as sent; shown indented):`),
    block(`Payload of delivery ${d.id}`, pretty(d.request.body || '')),
    el('h4', {}, `Responses (${d.attempts.length})`),
    d.attempts.length === 0
      ? el('p', { class: 'muted' }, 'Not attempted yet.')
      : el(
          'ol',
          { class: 'responses' },
          ...d.attempts.map((a) =>
            el(
              'li',
              { 'data-attempt': a.attempt },
              el(
                'p',
                {},
                el('strong', {}, a.statusCode === null ? 'no answer' : String(a.statusCode)),
                ` · ${when(a.at)} · ${a.latencyMs === null ? '—' : a.latencyMs + ' ms'}`,
              ),
              answer(a),
            ),
          ),
        ),
  ];
}
