/**
 * Finds or builds the two local servers: the Temporal CLI dev server (from its pinned Go module) and SecantusDB
 * (a MongoDB wire-protocol server, from its pinned crate). Both are built once into a user-level cache, so a
 * fresh clone on the same machine reuses them; nothing is downloaded as a prebuilt binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEMPORAL_CLI_VERSION = '1.5.1';
export const SECANTUS_VERSION = '0.5.3-beta.196';

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

/**
 * Runs a build command, echoing a heartbeat with the build's own progress (Go modules downloaded, crates
 * compiled) so a multi-minute first build never looks hung.
 */
async function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; label: string }): Promise<void> {
  const started = Date.now();
  let steps = 0;
  let lastStep = '';
  const heartbeat = setInterval(() => {
    const secs = Math.round((Date.now() - started) / 1000);
    log(`${opts.label}: still building (${secs} s${steps ? `, ${steps} steps, last: ${lastStep}` : ''})…`);
  }, 15_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const tail: string[] = [];
      const collect = (buf: Buffer) => {
        for (const line of buf.toString().split('\n').filter(Boolean)) {
          tail.push(line);
          if (tail.length > 40) tail.shift();
          const step = /^\s*(?:go: downloading|Compiling|Downloaded) (\S+)/.exec(line);
          if (step) {
            steps += 1;
            lastStep = step[1]!;
          }
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
      [
        'install',
        '-trimpath',
        '-ldflags',
        `-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
        `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
      ],
      { env: { GOBIN: gobin, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' }, label: 'temporal' },
    );
    installBinary(join(gobin, 'temporal'), target);
  } finally {
    rmSync(gobin, { recursive: true, force: true });
  }
  return target;
}

/**
 * SecantusDB's `secantusd-rs` (crates.io `secantus-mdb`): the MongoDB wire protocol over WiredTiger with a
 * query planner, used as the local store when no `mongod` is installed. Built once with `cargo install` from
 * the pinned crate version (`--locked` keeps its dependency versions those of the crate's lock file). The
 * crate declares a newer rust-version than Debian's toolchain; this version builds with 1.95, hence
 * `--ignore-rust-version`. It runs as a separate process and is never linked into the service.
 */
export async function ensureSecantusBinary(): Promise<string> {
  const existing = onPath('secantusd-rs');
  if (existing) return existing;
  const target = join(cacheDir(), `secantusd-rs-${SECANTUS_VERSION}`);
  if (existsSync(target)) return target;
  const cargo = onPath('cargo');
  if (!cargo) {
    throw new Error(
      'No MongoDB-wire server is available: `mongod` is not on PATH, and cargo (Rust) is needed to build SecantusDB ' +
        '(`secantusd-rs`) once. Install Rust (Debian: apt-get install cargo, or rustup), or install MongoDB so that ' +
        '`mongod` is on PATH, or point the service at a running server with MONGODB_URI.',
    );
  }
  log(`building SecantusDB ${SECANTUS_VERSION} (secantusd-rs) with cargo (first time only; about 8 minutes on 2 cores)`);
  const root = mkdtempSync(join(tmpdir(), 'secantus-build-'));
  // The target folder sits in the cache so an interrupted first build resumes where it stopped; cargo locks
  // it, so two runs building at once wait for each other instead of racing.
  const targetDir = join(cacheDir(), '..', `cargo-target-${SECANTUS_VERSION}`);
  try {
    await run(cargo, ['install', 'secantus-mdb', '--version', SECANTUS_VERSION, '--locked', '--ignore-rust-version', '--root', root], {
      env: { CARGO_TERM_COLOR: 'never', CARGO_TARGET_DIR: targetDir },
      label: 'secantusd-rs',
    });
    installBinary(join(root, 'bin', 'secantusd-rs'), target);
    rmSync(targetDir, { recursive: true, force: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return target;
}
