// @ts-check
// The operator console's entry module: the page's chrome (token, scope picker, navigation) and the view the
// address names. Served as files (no inline script: the page's CSP allows scripts from this origin only).
import { api, ApiError, forgetToken, getToken, setToken, takeTokenFromFragment, whenTokenRefused } from './api.js';
import { watchBacklog } from './backlog-banner.js';
import { $, el, loading, problemBox } from './dom.js';
import { showingUtc, showUtc } from './format.js';
import { currentScope, go, handleNavigation, hrefWith, params, whenNavigating } from './nav.js';
import { me, setMe } from './session.js';
import { viewCustomer } from './views/customer.js';
import { viewCustomers } from './views/customers.js';
import { viewDeliveries } from './views/deliveries.js';
import { viewEvents } from './views/events.js';
import { viewInvocation } from './views/invocation.js';
import { viewSkills } from './views/skills.js';
import { viewTrends } from './views/trends.js';
import { viewWork } from './views/work.js';

/** @typedef {(box: HTMLElement, current: () => boolean, rerender: () => unknown) => Promise<void>} View */

/** @type {Record<string, View>} */
const VIEWS = {
  trends: viewTrends,
  customers: viewCustomers,
  customer: viewCustomer,
  events: viewEvents,
  work: viewWork,
  deliveries: viewDeliveries,
  skills: viewSkills,
  invocation: viewInvocation,
};
/** Views that read no billing scope. */
const UNSCOPED = ['skills', 'invocation'];

const tokenField = () => /** @type {HTMLInputElement} */ ($('token'));
const scopeSelect = () => /** @type {HTMLSelectElement} */ ($('scope'));

/**
 * The header as the session is: the token field only while there is no token (or it was refused), the scope
 * picker, who is signed in and a sign-out once there is one.
 * @param {boolean} on
 */
function signedIn(on) {
  $('token-form').hidden = on;
  $('scope-label').hidden = !on;
  $('sign-out').hidden = !on;
  if (!on) $('who').textContent = '';
}

function askForToken() {
  forgetToken();
  signedIn(false);
  $('token-form').classList.add('needs-token');
  tokenField().focus();
}

/** The zone switch: the reader's zone (named) or UTC, kept in the address (`tz=utc`). */
function syncTimeZone() {
  showUtc(params().get('tz') === 'utc');
  const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' })
    .formatToParts(Date.now())
    .find((p) => p.type === 'timeZoneName');
  const toggle = $('tz-toggle');
  toggle.textContent = showingUtc() ? 'Times: UTC' : `Times: ${zone ? zone.value : 'local'}`;
  toggle.setAttribute('aria-pressed', String(showingUtc()));
  toggle.title = showingUtc() ? 'Times are in UTC: show them in your zone' : 'Times are in your zone: show them in UTC';
}

async function loadMe() {
  const s = await api('/v1/console/scopes');
  setMe({ admin: !!s.admin, sub: s.sub, scopes: s.scopes, temporalUiUrl: s.temporalUiUrl });
  $('who').textContent = (s.sub || '') + (s.admin ? ' (admin)' : '');
  signedIn(true);
  scopeSelect().replaceChildren(
    el('option', { value: '', text: '— pick a scope —' }),
    ...me.scopes.map((x) =>
      el('option', { value: x.app === null ? 'operator' : 'app:' + x.app, text: x.app === null ? x.name : `${x.name} (${x.app})` }),
    ),
  );
  syncScopeSelect();
}

function syncScopeSelect() {
  scopeSelect().value = currentScope();
}

/** @param {string} view */
function markNav(view) {
  for (const a of $('nav').querySelectorAll('a')) {
    const v = a.getAttribute('data-view') || '';
    a.setAttribute('href', hrefWith({ view: v }, false));
    a.setAttribute('data-nav', '');
    const within = { customer: 'customers', invocation: 'skills', deliveries: 'work' };
    if (v === view || within[/** @type {keyof typeof within} */ (view)] === v) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

let renderSeq = 0;
async function render() {
  const seq = ++renderSeq;
  $('error').replaceChildren();
  syncScopeSelect();
  syncTimeZone();
  const asked = params().get('view') || '';
  const view = VIEWS[asked] ? asked : 'trends';
  const draw = /** @type {View} */ (VIEWS[view]);
  markNav(view);
  const target = $('view');
  if (!getToken()) {
    target.replaceChildren(el('p', {}, 'Paste a token to start.'));
    return;
  }
  if (!UNSCOPED.includes(view) && !currentScope()) {
    target.replaceChildren(el('p', {}, 'Pick a scope above (the apps your token may see', me.admin ? ', or the operator scope' : '', ').'));
    return;
  }
  const box = el('div', { 'data-view': view, 'aria-busy': 'true' });
  const wait = loading('this view');
  wait.classList.add('view-loading');
  target.replaceChildren(wait, box);
  const current = () => seq === renderSeq;
  try {
    await draw(box, current, render);
    if (!current()) return;
    box.setAttribute('data-ready', 'true');
  } catch (err) {
    if (!current()) return;
    box.setAttribute('data-error', err instanceof ApiError ? String(err.status) : 'error');
    box.replaceChildren(problemBox(err, () => render()));
  } finally {
    wait.remove();
    box.removeAttribute('aria-busy');
  }
}

async function start() {
  $('error').replaceChildren();
  if (!getToken()) {
    await render();
    return;
  }
  $('view').replaceChildren(loading('your scopes'));
  try {
    await loadMe();
  } catch (err) {
    $('view').replaceChildren(
      el(
        'div',
        { 'data-view': 'start', 'data-error': err instanceof ApiError ? String(err.status) : 'error' },
        problemBox(err, () => start()),
      ),
    );
    return;
  }
  await render();
}

takeTokenFromFragment();
watchBacklog();
whenTokenRefused(askForToken);
whenNavigating(render);
handleNavigation();

scopeSelect().addEventListener('change', () => {
  const v = scopeSelect().value;
  const p = params();
  p.delete('app');
  p.delete('scope');
  p.delete('id');
  if (v === 'operator') p.set('scope', 'operator');
  else if (v.startsWith('app:')) p.set('app', v.slice(4));
  const view = p.get('view');
  if (!view || view === 'customer') p.set('view', 'trends');
  go(location.pathname + '?' + p.toString());
});
$('tz-toggle').addEventListener('click', () => go(hrefWith({ tz: showingUtc() ? null : 'utc' })));
$('sign-out').addEventListener('click', () => {
  forgetToken();
  signedIn(false);
  setMe({ admin: false, sub: '', scopes: [], temporalUiUrl: null });
  scopeSelect().replaceChildren();
  void render();
  tokenField().focus();
});
$('token-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setToken(tokenField().value.trim());
  tokenField().value = '';
  $('token-form').classList.remove('needs-token');
  void start();
});

void start();
