// @ts-check
// The view lives in the query string (scope, page, customer, invocation, filters), never the token: a reload or a
// shared link shows the same view. Internal links navigate in place, so the token in memory survives.
import { $, el } from './dom.js';

/** @type {() => unknown} */
let renderView = () => undefined;

/** Sets what draws the view the address names (main.js). @param {() => unknown} render */
export function whenNavigating(render) {
  renderView = render;
}

export const params = () => new URLSearchParams(location.search);

/** What every view keeps of the address: the scope, and the zone times are shown in. */
const KEPT = ['app', 'scope', 'tz'];

/**
 * The address of this view with `changes` (null or '' removes a parameter). `keep`: false keeps only the scope
 * and the time zone.
 * @param {Record<string, string | number | null | undefined>} changes
 * @param {boolean} [keep]
 */
export function hrefWith(changes, keep = true) {
  const p = keep ? params() : new URLSearchParams();
  if (!keep) for (const k of KEPT) if (params().has(k)) p.set(k, /** @type {string} */ (params().get(k)));
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') p.delete(k);
    else p.set(k, String(v));
  }
  return location.pathname + '?' + p.toString();
}

/** Opens another view in place. @param {string} href */
export function go(href) {
  history.pushState(null, '', href);
  renderView();
  $('main').focus();
}

/** Follows the page's own links in place, and the browser's back and forward. */
export function handleNavigation() {
  document.addEventListener('click', (e) => {
    const target = /** @type {Element | null} */ (e.target);
    const a = target && target.closest ? target.closest('a[data-nav]') : null;
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    go(/** @type {string} */ (a.getAttribute('href')));
  });
  window.addEventListener('popstate', () => renderView());
}

/**
 * A link to another view of the console.
 * @param {string} label
 * @param {Record<string, string | number | null | undefined>} changes
 * @param {boolean} [keep]
 */
export const navLink = (label, changes, keep = false) => el('a', { href: hrefWith(changes, keep), 'data-nav': '' }, label);

/** The scope the address names: `app:{slug}`, `operator`, or '' for none. */
export function currentScope() {
  const app = params().get('app');
  if (app) return 'app:' + app;
  return params().get('scope') === 'operator' ? 'operator' : '';
}

/**
 * The query string of a billing request: the scope's app, and `extra` (empty values left out).
 * @param {Record<string, string | number | null | undefined>} [extra]
 */
export function scopeQuery(extra = {}) {
  const p = new URLSearchParams();
  const app = params().get('app');
  if (app) p.set('app', app);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? '?' + s : '';
}
