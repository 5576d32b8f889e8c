import type { Context, Next } from 'koa';
import type { Config } from '../../../config/config';
import { HttpProblem } from '../../http/problem';

/**
 * DNS-rebinding protection for the MCP endpoint (the MCP Streamable HTTP transport: servers MUST validate
 * Origin). A page on another site whose name an attacker points at this server's address sends its own Origin
 * and Host: both must be this service's. Allowed: the configured origins and hosts (MCP_ALLOWED_ORIGINS and
 * MCP_ALLOWED_HOSTS, by default PUBLIC_BASE_URL's), and outside production loopback on any port (a local client or
 * inspector). A request without Origin (not from a browser) passes the Origin check. Checked here rather than by
 * the SDK transport so the refusal is a problem+json 403 like every other, and a listed host without a port
 * matches any port.
 */
export function mcpOriginGuard(agents: Config['agents']) {
  const origins = new Set(agents.allowedOrigins);
  return async function checkOrigin(ctx: Context, next: Next): Promise<void> {
    const origin = ctx.get('Origin');
    if (origin !== '' && !origins.has(origin) && !(agents.loopbackAllowed && isLoopback(hostnameOf(origin))))
      throw new HttpProblem(403, 'forbidden_origin', `Origin ${origin.slice(0, 200)} may not use this MCP server`);
    // ctx.host: the Host header, or X-Forwarded-Host behind a trusted proxy (TRUST_PROXY).
    const host = ctx.host.toLowerCase();
    if (!hostAllowed(host, agents.allowedHosts) && !(agents.loopbackAllowed && isLoopback(hostnameOf(`http://${host}`))))
      throw new HttpProblem(403, 'forbidden_host', `Host ${host.slice(0, 200) || '(none)'} is not this MCP server's`);
    await next();
  };
}

function hostAllowed(host: string, allowed: string[]): boolean {
  const name = hostnameOf(`http://${host}`);
  return name !== null && allowed.some((entry) => entry === host || (hostnameOf(`http://${entry}`) === name && !/:\d+$/.test(entry)));
}

/** The host name of a URL (IPv6 in brackets), or null when it is not one. */
function hostnameOf(url: string): string | null {
  return URL.canParse(url) ? new URL(url).hostname : null;
}

function isLoopback(hostname: string | null): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || (hostname !== null && /^127(?:\.\d{1,3}){3}$/.test(hostname));
}
