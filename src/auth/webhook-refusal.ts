import { appAuthorizes, digestMatches, type AuthorizationDigests } from './webhook-authorization';

/**
 * Why a webhook's Authorization value was refused, for the operator's event log only: the caller always gets the
 * same 401 (no oracle for whoever probes slugs or values). Worked out after the refusal, from what the receiver
 * already holds (the app's digests), so it costs nothing on an authorized delivery and reads nothing from the store.
 */
export type AuthorizationRefusal =
  /** No app under the `app` parameter's slug. */
  | 'unknown_app'
  /** No Authorization header, or an empty one. */
  | 'missing_authorization'
  /** `Bearer ` followed by the right value: the provider's field wants the value alone. */
  | 'bearer_prefix'
  /** A bearer token of this API (a JWT) was sent instead of the webhook value. */
  | 'token_not_webhook_value'
  /** A value this app had before a rotation, past its grace period (a revoked one is forgotten: a mismatch). */
  | 'rotated_out'
  /** Any other value. */
  | 'authorization_mismatch'
  /** The operator's receiver, with no OPERATOR_WEBHOOK_AUTHORIZATION configured. */
  | 'operator_not_configured';

/** What follows a leading `Bearer ` (any case), or null. */
const afterBearer = (value: string): string | null => (value.slice(0, 7).toLowerCase() === 'bearer ' ? value.slice(7).trimStart() : null);
// Three base64url segments, the first a JSON object's start (`{"` encodes as `eyJ`); separators outside the classes.
const JWT = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/** An app's value was refused (appAuthorizes is false): why. `app` null: no such app. */
export function appRefusal(app: AuthorizationDigests | null, presented: string, now: Date): AuthorizationRefusal {
  const bearer = afterBearer(presented);
  // The same digest work whether or not the app exists, as in appAuthorizes.
  const bearerAuthorizes = bearer !== null && appAuthorizes(app, bearer, now);
  if (app === null) return 'unknown_app';
  if (presented === '') return 'missing_authorization';
  if (bearerAuthorizes) return 'bearer_prefix';
  if (JWT.test(bearer ?? presented)) return 'token_not_webhook_value';
  if (rotatedOut(app, presented, now)) return 'rotated_out';
  return 'authorization_mismatch';
}

/** The operator's value was refused: why. `digestHex` null: none is configured. */
export function operatorRefusal(digestHex: string | null, presented: string): AuthorizationRefusal {
  if (digestHex === null) return 'operator_not_configured';
  if (presented === '') return 'missing_authorization';
  const bearer = afterBearer(presented);
  if (bearer !== null && digestMatches(bearer, digestHex)) return 'bearer_prefix';
  if (JWT.test(bearer ?? presented)) return 'token_not_webhook_value';
  return 'authorization_mismatch';
}

/** A value the record still lists as rotated out whose grace has ended (kept until the next rotation prunes it). */
function rotatedOut(app: AuthorizationDigests, presented: string, now: Date): boolean {
  const ended = [
    ...(app.previousAuthorizationDigest && app.previousValidUntil
      ? [{ digest: app.previousAuthorizationDigest, validUntil: app.previousValidUntil }]
      : []),
    ...(app.graceDigests ?? []),
  ].filter((g) => g.validUntil <= now);
  return ended.some((g) => digestMatches(presented, g.digest));
}
