import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Reads a dotenv-style file (KEY=VALUE lines, # comments, optional quotes). */
export function readEnvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    out[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/** On first run, writes a git-ignored .env with fresh random secrets; never overwrites an existing one. */
export function ensureEnvFile(path: string): { created: boolean } {
  if (existsSync(path)) return { created: false };
  const secret = (bytes: number) => randomBytes(bytes).toString('base64url');
  writeFileSync(
    path,
    [
      '# Written by `npm run dev` on first run with fresh random secrets. Not committed (see .gitignore).',
      '# Every variable is documented in .env.example.',
      `JWT_SECRET=${secret(48)}`,
      `OPERATOR_WEBHOOK_AUTHORIZATION=whsec_${secret(32)}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return { created: true };
}
