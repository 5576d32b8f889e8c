import { mintToken } from '../auth/mint-token';
import { loadConfig } from '../config/config';
import type { CliCommand } from './command';

const list = (v: unknown): string[] | undefined => (typeof v === 'string' && v !== '' ? v.split(',').map((s) => s.trim()) : undefined);

export const mintTokenCommand: CliCommand = {
  summary: 'Print a signed JWT for local use (HS256 with JWT_SECRET)',
  usage: '--sub NAME [--projects a,b|*] [--apps a,b|*] [--admin] [--hours 12]',
  options: {
    sub: { type: 'string', default: 'local-user' },
    projects: { type: 'string' },
    apps: { type: 'string' },
    admin: { type: 'boolean', default: false },
    hours: { type: 'string', default: '12' },
  },
  async run(values) {
    const config = loadConfig(process.env);
    if (!config.jwt.secret) throw new Error('mint-token needs JWT_SECRET (tokens for RS256/ES256 come from your identity provider)');
    const projects = list(values.projects) ?? [];
    const apps = list(values.apps) ?? [];
    // Every route but the health checks needs a project, an app or the admin role: such a token would only be
    // refused, so say so instead of printing it.
    if (projects.length === 0 && apps.length === 0 && !values.admin)
      throw new Error(
        'a token with no --projects, --apps or --admin can do nothing (every route needs one of them); give at least one, e.g. --projects acme-web',
      );
    const hours = Number(values.hours);
    if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 30) throw new Error('--hours must be between 0 and 720');
    const token = mintToken(
      config.jwt.secret,
      {
        sub: String(values.sub),
        projects,
        apps,
        roles: values.admin ? ['admin'] : [],
      },
      { expiresInSeconds: Math.round(hours * 3600), issuer: config.jwt.issuer, audience: config.jwt.audience },
    );
    process.stdout.write(`${token}\n`);
    return 0;
  },
};
