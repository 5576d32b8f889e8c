import { mintToken } from '../auth/mint-token';
import { loadConfig } from '../config/config';
import { apiSettings, type ApiSettings } from './api-client';

/**
 * The service's API for commands that try it by hand (trigger, listen): `--api`, else SKILLS_API_URL, else
 * PUBLIC_BASE_URL, else the address `npm run dev` chose (HOST and PORT from .data/dev-stack.env).
 */
export function apiBase(values: Record<string, unknown>): string {
  const given = typeof values.api === 'string' ? values.api : (process.env.SKILLS_API_URL ?? process.env.PUBLIC_BASE_URL);
  if (given) return given.replace(/\/$/, '');
  const host = process.env.HOST && process.env.HOST !== '0.0.0.0' && process.env.HOST !== '::' ? process.env.HOST : '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? 3000}`;
}

/**
 * `--api URL --token JWT` (or SKILLS_API_URL and SKILLS_TOKEN) when given; beside `npm run dev`, which holds
 * JWT_SECRET, a short-lived admin token minted here, so trying the service needs no hand-made token.
 */
export function adminApiSettings(values: Record<string, unknown>, sub: string): ApiSettings {
  const given = apiSettings(values);
  if (given) return given;
  const config = loadConfig(process.env);
  if (!config.jwt.secret) throw new Error('give --api URL --token ADMIN_JWT (no JWT_SECRET here to mint a token with)');
  const token = mintToken(
    config.jwt.secret,
    { sub, projects: [], apps: [], roles: ['admin'] },
    { expiresInSeconds: 12 * 3600, issuer: config.jwt.issuer, audience: config.jwt.audience },
  );
  return { api: apiBase(values), token };
}
