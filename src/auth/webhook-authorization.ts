import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The webhook Authorization values of customer apps: generated here, stored only as SHA-256 digests, compared in
 * constant time. The store keeps the digests; the receiver decides with `appAuthorizes`.
 */

/** A fresh webhook Authorization value: 256 bits of entropy, recognisable by its prefix in a leaked-secret scan. */
export function generateAuthorization(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function digestOf(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison over digests: equal length always, so neither length nor content leaks. */
export function digestMatches(presented: string, storedDigestHex: string | null): boolean {
  if (!storedDigestHex) return false;
  return timingSafeEqual(digestOf(presented), Buffer.from(storedDigestHex, 'hex'));
}

/** A value rotated out, still accepted until `validUntil` (the provider may keep sending it for a while). */
export interface GraceDigest {
  digest: string;
  validUntil: Date;
}

/** At most this many rotated-out values are kept in grace at once (the oldest goes first). */
export const MAX_GRACE_VALUES = 5;

export interface AuthorizationDigests {
  authorizationDigest: string;
  /** Values rotated out and still in their grace period, oldest first. */
  graceDigests?: GraceDigest[];
  /** The single rotated-out value of records written before `graceDigests`. */
  previousAuthorizationDigest?: string | null;
  previousValidUntil?: Date | null;
}

/** Every rotated-out value of `app` still in grace at `now`, oldest first (legacy single value included). */
export function liveGraceDigests(app: AuthorizationDigests, now: Date): GraceDigest[] {
  const legacy =
    app.previousAuthorizationDigest && app.previousValidUntil
      ? [{ digest: app.previousAuthorizationDigest, validUntil: app.previousValidUntil }]
      : [];
  return [...legacy, ...(app.graceDigests ?? [])].filter((g) => g.validUntil > now);
}

/**
 * The grace list after a rotation at `now`: what was in grace stays in grace until its own end, and the value
 * rotated out joins it for `graceMs` (none when 0, or when `revoke`: a leaked value is revoked with all the others
 * at once). Bounded by MAX_GRACE_VALUES.
 */
export function graceAfterRotation(app: AuthorizationDigests, now: Date, graceMs: number, revoke: boolean): GraceDigest[] {
  if (revoke) return [];
  const rotatedOut = graceMs > 0 ? [{ digest: app.authorizationDigest, validUntil: new Date(now.getTime() + graceMs) }] : [];
  return [...liveGraceDigests(app, now), ...rotatedOut].slice(-MAX_GRACE_VALUES);
}

/** Whether `presented` authorizes webhooks for `app` at `now` (the current value, or one rotated out within grace). */
export function appAuthorizes(app: AuthorizationDigests | null, presented: string, now: Date): boolean {
  // Compare against something even for an unknown app, so timing does not tell known slugs from unknown ones.
  const current = digestMatches(presented, app?.authorizationDigest ?? '0'.repeat(64));
  const inGrace = app ? liveGraceDigests(app, now).some((g) => digestMatches(presented, g.digest)) : false;
  return app !== null && (current || inGrace);
}
