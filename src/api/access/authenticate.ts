import type { Context, Next } from 'koa';
import type { Config } from '../../config/config';
import { TokenError, isAdmin, verifyToken, type Principal } from './auth';
import { forbidden, unauthorized } from '../http/problem';

/**
 * Bearer-token authentication. Verification happens inside the try and `next()` outside it, so an error
 * thrown by a route (a 403, say) is never mistaken for a bad token.
 */
export function authenticate(settings: Config['jwt']) {
  return async function requireBearer(ctx: Context, next: Next): Promise<void> {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+([A-Za-z0-9_\-.=]+)$/i.exec(header);
    if (!match) throw unauthorized(header ? 'Authorization header is not a Bearer token' : 'Missing bearer token');
    let principal: Principal;
    try {
      principal = verifyToken(match[1]!, settings);
    } catch (err) {
      if (err instanceof TokenError) throw unauthorized(`Invalid token: ${err.message}`);
      throw err;
    }
    ctx.state.principal = principal;
    await next();
  };
}

export function principalOf(ctx: Context): Principal {
  const p = ctx.state.principal as Principal | undefined;
  if (!p) throw new Error('principalOf called on an unauthenticated route');
  return p;
}

/** For administrators only (roles: ["admin"]); call after authenticate(). */
export function requireAdmin(ctx: Context, what = 'This endpoint'): void {
  if (!isAdmin(principalOf(ctx))) throw forbidden(`${what} is for administrators (roles: ["admin"])`);
}
