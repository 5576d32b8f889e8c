import type { Config } from './config';

/**
 * What the API refuses to start without in production (NODE_ENV=production), beyond what loadConfig checks for
 * every mode: tokens pinned to this service's issuer and audience (else a token minted for another service with
 * the same key is accepted here), and /metrics behind a token (it names apps and projects).
 */
export function productionProblems(config: Config): string[] {
  if (config.env !== 'production') return [];
  const problems: string[] = [];
  if (!config.jwt.issuer)
    problems.push('JWT_ISSUER is required in production (the iss your identity provider puts in tokens for this API)');
  if (!config.jwt.audience) problems.push('JWT_AUDIENCE is required in production (the aud of tokens meant for this API)');
  if (!config.metrics.token)
    problems.push('METRICS_TOKEN is required in production (GET /metrics answers only Authorization: Bearer <it>)');
  return problems;
}
