// @ts-check
// DOM helpers. Data is always inserted as text or as elements built here: no string from the API is ever parsed
// as HTML.
import { ApiError } from './api.js';

/**
 * The page's element with this id (the page always has the ones the console asks for).
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Record<string, unknown>} Attrs */

/**
 * An element with attributes (`class`, `text`, `on…` listeners, the rest as attributes; null, undefined and false
 * leave one out) and children (text for anything that is not a node).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = String(v);
    else if (k === 'text') e.textContent = String(v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else e.setAttribute(k, String(v));
  }
  for (const c of children)
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/**
 * A wide table scrolls inside its box on a phone; the box takes the keyboard's focus so it can be scrolled too.
 * @param {string} label
 * @param {Node} table
 */
export const scrollBox = (label, table) => el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);

/** An address that may become a link: http(s) only. @param {unknown} u */
export const safeUrl = (u) => (typeof u === 'string' && /^https?:\/\//i.test(u) ? u : null);

/** "Loading …" with a spinner, announced as a status. @param {string} what */
export const loading = (what) =>
  el('p', { class: 'loading', role: 'status' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), `Loading ${what}…`);

/**
 * A problem+json answer (or a network failure) as a box: its title, detail and field errors, and a Retry button.
 * @param {unknown} err
 * @param {(() => unknown) | null} retry
 */
export function problemBox(err, retry) {
  const status = err instanceof ApiError ? err.status : null;
  /** @type {Record<string, unknown>} */
  const body = err instanceof ApiError && err.body && typeof err.body === 'object' ? err.body : {};
  const title = typeof body.title === 'string' ? body.title : status ? `HTTP ${status}` : 'Something went wrong';
  const message = err instanceof Error ? err.message : String(err);
  const detail = typeof body.detail === 'string' ? body.detail : err instanceof ApiError ? '' : message;
  const errors = Array.isArray(body.errors) ? /** @type {{ path?: string, message?: string }[]} */ (body.errors) : [];
  const box = el(
    'div',
    { class: 'problem', role: 'alert', 'data-status': status === null ? 'error' : String(status) },
    el('p', { class: 'problem-title' }, el('strong', {}, title), status ? ` (${status}${body.code ? ', ' + String(body.code) : ''})` : ''),
    detail ? el('p', { class: 'problem-detail' }, detail) : null,
    errors.length
      ? el('ul', {}, ...errors.slice(0, 20).map((e) => el('li', {}, el('code', {}, (e && e.path) || '/'), ' ', (e && e.message) || '')))
      : null,
  );
  if (status === 401)
    box.append(
      el(
        'p',
        {},
        'Your token was refused (expired, or not one this service accepts). Paste a new token above: this view opens again with it.',
      ),
    );
  else if (retry) {
    const again = el('button', { type: 'button', class: 'retry' }, 'Retry');
    again.addEventListener('click', () => retry());
    box.append(el('p', {}, again));
  }
  return box;
}

/** An action's failure (redeliver, retry, cancel), shown above the view until the next one. @param {unknown} err */
export const showError = (err) => {
  $('error').replaceChildren(problemBox(err, null));
};

/**
 * A table with a header row and a body to fill.
 * @param {string[]} head
 * @param {Attrs} [attrs]
 */
export function tableWithHead(head, attrs = {}) {
  const body = el('tbody');
  const table = el('table', attrs, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))), body);
  return { table, body };
}
