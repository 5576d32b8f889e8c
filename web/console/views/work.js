// @ts-check
// Work lists: flagged customers, downgrades due, dead-lettered events (an admin retries one), and the app's
// outbound webhook endpoints, failing ones first.
import { api, ApiError } from '../api.js';
import { customerTable } from '../customer-table.js';
import { el, scrollBox, showError, tableWithHead } from '../dom.js';
import { timeEl } from '../format.js';
import { navLink, params, scopeQuery } from '../nav.js';
import { pagedList } from '../paged-list.js';
import { me } from '../session.js';

/** @typedef {import('../types').DeadLetter} DeadLetter */
/** @typedef {import('../types').Endpoint} Endpoint */

/** @param {HTMLElement} box */
export async function viewWork(box) {
  const days = Number(params().get('days')) || 7;
  box.append(el('h2', {}, 'Work lists'));
  const flagged = el('section', {}, el('h3', {}, 'Flagged customers'));
  const downs = el(
    'section',
    {},
    el('h3', {}, `Downgrades due in the next ${days} days `),
    el('span', { class: 'muted' }, ...[7, 30, 90].flatMap((d) => [navLink(`${d} d`, { view: 'work', days: String(d) }), ' '])),
  );
  const dead = el('section', { id: 'dead-letters' }, el('h3', {}, 'Dead-lettered events'));
  box.append(flagged, downs, dead);
  await pagedList(
    flagged,
    async (cursor) => {
      const p = await api('/v1/billing/customers' + scopeQuery({ flagged: 'true', limit: 25, cursor }));
      return { items: p.customers, nextCursor: p.nextCursor };
    },
    () => customerTable(null),
    'No flagged customers.',
  );
  await pagedList(
    downs,
    async (cursor) => {
      const p = await api('/v1/billing/downgrades' + scopeQuery({ days, limit: 25, cursor }));
      return { items: p.customers, nextCursor: p.nextCursor };
    },
    () => customerTable(null),
    'No downgrade due.',
  );
  await pagedList(
    dead,
    async (cursor) => {
      const p = await api('/v1/billing/dead-letters' + scopeQuery({ limit: 25, cursor }));
      return { items: /** @type {DeadLetter[]} */ (p.deadLetters), nextCursor: p.nextCursor };
    },
    () => {
      const { table, body } = tableWithHead(['Event', 'Type', 'Customer', 'Stage', 'Reason', 'Parked', 'Attempts', 'Retried', '']);
      /** @param {DeadLetter[]} list */
      const add = (list) =>
        list.forEach((d) => {
          const actions = el('td', { class: 'dead-letter-actions' }, deadLetterActions(d));
          body.append(
            el(
              'tr',
              { 'data-dead-letter': d.id },
              el('td', {}, d.eventId),
              el('td', {}, d.type),
              el('td', {}, d.subscriberId ? navLink(d.subscriberId, { view: 'customer', id: d.subscriberId }) : '—'),
              el('td', {}, d.stage),
              el('td', { class: 'reason' }, d.reason),
              el('td', {}, timeEl(d.parkedAt)),
              el('td', {}, d.attempts),
              el('td', {}, timeEl(d.retriedAt)),
              actions,
            ),
          );
        });
      return { table, add };
    },
    'No dead-lettered event.',
  );
  const app = params().get('app');
  if (app) await failingEndpoints(box, app);
}

/**
 * What can be done with a parked record: Retry when a retry can succeed (admins), else why not, and Discard with
 * a reason (admins), which puts it aside for good.
 * @param {DeadLetter} d
 */
function deadLetterActions(d) {
  const box = el('div', { class: 'actions-box' });
  if (!d.retryable && d.notRetryableReason) box.append(el('p', { class: 'muted why-not', 'data-why-not': d.id }, d.notRetryableReason));
  if (!me.admin || d.status !== 'parked') return box;
  if (d.retryable) {
    const retry = el('button', { type: 'button', 'data-retry': d.id }, 'Retry');
    retry.addEventListener('click', async () => {
      retry.disabled = true;
      try {
        await api('/v1/billing/dead-letters/' + encodeURIComponent(d.id) + '/retry', { method: 'POST' });
        retry.textContent = 'Retry requested';
      } catch (err) {
        retry.disabled = false;
        showError(err);
      }
    });
    box.append(retry, ' ');
  }
  const discard = el('button', { type: 'button', 'data-discard': d.id, 'aria-expanded': 'false' }, 'Discard…');
  const reason = el('input', {
    name: 'reason',
    required: 'required',
    maxlength: 500,
    size: 28,
    placeholder: 'why (kept with it)',
    'aria-label': 'Why it is discarded',
  });
  const form = el(
    'form',
    { class: 'discard', hidden: true, 'data-discard-form': d.id },
    reason,
    ' ',
    el('button', { type: 'submit' }, 'Discard'),
  );
  discard.addEventListener('click', () => {
    form.hidden = !form.hidden;
    discard.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) reason.focus();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    submit.disabled = true;
    try {
      const done = await api('/v1/billing/dead-letters/' + encodeURIComponent(d.id) + '/discard', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ reason: reason.value }),
      });
      box.replaceChildren(el('p', { class: 'muted', 'data-discarded': d.id }, `Discarded: ${done.discardReason}`));
    } catch (err) {
      submit.disabled = false;
      showError(err);
    }
  });
  box.append(discard, form);
  return box;
}

/**
 * The app's outbound webhook endpoints (a private preview), failing ones first, each linking to its delivery log.
 * @param {HTMLElement} box
 * @param {string} app
 */
async function failingEndpoints(box, app) {
  const section = el('section', { id: 'failing-endpoints' }, el('h3', {}, 'Webhook endpoints'));
  box.append(section);
  /** @type {{ endpoints: Endpoint[] }} */
  let list;
  try {
    list = await api('/v1/apps/' + encodeURIComponent(app) + '/webhook-endpoints');
  } catch (err) {
    if (err instanceof ApiError && err.status === 403 && err.body && err.body.code === 'outbound_preview') {
      section.append(
        el('p', { class: 'muted', id: 'outbound-preview' }, 'Outbound webhooks are a private preview, not enabled for this app.'),
      );
      return;
    }
    throw err;
  }
  if (list.endpoints.length === 0) {
    section.append(el('p', { class: 'muted' }, 'No endpoint registered.'));
    return;
  }
  /** @param {Endpoint} e */
  const trouble = (e) => (e.disabled || e.failingSince ? 0 : 1);
  const sorted = [...list.endpoints].sort((a, b) => trouble(a) - trouble(b));
  const { table, body } = tableWithHead(['URL', 'Failing since', 'Disabled', 'Description', '']);
  body.append(
    ...sorted.map((e) =>
      el(
        'tr',
        { 'data-endpoint': e.id, class: trouble(e) === 0 ? 'flagged' : null },
        el('td', {}, e.url),
        el('td', {}, timeEl(e.failingSince)),
        el('td', {}, e.disabled ? e.disabledReason || 'yes' : 'no'),
        el('td', {}, e.description || ''),
        el('td', {}, navLink('Delivery log', { view: 'deliveries', endpoint: e.id })),
      ),
    ),
  );
  section.append(scrollBox('Webhook endpoints', table));
}
