import jwt from 'jsonwebtoken';

/** Mints a token (CLI and tests). HS256 only: RS/ES keys are signed by an identity provider, not by us. */
export function mintToken(
  secret: string,
  claims: { sub: string; projects?: string[]; apps?: string[]; roles?: string[] },
  options: { expiresInSeconds: number; issuer?: string | null; audience?: string | null },
): string {
  return jwt.sign({ projects: [], apps: [], roles: [], ...claims }, secret, {
    algorithm: 'HS256',
    expiresIn: options.expiresInSeconds,
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
  });
}
