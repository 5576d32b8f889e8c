import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';

/** Reading .env, and the file of addresses `npm run dev` keeps for the CLI, live in src/config/env-files.ts (the CLI reads them too). */
export { readEnvFile, removeDevStack, writeDevStack } from '../../src/config/env-files';

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
