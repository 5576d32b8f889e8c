// @ts-check
// Who the token is, as the API says (GET /v1/console/scopes): read by the views that offer admin actions.

/**
 * @typedef {{ scope: string, app: string | null, name: string }} Scope
 * @typedef {{ admin: boolean, sub: string, scopes: Scope[], temporalUiUrl: string | null }} Me
 */

/** @type {Me} */
export const me = { admin: false, sub: '', scopes: [], temporalUiUrl: null };

/** @param {Me} next */
export function setMe(next) {
  Object.assign(me, next);
}
