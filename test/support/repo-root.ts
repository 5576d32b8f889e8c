import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (the folder holding package.json), from source or compiled tests alike. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('dist')) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + __dirname);
    dir = up;
  }
  return dir;
}
