// @ts-check
// The API module: the token and every request to /v1. The token comes from the URL fragment (never sent to a
// server) or is pasted, and is kept for this tab's session only (sessionStorage: a reload keeps it, closing the
// tab drops it; never localStorage or a cookie).

const TOKEN_KEY = 'skills-billing-console-token';

let token = (() => {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  } catch {
    return '';
  }
})();

/** @type {() => void} */
let onRefused = () => {};

export const getToken = () => token;

/** @param {string} t */
export function setToken(t) {
  token = t;
  try {
    sessionStorage.setItem(TOKEN_KEY, t);
  } catch {
    /* storage off: memory only */
  }
}

export function forgetToken() {
  token = '';
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage off */
  }
}

/** What the page does when the API refuses the token (401): ask for a new one. @param {() => void} f */
export function whenTokenRefused(f) {
  onRefused = f;
}

/** Takes a token from the URL fragment (`#token=…`) and removes it from the address bar at once. */
export function takeTokenFromFragment() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!fromHash) return;
  setToken(fromHash);
  history.replaceState(null, '', location.pathname + location.search);
}

/**
 * A problem+json body, as far as the console reads one.
 * @typedef {{ title?: unknown, detail?: unknown, code?: unknown, errors?: unknown }} ProblemBody
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ProblemBody | null} body
   */
  constructor(status, body) {
    super(body && body.title ? `${status} ${String(body.title)}: ${String(body.detail || '')}` : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** The Authorization header every request carries. */
export const authHeaders = () => ({ Authorization: 'Bearer ' + token });

/**
 * A request to the API with the token; the parsed JSON answer, or an ApiError (a problem's status and body, or
 * status 0 when the request did not reach the API).
 * @param {string} path
 * @param {RequestInit & { headers?: Record<string, string> }} [init]
 * @returns {Promise<any>}
 */
export async function api(path, init = {}) {
  let res;
  try {
    res = await fetch(path, { ...init, headers: { ...authHeaders(), ...(init.headers || {}) } });
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
    if (res.status === 401) onRefused();
    throw err;
  }
  return body;
}

/**
 * How far behind the service runs: /readyz's `backlog` (open, no token), or null when the API does not say (not
 * ready, unreachable, or too old to report one).
 * @returns {Promise<import('./types').Backlog | null>}
 */
export async function readBacklog() {
  try {
    const res = await fetch('/readyz', { headers: { Accept: 'application/json' } });
    if (!res.ok) return null;
    const body = await res.json();
    return body && typeof body === 'object' && body.backlog && typeof body.backlog === 'object' ? body.backlog : null;
  } catch {
    // The API is unreachable: the views say so themselves.
    return null;
  }
}
