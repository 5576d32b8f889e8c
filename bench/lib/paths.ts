import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (package.json and demo/), found upwards from the compiled file in dist/bench/…. */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'demo'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no folder with package.json and demo/ above ${__dirname}`);
  }
}

export const RESULTS_FILE = () => join(repoRoot(), 'bench', 'results', 'latest.json');
