/**
 * Finds or builds the two local servers: the Temporal CLI dev server and FerretDB (a MongoDB wire-protocol
 * server on SQLite). Both are built once from pinned Go modules into a user-level cache, so a fresh clone on
 * the same machine reuses them; nothing is downloaded as a prebuilt binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEMPORAL_CLI_VERSION = '1.5.1';
export const FERRETDB_VERSION = '1.24.2';

const log = (msg: string) => process.stderr.write(`[stack] ${msg}\n`);

export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const dir = join(base, 'skills-billing-service', 'bin');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function onPath(command: string): string | null {
  const res = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim() : null;
}

function requireGo(what: string): string {
  const go = onPath('go');
  if (!go) {
    throw new Error(
      `${what} is not on PATH and Go is needed to build it once. Install Go 1.22+ (Debian: apt-get install golang-go, ` +
        `or https://go.dev/dl), or put an existing binary on PATH, or point the service at a running server via the environment.`,
    );
  }
  return go;
}

/** Runs a build command, echoing a heartbeat so a multi-minute first build never looks hung. */
async function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; label: string }): Promise<void> {
  const started = Date.now();
  const heartbeat = setInterval(() => log(`${opts.label}: still building (${Math.round((Date.now() - started) / 1000)} s)…`), 15_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const tail: string[] = [];
      const collect = (buf: Buffer) => {
        for (const line of buf.toString().split('\n').filter(Boolean)) {
          tail.push(line);
          if (tail.length > 40) tail.shift();
          if (line.startsWith('go: downloading')) log(`${opts.label}: ${line.slice(4)}`);
        }
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${opts.label} failed (exit ${code}):\n${tail.join('\n')}`))));
    });
  } finally {
    clearInterval(heartbeat);
  }
  log(`${opts.label}: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Copy then rename inside the cache: atomic for concurrent runs, and safe when /tmp is another filesystem. */
function installBinary(built: string, target: string): void {
  const partial = `${target}.partial-${process.pid}`;
  copyFileSync(built, partial);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
}

export async function ensureTemporalBinary(): Promise<string> {
  const existing = onPath('temporal');
  if (existing) return existing;
  const target = join(cacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`);
  if (existsSync(target)) return target;
  const go = requireGo('temporal (the Temporal CLI)');
  log(`building the Temporal CLI v${TEMPORAL_CLI_VERSION} from its Go module (first time only; takes a few minutes)`);
  const gobin = mkdtempSync(join(tmpdir(), 'temporal-build-'));
  try {
    await run(
      go,
      ['install', '-trimpath', '-ldflags', `-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
        `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`],
      { env: { GOBIN: gobin, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' }, label: 'temporal' },
    );
    installBinary(join(gobin, 'temporal'), target);
  } finally {
    rmSync(gobin, { recursive: true, force: true });
  }
  return target;
}

/**
 * FerretDB is built from its module source rather than with `go install`: its version package panics unless
 * build/version/version.txt is filled in (their release tooling writes it), and the proxy refuses the
 * module's version list that `go install` asks for. The module zip is checksum-verified by `go mod download`.
 */
export async function ensureFerretBinary(): Promise<string> {
  const existing = onPath('ferretdb');
  if (existing) return existing;
  const target = join(cacheDir(), `ferretdb-${FERRETDB_VERSION}`);
  if (existsSync(target)) return target;
  const go = requireGo('ferretdb');
  log(`building FerretDB v${FERRETDB_VERSION} from its Go module (first time only; takes a minute or two)`);
  const work = mkdtempSync(join(tmpdir(), 'ferretdb-build-'));
  try {
    const dl = spawnSync(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@v${FERRETDB_VERSION}`], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, GOFLAGS: '-mod=mod' },
    });
    if (dl.status !== 0) throw new Error(`go mod download of FerretDB failed:\n${dl.stderr}${dl.stdout}`);
    const dir = (JSON.parse(dl.stdout) as { Dir: string }).Dir;
    const src = join(work, 'src');
    cpSync(dir, src, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', src]);
    writeFileSync(join(src, 'build', 'version', 'version.txt'), `v${FERRETDB_VERSION}\n`);
    await run(go, ['build', '-trimpath', '-o', join(work, 'ferretdb'), './cmd/ferretdb'], {
      cwd: src,
      env: { CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' },
      label: 'ferretdb',
    });
    installBinary(join(work, 'ferretdb'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}
