import jwt from 'jsonwebtoken';
import type { Config } from '../../config/config';

/** What a verified bearer token lets its holder do. */
export interface Principal {
  sub: string;
  projects: string[];
  apps: string[];
  roles: string[];
}

export class TokenError extends Error {}

type JwtSettings = Config['jwt'];

/** The slack for the issuer's clock when none is configured (JWT_CLOCK_SKEW_SECONDS). */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/**
 * Verifies a bearer token. The algorithm list is always explicit (so `alg: none` and HS/RS confusion are
 * refused) and `exp` is mandatory: a token without an expiry would be valid forever. `nbf` is honoured, and a
 * token whose `iat` lies further in the future than the clock skew is refused: it was minted with a wrong clock
 * or to outlive a key rotation. The skew applies to all three. An `iat` that is not a number, and a header with
 * `crit`, are refused.
 */
export function verifyToken(token: string, settings: JwtSettings, now: () => number = Date.now): Principal {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded !== 'object' || !decoded.header) throw new TokenError('malformed token');
  // RFC 7515 §4.1.11: a token naming an extension in `crit` is invalid to a verifier that does not know it, and
  // this one knows none.
  if ('crit' in decoded.header) throw new TokenError('token header names critical extensions (crit) this service does not understand');
  const alg = decoded.header.alg as string;
  if (!(settings.algorithms as string[]).includes(alg)) throw new TokenError(`algorithm ${alg} is not accepted`);
  const key = alg === 'HS256' ? settings.secret : settings.publicKey;
  if (!key) throw new TokenError(`algorithm ${alg} is not configured`);
  const skew = settings.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  let payload: string | jwt.JwtPayload;
  try {
    payload = jwt.verify(token, key, {
      algorithms: [alg as jwt.Algorithm],
      clockTolerance: skew,
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
    });
  } catch (err) {
    throw new TokenError((err as Error).message);
  }
  if (typeof payload === 'string') throw new TokenError('token payload must be a JSON object');
  if (typeof payload.exp !== 'number') throw new TokenError('token has no exp claim');
  // jsonwebtoken checks iat's type only with maxAge: a string or object iat would skip the future-iat check.
  if (payload.iat !== undefined && typeof payload.iat !== 'number') throw new TokenError('token iat is not a NumericDate');
  if (typeof payload.iat === 'number' && payload.iat > Math.floor(now() / 1000) + skew)
    throw new TokenError('token issued in the future (iat)');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new TokenError('token has no sub claim');
  return {
    sub: payload.sub,
    projects: stringList(payload.projects),
    apps: stringList(payload.apps),
    roles: stringList(payload.roles),
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export const isAdmin = (p: Principal): boolean => p.roles.includes('admin');
export const canUseProject = (p: Principal, project: string): boolean =>
  isAdmin(p) || p.projects.includes('*') || p.projects.includes(project);
export const canReadApp = (p: Principal, slug: string): boolean => isAdmin(p) || p.apps.includes('*') || p.apps.includes(slug);
