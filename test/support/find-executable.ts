import { execFileSync } from 'node:child_process';

/** The first of `candidates` (a path, or a name looked up on PATH) that is an executable, as a path; else null. */
export function findExecutable(candidates: readonly (string | undefined)[]): string | null {
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return execFileSync('sh', ['-c', 'command -v "$1"', 'sh', candidate], { encoding: 'utf8' }).trim() || null;
    } catch {
      /* not this one */
    }
  }
  return null;
}
