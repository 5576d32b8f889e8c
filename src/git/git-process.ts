/** Runs `git` in a repository: whole output for small answers, streamed records for the log. */
import { spawn } from 'node:child_process';
import { RecordSplitter } from './log';

// No pager, prompts, colours or signature output: only the requested format reaches the parsers.
const BASE_ARGS = ['-c', 'log.showSignature=false', '-c', 'color.ui=false', '--no-pager'];
const ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };

function start(repo: string, args: string[], input?: string) {
  const child = spawn('git', ['-C', repo, ...BASE_ARGS, ...args], { env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', (err) => reject(new Error(`could not run git: ${err.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} failed (exit ${code}): ${stderr.trim()}`))));
  });
  child.stdin.on('error', () => undefined); // git may exit before reading all input; its exit status tells why
  child.stdin.end(input ?? '');
  return { child, exited };
}

export async function runGit(repo: string, args: string[], input?: string): Promise<string> {
  const { child, exited } = start(repo, args, input);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  await exited;
  return out;
}

/** The whole output as bytes (`git cat-file --batch`, whose answer counts its contents in bytes). */
export async function runGitBytes(repo: string, args: string[], input?: string): Promise<Buffer> {
  const { child, exited } = start(repo, args, input);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  await exited;
  return Buffer.concat(chunks);
}

/**
 * Yields the output cut at `terminator`, as git produces it. Consuming slowly pauses git (back-pressure),
 * so a repository of any size streams through in bounded memory.
 */
export async function* gitRecords(repo: string, args: string[], terminator: string, input?: string): AsyncGenerator<string> {
  const { child, exited } = start(repo, args, input);
  exited.catch(() => undefined); // awaited below; avoid an unhandled rejection while the loop runs
  const splitter = new RecordSplitter(terminator);
  try {
    for await (const chunk of child.stdout.setEncoding('utf8')) yield* splitter.push(chunk as string);
    yield* splitter.end();
  } finally {
    if (child.exitCode === null) child.kill();
  }
  await exited;
}
