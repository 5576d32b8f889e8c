// The operator console. Served as a file (no inline script: the page's CSP allows scripts from this origin
// only). Data is always inserted as text or as elements built here; Markdown is parsed by markdown-it
// (html: false) and its tokens turned into elements, so no string from the API is ever parsed as HTML.
// The token comes from the URL fragment (never sent to a server) or is pasted, and is kept for this tab's session
// only (sessionStorage: a reload keeps it, closing the tab drops it; never localStorage or a cookie). The view
// (scope, page, customer, invocation) is kept in the query string, without it.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = 'skills-billing-console-token';
  const keep = (t) => {
    try {
      sessionStorage.setItem(TOKEN_KEY, t);
    } catch {
      /* storage off: memory only */
    }
  };
  let token = (() => {
    try {
      return sessionStorage.getItem(TOKEN_KEY) || '';
    } catch {
      return '';
    }
  })();
  let me = { admin: false, scopes: [], temporalUiUrl: null };

  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    token = fromHash;
    keep(token);
    history.replaceState(null, '', location.pathname + location.search);
  }

  // ---- DOM helpers: text only ----
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = String(v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, String(v));
    }
    for (const c of children)
      if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  // Money and times in the reader's locale; times in the reader's zone, which is named.
  const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
  const money = (n) => usd.format(Number(n));
  const dateTime = new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  const when = (iso) => {
    const t = iso ? Date.parse(iso) : NaN;
    return Number.isNaN(t) ? '—' : dateTime.format(t);
  };
  const day = (iso) => (iso ? String(iso).slice(0, 10) : '—');
  function timeLeft(iso) {
    const ms = Date.parse(iso) - Date.now();
    if (Number.isNaN(ms)) return '';
    const past = ms < 0;
    const abs = Math.abs(ms);
    const d = Math.floor(abs / 86400000),
      h = Math.floor((abs % 86400000) / 3600000),
      m = Math.floor((abs % 3600000) / 60000);
    const s = d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
    return past ? `${s} ago (overdue)` : `in ${s}`;
  }
  // A wide table scrolls inside its box on a phone; the box takes the keyboard's focus so it can be scrolled too.
  const scrollBox = (label, table) => el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);
  const safeUrl = (u) => (typeof u === 'string' && /^https?:\/\//i.test(u) ? u : null);

  // ---- state in the URL ----
  const params = () => new URLSearchParams(location.search);
  function hrefWith(changes, keep = true) {
    const p = keep ? params() : new URLSearchParams();
    if (!keep) for (const k of ['app', 'scope']) if (params().has(k)) p.set(k, params().get(k));
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === undefined || v === '') p.delete(k);
      else p.set(k, v);
    }
    return location.pathname + '?' + p.toString();
  }
  function go(href) {
    history.pushState(null, '', href);
    render();
    $('main').focus();
  }
  // Internal links navigate in place, so the in-memory token survives (a full load would drop it).
  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[data-nav]');
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    go(a.getAttribute('href'));
  });
  window.addEventListener('popstate', () => render());
  const navLink = (label, changes, keep = false) => el('a', { href: hrefWith(changes, keep), 'data-nav': '' }, label);

  function scopeQuery(extra = {}) {
    const p = new URLSearchParams();
    const app = params().get('app');
    if (app) p.set('app', app);
    for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
    const s = p.toString();
    return s ? '?' + s : '';
  }

  // ---- API ----
  class ApiError extends Error {
    constructor(status, body) {
      super(body && body.title ? `${status} ${body.title}: ${body.detail || ''}` : `HTTP ${status}`);
      this.status = status;
      this.body = body;
    }
  }
  async function api(path, init = {}) {
    let res;
    try {
      res = await fetch(path, { ...init, headers: { Authorization: 'Bearer ' + token, ...(init.headers || {}) } });
    } catch {
      throw new ApiError(0, {
        title: 'The API did not answer',
        detail: 'The request did not reach the API (network down, or the server stopped). Try again.',
      });
    }
    let body = null;
    const text = await res.text();
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) {
      const err = new ApiError(res.status, body);
      // A refused token (expired, signed for another service): ask for a new one; the view reloads with it.
      if (res.status === 401) askForToken();
      throw err;
    }
    return body;
  }

  // ---- loading and error states ----
  const loading = (what) =>
    el('p', { class: 'loading', role: 'status' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), `Loading ${what}…`);
  /** A problem+json answer (or a network failure) as a box: its title, detail and field errors, and a Retry button. */
  function problemBox(err, retry) {
    const status = err instanceof ApiError ? err.status : null;
    const body = err instanceof ApiError && err.body && typeof err.body === 'object' ? err.body : {};
    const title = typeof body.title === 'string' ? body.title : status ? `HTTP ${status}` : 'Something went wrong';
    const detail =
      typeof body.detail === 'string' ? body.detail : err instanceof ApiError ? '' : String(err && err.message ? err.message : err);
    const box = el(
      'div',
      { class: 'problem', role: 'alert', 'data-status': status === null ? 'error' : String(status) },
      el('p', { class: 'problem-title' }, el('strong', {}, title), status ? ` (${status}${body.code ? ', ' + body.code : ''})` : ''),
      detail ? el('p', { class: 'problem-detail' }, detail) : null,
      Array.isArray(body.errors) && body.errors.length
        ? el(
            'ul',
            {},
            ...body.errors.slice(0, 20).map((e) => el('li', {}, el('code', {}, (e && e.path) || '/'), ' ', (e && e.message) || '')),
          )
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
  /** An action's failure (redeliver, retry, cancel), shown above the view until the next one. */
  const showError = (err) => {
    $('error').replaceChildren(problemBox(err, null));
  };
  function askForToken() {
    token = '';
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      /* storage off */
    }
    $('token-form').classList.add('needs-token');
    $('token').focus();
  }

  // ---- chrome: token, scope picker, nav ----
  async function loadMe() {
    const s = await api('/v1/console/scopes');
    me = { admin: !!s.admin, sub: s.sub, scopes: s.scopes, temporalUiUrl: s.temporalUiUrl };
    $('who').textContent = (s.sub || '') + (s.admin ? ' (admin)' : '');
    const select = $('scope');
    select.replaceChildren(
      el('option', { value: '', text: '— pick a scope —' }),
      ...s.scopes.map((x) =>
        el('option', { value: x.app === null ? 'operator' : 'app:' + x.app, text: x.app === null ? x.name : `${x.name} (${x.app})` }),
      ),
    );
    syncScopeSelect();
  }
  function currentScope() {
    const app = params().get('app');
    if (app) return 'app:' + app;
    return params().get('scope') === 'operator' ? 'operator' : '';
  }
  function syncScopeSelect() {
    $('scope').value = currentScope();
  }
  $('scope').addEventListener('change', () => {
    const v = $('scope').value;
    const p = params();
    p.delete('app');
    p.delete('scope');
    p.delete('id');
    if (v === 'operator') p.set('scope', 'operator');
    else if (v.startsWith('app:')) p.set('app', v.slice(4));
    if (!p.get('view') || ['customer'].includes(p.get('view'))) p.set('view', 'trends');
    go(location.pathname + '?' + p.toString());
  });
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    token = $('token').value.trim();
    keep(token);
    $('token').value = '';
    $('token-form').classList.remove('needs-token');
    start();
  });

  function markNav(view) {
    for (const a of $('nav').querySelectorAll('a')) {
      const v = a.getAttribute('data-view');
      a.setAttribute('href', hrefWith({ view: v }, false));
      a.setAttribute('data-nav', '');
      if (v === view || (view === 'customer' && v === 'customers') || (view === 'invocation' && v === 'skills'))
        a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
  }

  // ---- views ----
  const VIEWS = {
    trends: viewTrends,
    customers: viewCustomers,
    customer: viewCustomer,
    work: viewWork,
    deliveries: viewDeliveries,
    skills: viewSkills,
    invocation: viewInvocation,
  };
  let renderSeq = 0;
  async function render() {
    const seq = ++renderSeq;
    $('error').replaceChildren();
    syncScopeSelect();
    const view = VIEWS[params().get('view')] ? params().get('view') : 'trends';
    markNav(view);
    const target = $('view');
    if (!token) {
      target.replaceChildren(el('p', {}, 'Paste a token to start.'));
      return;
    }
    const needsScope = !['skills', 'invocation'].includes(view);
    if (needsScope && !currentScope()) {
      target.replaceChildren(
        el('p', {}, 'Pick a scope above (the apps your token may see', me.admin ? ', or the operator scope' : '', ').'),
      );
      return;
    }
    const box = el('div', { 'data-view': view, 'aria-busy': 'true' });
    const wait = loading('this view');
    wait.classList.add('view-loading');
    target.replaceChildren(wait, box);
    const current = () => seq === renderSeq;
    try {
      await VIEWS[view](box, current);
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

  // Trends: two charts (MRR; counts) over 30/90/365 days, with the points as a table for keyboards and readers.
  async function viewTrends(box, current) {
    const days = ['30', '90', '365'].includes(params().get('days')) ? params().get('days') : '30';
    const [m, t] = await Promise.all([api('/v1/billing/metrics' + scopeQuery()), api('/v1/billing/trends' + scopeQuery({ days }))]);
    if (!current()) return;
    const card = (label, value) => el('div', { class: 'card' }, el('div', { class: 'label' }, label), el('div', { class: 'value' }, value));
    const toolbar = el(
      'div',
      { class: 'toolbar', role: 'group', 'aria-label': 'Period' },
      el('span', { class: 'muted' }, 'Last'),
      ...['30', '90', '365'].map((d) =>
        el('a', { href: hrefWith({ days: d }), 'data-nav': '', 'aria-current': d === days ? 'true' : null }, `${d} days`),
      ),
    );
    const mrrChart = el('div', { class: 'chart', id: 'chart-mrr', role: 'img', 'aria-label': `MRR per day, last ${days} days` });
    const countChart = el('div', {
      class: 'chart',
      id: 'chart-counts',
      role: 'img',
      'aria-label': `Subscriptions, trials, flagged and churned per day, last ${days} days`,
    });
    const rows = t.points
      .slice()
      .reverse()
      .map((p) =>
        el(
          'tr',
          {},
          el('td', {}, p.day),
          el('td', {}, money(p.mrr)),
          el('td', {}, p.activeSubscriptions),
          el('td', {}, p.activeTrials),
          el('td', {}, p.flaggedCustomers),
          el('td', {}, p.churned),
        ),
      );
    box.append(
      el('h2', {}, `Trends · ${m.scope}`),
      el(
        'section',
        { class: 'cards' },
        card('MRR', money(m.mrr.amount)),
        card('Active subscriptions', m.activeSubscriptions),
        card('Active trials', m.activeTrials),
        card('Flagged customers', m.flaggedCustomers),
        card('Scheduled downgrades', m.scheduledDowngrades),
        card('Updated', when(m.updatedAt)),
      ),
      toolbar,
      mrrChart,
      countChart,
      el(
        'details',
        {},
        el('summary', {}, 'Daily points as a table'),
        scrollBox(
          'Daily points',
          el(
            'table',
            {},
            el('thead', {}, el('tr', {}, ...['Day', 'MRR', 'Active', 'Trials', 'Flagged', 'Churned'].map((h) => el('th', {}, h)))),
            el('tbody', {}, ...rows),
          ),
        ),
      ),
    );
    const xs = t.points.map((p) => Date.parse(p.day + 'T00:00:00Z') / 1000);
    const width = Math.max(320, box.clientWidth - 20);
    const draw = (target, series, data) => {
      // Daily points are UTC days: drawn and labelled in UTC, whatever the reader's zone.
      new window.uPlot(
        {
          width,
          height: 240,
          series: [{ label: 'Day (UTC)', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) }, ...series],
          axes: [{ label: 'UTC day' }, { size: 60 }],
          legend: { live: true },
          tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        },
        [xs, ...data],
        target,
      );
      target.setAttribute('data-points', String(xs.length));
    };
    draw(
      mrrChart,
      [{ label: 'MRR ($)', stroke: '#2251cc', width: 2, value: (_u, v) => (v === null ? '—' : money(v)) }],
      [t.points.map((p) => p.mrr)],
    );
    draw(
      countChart,
      [
        { label: 'Active subscriptions', stroke: '#1b8a3a', width: 2 },
        { label: 'Trials', stroke: '#8a5cd6', width: 2 },
        { label: 'Flagged', stroke: '#d64545', width: 2 },
        { label: 'Churned', stroke: '#e08a00', width: 2 },
      ],
      [
        t.points.map((p) => p.activeSubscriptions),
        t.points.map((p) => p.activeTrials),
        t.points.map((p) => p.flaggedCustomers),
        t.points.map((p) => p.churned),
      ],
    );
  }

  /** What a customer's subscriptions make it besides its status: a trial or a sandbox purchase is not a paying one. */
  function countsAs(c) {
    const subs = (c.subscriptions || []).filter((x) => x.status === 'active' || x.status === 'cancelled');
    const tags = [];
    if (subs.some((x) => x.periodType === 'TRIAL')) tags.push('trial');
    if (subs.length && subs.every((x) => x.environment === 'SANDBOX')) tags.push('sandbox');
    if (subs.some((x) => x.isFamilyShare)) tags.push('family share');
    return tags;
  }
  const distinct = (xs) => [...new Set(xs.filter(Boolean))];

  /**
   * The customers table. With `sorting` ({ sort, hrefFor }), the id, MRR and last-event headers are links that
   * sort by that column (again: the other way), and the sorted one says so (aria-sort).
   */
  function customerTable(sorting) {
    const sortable = { Customer: 'id', MRR: 'mrr', 'Last event': 'lastEvent' };
    const head = ['Customer', 'Status', 'Entitlements', 'MRR', 'Store · environment', 'Scheduled downgrade', 'Flags', 'Last event'];
    const th = (h) => {
      const key = sorting && sortable[h];
      if (!key) return el('th', { scope: 'col' }, h);
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
    const add = (list) => {
      for (const c of list) {
        const tags = countsAs(c);
        body.append(
          el(
            'tr',
            { class: c.flags.length ? 'flagged' : null, 'data-customer': c.id },
            el('td', {}, navLink(c.id, { view: 'customer', id: c.id })),
            el('td', {}, el('span', { class: 'status ' + c.status }, c.status), ...tags.map((t) => el('span', { class: 'tag' }, t))),
            el('td', {}, c.entitlements.map((e) => e.id + (e.expiresAt ? ' until ' + day(e.expiresAt) : '')).join(', ')),
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
              c.scheduledDowngrade
                ? `${when(c.scheduledDowngrade.at)} (${c.scheduledDowngrade.reason}, ${timeLeft(c.scheduledDowngrade.at)})`
                : '',
            ),
            el('td', {}, c.flags.map((f) => f.type + ' since ' + day(f.since)).join(', ')),
            el('td', {}, c.lastEvent ? `${c.lastEvent.type} ${when(c.lastEvent.at)}` : ''),
          ),
        );
      }
    };
    return { table: el('table', { id: sorting ? 'customers' : null }, el('thead', {}, el('tr', {}, ...head.map(th))), body), add };
  }

  // A list that pages with a "More" button (the API's cursors), so 100k customers never load at once.
  // Each list shows its own loading line, and its own error box with a Retry that loads the same page again.
  async function pagedList(box, fetchPage, build, empty) {
    const more = el('button', { type: 'button', hidden: true }, 'More');
    const note = el('p', { class: 'muted' });
    const status = el('div', { class: 'list-status' });
    let cursor = null;
    const { table, add } = build();
    const heading = box.querySelector('h2, h3');
    const wrap = scrollBox(heading ? heading.textContent.trim() : 'List', table);
    box.append(wrap, status, el('p', {}, more), note);
    const load = async () => {
      more.disabled = true;
      status.replaceChildren(loading(cursor ? 'more' : 'the list'));
      try {
        const page = await fetchPage(cursor);
        status.replaceChildren();
        add(page.items);
        cursor = page.nextCursor;
        more.hidden = !cursor;
        if (!cursor && table.querySelector('tbody').children.length === 0) note.textContent = empty;
        return page;
      } catch (err) {
        status.replaceChildren(problemBox(err, () => load().catch(() => {})));
        throw err;
      } finally {
        more.disabled = false;
      }
    };
    more.addEventListener('click', () => load().catch(() => {}));
    return load();
  }

  // The customer list's filters, sort and search live in the query string (a reload or a shared link keeps
  // them) and go to the API as they are; it validates them and answers a problem for a value it does not know.
  const STATUSES = [
    ['', 'Any status'],
    ['active', 'Active'],
    ['trial', 'In trial'],
    ['cancelled', 'Cancelled (access until period end)'],
    ['billing_issue', 'Billing issue'],
    ['expired', 'Expired'],
    ['none', 'No subscription'],
  ];
  const STORES = ['APP_STORE', 'MAC_APP_STORE', 'PLAY_STORE', 'AMAZON', 'STRIPE', 'RC_BILLING', 'PADDLE', 'ROKU', 'PROMOTIONAL'];
  const ENVIRONMENTS = [
    ['', 'Any environment'],
    ['PRODUCTION', 'Production'],
    ['SANDBOX', 'Sandbox'],
  ];
  const SORTS = [
    ['id', 'Id (A→Z)'],
    ['-id', 'Id (Z→A)'],
    ['-mrr', 'MRR (highest first)'],
    ['mrr', 'MRR (lowest first)'],
    ['-lastEvent', 'Last event (newest first)'],
    ['lastEvent', 'Last event (oldest first)'],
  ];
  const LIST_KEYS = ['status', 'store', 'environment', 'sort', 'q', 'flagged'];

  async function viewCustomers(box, current) {
    const p = params();
    const f = Object.fromEntries(LIST_KEYS.map((k) => [k, p.get(k) || '']));
    const idOnly = !!f.q;
    const sort = f.sort || 'id';
    const select = (name, label, options) => {
      const value = name === 'sort' ? sort : f[name];
      const known = options.some(([v]) => v === value);
      // A value from a link that the list does not offer is still shown (and sent): the API judges it.
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
          placeholder: 'id prefix or exact alias',
          autocomplete: 'off',
        }),
      ),
      select('status', 'Status', STATUSES),
      select('store', 'Store', [['', 'Any store'], ...STORES.map((x) => [x, x])]),
      select('environment', 'Environment', ENVIRONMENTS),
      select('sort', 'Sort', SORTS),
      el('button', { type: 'submit' }, 'Apply'),
      LIST_KEYS.some((k) => f[k]) ? navLink('Clear', { view: 'customers' }) : null,
    );
    const apply = () => {
      const changes = { view: 'customers' };
      for (const k of ['q', 'status', 'store', 'environment', 'sort']) {
        const v = form.elements[k].value.trim();
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
    for (const name of ['status', 'store', 'environment', 'sort']) form.elements[name].addEventListener('change', apply);
    const summary = [
      f.q ? `id starting with “${f.q}”` : null,
      f.status ? (STATUSES.find(([v]) => v === f.status) || [f.status, f.status])[1].toLowerCase() : null,
      f.flagged ? (f.flagged === 'true' ? 'flagged' : 'not flagged') : null,
      f.store || null,
      f.environment ? f.environment.toLowerCase() : null,
    ].filter(Boolean);
    box.append(
      el('h2', {}, 'Customers'),
      form,
      el(
        'p',
        { class: 'muted', id: 'list-summary' },
        (summary.length ? 'Showing customers: ' + summary.join(', ') : 'Showing every customer') +
          ` · sorted by ${(SORTS.find(([v]) => v === sort) || [sort, sort])[1]}`,
        idOnly ? ' (a search lists in id order)' : '',
      ),
    );
    const exact = el('div', { id: 'exact-match' });
    box.append(exact);
    const hrefFor = (next) => hrefWith({ sort: next === 'id' ? null : next });
    await pagedList(
      box,
      async (cursor) => {
        const page = await api(
          '/v1/billing/customers' +
            scopeQuery({
              limit: 50,
              cursor,
              status: f.status,
              store: f.store,
              environment: f.environment,
              sort: f.sort,
              q: f.q,
              flagged: f.flagged,
            }),
        );
        if (!cursor && current() && page.exactMatch) {
          const m = page.exactMatch;
          // Opened by the id as typed, so the customer page says which alias found it.
          exact.replaceChildren(
            el(
              'p',
              { class: 'panel' },
              m.id === f.q ? 'Exactly this id: ' : `“${f.q}” is an alias of `,
              navLink(m.id, { view: 'customer', id: f.q }),
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

  function snapshotText(s) {
    if (!s) return 'new record';
    const ents = s.entitlements.map((e) => e.id + (e.expiresAt ? ' until ' + day(e.expiresAt) : '')).join(', ') || 'none';
    return `${s.status}; entitlements ${ents}; ${money(s.mrrContribution)}/mo${s.flagged ? '; flagged' : ''}${s.scheduledDowngradeAt ? '; downgrade ' + when(s.scheduledDowngradeAt) : ''}`;
  }

  async function viewCustomer(box, current) {
    const id = params().get('id') || '';
    const c = await api('/v1/billing/customers/' + encodeURIComponent(id) + scopeQuery());
    if (!current()) return;
    const wf = c.workflowUrl
      ? el('a', { href: c.workflowUrl, target: '_blank', rel: 'noopener noreferrer' }, c.workflowId + ' (Temporal UI)')
      : c.workflowId;
    const facts = el('dl', { class: 'facts' });
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
    let cursor = null;
    const load = async () => {
      more.disabled = true;
      status.replaceChildren(loading(cursor ? 'older events' : 'the timeline'));
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
      const perVersion = new Map();
      for (const e of page.entries) perVersion.set(e.version, (perVersion.get(e.version) || 0) + 1);
      for (const e of page.entries) {
        const together = perVersion.get(e.version) - 1;
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

  async function viewWork(box) {
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
        return { items: p.deadLetters, nextCursor: p.nextCursor };
      },
      () => {
        const body = el('tbody');
        const head = ['Event', 'Type', 'Customer', 'Stage', 'Reason', 'Parked', 'Attempts', 'Retried', ''];
        const add = (list) =>
          list.forEach((d) => {
            const retry = me.admin && d.status === 'parked' ? el('button', { type: 'button', 'data-retry': d.id }, 'Retry') : null;
            if (retry)
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
            body.append(
              el(
                'tr',
                {},
                el('td', {}, d.eventId),
                el('td', {}, d.type),
                el('td', {}, d.subscriberId ? navLink(d.subscriberId, { view: 'customer', id: d.subscriberId }) : '—'),
                el('td', {}, d.stage),
                el('td', {}, d.reason),
                el('td', {}, when(d.parkedAt)),
                el('td', {}, d.attempts),
                el('td', {}, when(d.retriedAt)),
                el('td', {}, retry),
              ),
            );
          });
        return { table: el('table', {}, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))), body), add };
      },
      'No dead-lettered event.',
    );
    const app = params().get('app');
    if (app) await failingEndpoints(box, app);
  }

  /** The app's outbound webhook endpoints (a private preview), failing ones first, each linking to its delivery log. */
  async function failingEndpoints(box, app) {
    const section = el('section', { id: 'failing-endpoints' }, el('h3', {}, 'Webhook endpoints'));
    box.append(section);
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
    const trouble = (e) => (e.disabled || e.failingSince ? 0 : 1);
    const sorted = [...list.endpoints].sort((a, b) => trouble(a) - trouble(b));
    const head = ['URL', 'Failing since', 'Disabled', 'Description', ''];
    section.append(
      scrollBox(
        'Webhook endpoints',
        el(
          'table',
          {},
          el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
          el(
            'tbody',
            {},
            ...sorted.map((e) =>
              el(
                'tr',
                { 'data-endpoint': e.id, class: trouble(e) === 0 ? 'flagged' : null },
                el('td', {}, e.url),
                el('td', {}, when(e.failingSince)),
                el('td', {}, e.disabled ? e.disabledReason || 'yes' : 'no'),
                el('td', {}, e.description || ''),
                el('td', {}, navLink('Delivery log', { view: 'deliveries', endpoint: e.id })),
              ),
            ),
          ),
        ),
      ),
    );
  }

  /** One endpoint's deliveries, newest first: every attempt's status code, latency and error, the next retry, redelivery. */
  async function viewDeliveries(box, current) {
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
    const toggles = new Map();
    await pagedList(
      section,
      async (cursor) => {
        const p = await api(base + '/deliveries' + (cursor ? '?cursor=' + encodeURIComponent(cursor) : ''));
        return { items: p.deliveries, nextCursor: p.nextCursor };
      },
      () => {
        const body = el('tbody');
        const head = ['Event', 'Type', 'Status', 'Attempts (status code · latency · error)', 'Next retry', ''];
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
            const detailId = 'delivery-detail-' + body.children.length;
            const details = el(
              'button',
              { type: 'button', 'data-details': d.id, 'aria-expanded': 'false', 'aria-controls': detailId },
              'Details',
            );
            const cell = el('td', { colspan: String(head.length) });
            const detailRow = el('tr', { class: 'delivery-detail', id: detailId, hidden: true, 'data-detail-of': d.id }, cell);
            let loaded = false;
            const toggle = async () => {
              const open = details.getAttribute('aria-expanded') !== 'true';
              details.setAttribute('aria-expanded', String(open));
              detailRow.hidden = !open;
              // The open delivery is part of the view's address: a reload or a shared link opens it again.
              history.replaceState(null, '', hrefWith({ delivery: open ? d.id : null }));
              if (!open || loaded) return;
              cell.replaceChildren(loading('the payload and responses'));
              try {
                const full = await api(base + '/deliveries/' + encodeURIComponent(d.id));
                cell.replaceChildren(el('div', { class: 'detail-inner' }, ...deliveryDetail(full)));
                loaded = true;
              } catch (err) {
                cell.replaceChildren(
                  problemBox(err, () => {
                    details.setAttribute('aria-expanded', 'false');
                    toggle();
                  }),
                );
              }
            };
            details.addEventListener('click', () => {
              toggle();
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
                el('td', {}, when(d.nextRetryAt)),
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
    if (open && toggles.has(open)) await toggles.get(open)();
  }

  /** What was sent and what came back, as text: a receiver's answer is never parsed as HTML. */
  function deliveryDetail(d) {
    const pretty = (text) => {
      try {
        return JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        return text;
      }
    };
    const block = (label, text) => el('pre', { class: 'payload', tabindex: '0', 'aria-label': label }, text);
    const bytes = new TextEncoder().encode(d.request.body || '').length;
    const limit = Math.round((d.responseBodyLimitBytes || 4096) / 1024);
    const answer = (a) => {
      if (a.statusCode === null) return el('p', { class: 'muted' }, 'No answer' + (a.error ? ': ' + a.error : ''));
      if (a.responseBody === null) return el('p', { class: 'muted' }, 'Answer not kept (logged before answers were).');
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

  async function viewSkills(box, current) {
    const { projects } = await api('/v1/console/projects');
    if (!current()) return;
    const project = params().get('project') || (projects[0] && projects[0].id) || '';
    box.append(
      el('h2', {}, 'Skills'),
      el(
        'p',
        {},
        'Project: ',
        ...projects.flatMap((p) => [
          p.id === project ? el('strong', {}, p.id) : navLink(p.id, { view: 'skills', project: p.id }, true),
          ' ',
        ]),
      ),
    );
    if (!project) {
      box.append(el('p', {}, 'Your token names no project.'));
      return;
    }
    await pagedList(
      box,
      async (cursor) => {
        const p = await api(
          `/v1/agents/${encodeURIComponent(project)}/invocations` +
            (cursor ? '?cursor=' + encodeURIComponent(cursor) + '&limit=25' : '?limit=25'),
        );
        return { items: p.invocations, nextCursor: p.nextCursor };
      },
      () => {
        const body = el('tbody');
        const head = ['Invocation', 'Skill', 'Inputs', 'Status', 'Progress', 'Duration', 'Generator', 'Asked by', 'Created', ''];
        const add = (list) =>
          list.forEach((i) =>
            body.append(
              el(
                'tr',
                {},
                el('td', {}, navLink(i.id, { view: 'invocation', project: i.project, id: i.id }, true)),
                el('td', {}, i.skill),
                el(
                  'td',
                  {},
                  Object.entries(i.inputs || {})
                    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' | ') : v}`)
                    .join('; '),
                ),
                el('td', {}, el('span', { class: 'status ' + i.status }, i.status)),
                el('td', {}, i.progress ? `${i.progress.completedSteps}/${i.progress.totalSteps} (${i.progress.step})` : ''),
                el('td', {}, i.durationMs === null || i.durationMs === undefined ? '—' : (i.durationMs / 1000).toFixed(1) + ' s'),
                el('td', {}, i.generator || '—'),
                el('td', {}, i.requestedBy || '—'),
                el('td', {}, when(i.createdAt)),
                el('td', {}, cancelButton(i)),
              ),
            ),
          );
        return { table: el('table', {}, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))), body), add };
      },
      'No invocation yet.',
    );
  }

  function cancelButton(i) {
    if (['completed', 'failed', 'cancelled'].includes(i.status)) return null;
    const b = el('button', { type: 'button' }, 'Cancel');
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        await api(`/v1/agents/${encodeURIComponent(i.project)}/invocations/${encodeURIComponent(i.id)}/cancel`, { method: 'POST' });
        b.textContent = 'Cancelling…';
      } catch (err) {
        b.disabled = false;
        showError(err);
      }
    });
    return b;
  }

  async function viewInvocation(box, current) {
    const project = params().get('project') || '';
    const id = params().get('id') || '';
    const i = await api(`/v1/agents/${encodeURIComponent(project)}/invocations/${encodeURIComponent(id)}`);
    if (!current()) return;
    box.append(
      el('h2', {}, `${i.skill} · ${i.id}`),
      el('p', {}, navLink('← Invocations', { view: 'skills', project }, true)),
      el(
        'p',
        { class: 'muted' },
        `status ${i.status} · requested by ${i.requestedBy || '—'} · created ${when(i.createdAt)} · generator ${i.generator || '—'}`,
        ' ',
        cancelButton(i),
      ),
    );
    if (!['completed', 'failed', 'cancelled'].includes(i.status)) {
      const live = el(
        'p',
        { id: 'progress', 'aria-live': 'polite' },
        `${i.status} · step ${i.progress.completedSteps}/${i.progress.totalSteps}`,
      );
      box.append(live);
      followProgress(project, id, live, current);
      return;
    }
    if (!i.result) {
      box.append(el('p', {}, i.error ? `Failed: ${i.error.message}` : 'No document yet.'));
      return;
    }
    const citations = new Map((i.result.citations || []).map((c) => [c.id, c]));
    // The marker form ([pr:50] with link definitions) keeps every citation a link to its document or to its entry
    // below; `markdown` is the publishable form (links and footnotes), for results written before the marker form.
    box.append(
      el(
        'article',
        { class: 'doc', id: 'document' },
        ...renderMarkdown(i.result.markdownWithCitations || i.result.markdown || '', citations),
      ),
    );
    const list = el('ol', { class: 'citations', id: 'citations' });
    for (const c of citations.values()) {
      const url = safeUrl(c.url);
      list.append(
        el(
          'li',
          { id: 'cite-' + c.id },
          el('code', {}, c.id),
          ' ',
          el('span', { class: 'muted' }, c.kind),
          ' ',
          url ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, c.title) : c.title,
        ),
      );
    }
    box.append(el('h3', {}, 'Cited documents'), list);
  }

  // Follows a running invocation's Server-Sent Events (read with fetch, so the token goes in the Authorization
  // header as everywhere else) and shows the finished invocation when its result arrives.
  async function followProgress(project, id, live, current) {
    try {
      const res = await fetch(`/v1/agents/${encodeURIComponent(project)}/invocations/${encodeURIComponent(id)}/events`, {
        headers: { Authorization: 'Bearer ' + token },
      });
      if (!res.ok || !res.body) return;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done || !current()) {
          reader.cancel().catch(() => {});
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = (/^event: (.*)$/m.exec(block) || [])[1];
          const data = (/^data: (.*)$/m.exec(block) || [])[1];
          if (!event || !data) continue;
          const body = JSON.parse(data);
          if (event === 'status') live.textContent = `${body.status} · step ${body.progress.completedSteps}/${body.progress.totalSteps}`;
          if (event === 'result') {
            reader.cancel().catch(() => {});
            if (current()) render();
            return;
          }
        }
      }
    } catch (err) {
      showError(err);
    }
  }

  // ---- Markdown: markdown-it tokens → elements (never HTML strings) ----
  const ALLOWED = new Set([
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'strong',
    'em',
    's',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
    'br',
    'code',
    'pre',
  ]);
  let md = null;
  function renderMarkdown(source, citations) {
    md = md || window.markdownit({ html: false, linkify: false, typographer: false });
    const root = document.createDocumentFragment();
    const stack = [root];
    const top = () => stack[stack.length - 1];
    const open = (tag, attrs) => {
      const e = document.createElement(ALLOWED.has(tag) ? tag : 'span');
      if (tag === 'a') {
        const href = safeUrl(attrs.href);
        if (href) {
          e.setAttribute('href', href);
          e.setAttribute('rel', 'noopener noreferrer');
          e.setAttribute('target', '_blank');
        }
      }
      if (tag === 'ol' && attrs.start) e.setAttribute('start', String(Number(attrs.start) || 1));
      top().append(e);
      stack.push(e);
    };
    const close = () => {
      if (stack.length > 1) stack.pop();
    };
    const attrsOf = (t) => Object.fromEntries(t.attrs || []);
    const citationLink = (c, label) => {
      const url = safeUrl(c.url);
      const a = el(
        'a',
        {
          class: 'citation',
          href: url || '#cite-' + c.id,
          title: `${c.kind}: ${c.title}`,
          'data-citation': c.id,
          ...(url ? { target: '_blank', rel: 'noopener noreferrer' } : {}),
        },
        label,
      );
      if (!url)
        a.addEventListener('click', (e) => {
          e.preventDefault();
          const li = document.getElementById('cite-' + c.id);
          if (li) {
            li.classList.add('focus');
            li.scrollIntoView();
          }
        });
      return a;
    };
    const text = (s) => {
      // Citations such as [pr:50] become links to the cited document (its own url when it has an http(s) one).
      const re = /\[([a-z_]+:[^\]\s]+)\]/g;
      let last = 0,
        m;
      while ((m = re.exec(s))) {
        const c = citations.get(m[1]);
        if (!c) continue;
        top().append(document.createTextNode(s.slice(last, m.index)));
        top().append(citationLink(c, m[1]));
        last = m.index + m[0].length;
      }
      top().append(document.createTextNode(s.slice(last)));
    };
    const walk = (tokens) => {
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i];
        if (t.type === 'inline') {
          walk(t.children || []);
          continue;
        }
        // A citation the document links itself ([pr:50] with a reference definition) links to the cited
        // document the same way as a bare one: its own http(s) url, else its entry in the list below.
        if (
          t.type === 'link_open' &&
          tokens[i + 1] &&
          tokens[i + 1].type === 'text' &&
          tokens[i + 2] &&
          tokens[i + 2].type === 'link_close'
        ) {
          const c = citations.get(tokens[i + 1].content);
          if (c) {
            top().append(citationLink(c, tokens[i + 1].content));
            i += 2;
            continue;
          }
        }
        if (t.nesting === 1) {
          open(t.tag, attrsOf(t));
          continue;
        }
        if (t.nesting === -1) {
          close();
          continue;
        }
        switch (t.type) {
          case 'text':
            text(t.content);
            break;
          case 'code_inline':
            top().append(el('code', {}, t.content));
            break;
          case 'fence':
          case 'code_block':
            top().append(el('pre', {}, el('code', {}, t.content)));
            break;
          case 'softbreak':
            top().append(document.createTextNode('\n'));
            break;
          case 'hardbreak':
            top().append(el('br'));
            break;
          case 'hr':
            top().append(el('hr'));
            break;
          case 'image':
            top().append(document.createTextNode(t.content || ''));
            break;
          default:
            if (t.content) top().append(document.createTextNode(t.content));
        }
      }
    };
    walk(md.parse(source, {}));
    return [root];
  }

  async function start() {
    $('error').replaceChildren();
    if (!token) {
      render();
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
  start();
})();
