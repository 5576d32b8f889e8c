/**
 * The files a local run keeps its settings in, beside package.json:
 *   .env                    secrets and settings (written once by `npm run dev`, or by hand from .env.example)
 *   .data/dev-stack.env     the addresses `npm run dev` chose for Temporal, the store and the API while it runs
 * The CLI reads both, so its commands work as written in a second terminal beside `npm run dev`; variables
 * already in the environment win (a deployment sets its own), then .env, then the dev stack's addresses.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const ENV_FILE = '.env';
export const DEV_STACK_FILE = join('.data', 'dev-stack.env');
/** The pid of the `npm run dev` that wrote DEV_STACK_FILE: a file left by a process that is gone is ignored. */
const DEV_PID = 'DEV_STACK_PID';

/** KEY=VALUE lines, `#` comments, optional surrounding quotes; one pass per line, no backtracking. */
export function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 1) continue;
    const key = line.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value[value.length - 1] === value[0]) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

export function readEnvFile(path: string): Record<string, string> {
  return existsSync(path) ? parseEnv(readFileSync(path, 'utf8')) : {};
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The dev stack's addresses, or nothing when no `npm run dev` of this folder is running. */
export function readDevStack(dir: string): Record<string, string> {
  const { [DEV_PID]: pid, ...vars } = readEnvFile(join(dir, DEV_STACK_FILE));
  return pid && /^\d+$/.test(pid) && isRunning(Number(pid)) ? vars : {};
}

export function writeDevStack(dir: string, vars: Record<string, string>): void {
  const lines = Object.entries(vars).map(([k, v]) => `${k}=${v}`);
  mkdirSync(dirname(join(dir, DEV_STACK_FILE)), { recursive: true });
  writeFileSync(
    join(dir, DEV_STACK_FILE),
    [
      '# Written by `npm run dev` while it runs (removed when it stops): the addresses it chose, for the CLI.',
      `${DEV_PID}=${process.pid}`,
      ...lines,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
}

export function removeDevStack(dir: string): void {
  rmSync(join(dir, DEV_STACK_FILE), { force: true });
}

/** `env` with what .env and the running dev stack in `dir` add: values already set are kept. */
export function withLocalSettings(env: NodeJS.ProcessEnv, dir: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const source of [readEnvFile(join(dir, ENV_FILE)), readDevStack(dir)]) {
    for (const [k, v] of Object.entries(source)) if (out[k] === undefined || out[k] === '') out[k] = v;
  }
  return out;
}
