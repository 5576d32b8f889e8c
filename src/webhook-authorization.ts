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

export interface AuthorizationDigests {
  authorizationDigest: string;
  previousAuthorizationDigest: string | null;
  previousValidUntil: Date | null;
}

/** Whether `presented` authorizes webhooks for `app` at `now` (the current value, or the previous within grace). */
export function appAuthorizes(app: AuthorizationDigests | null, presented: string, now: Date): boolean {
  // Compare against something even for an unknown app, so timing does not tell known slugs from unknown ones.
  const current = digestMatches(presented, app?.authorizationDigest ?? '0'.repeat(64));
  const previous =
    app?.previousAuthorizationDigest && app.previousValidUntil && app.previousValidUntil > now
      ? digestMatches(presented, app.previousAuthorizationDigest)
      : false;
  return app !== null && (current || previous);
}
