/**
 * A real git repository built commit by commit, with fixed dates and authors, so its shas and history are
 * the same on every run and machine. Used by the tests that import git history.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Person {
  name: string;
  email: string;
}

export class GitRepo {
  readonly dir: string;
  private clock: number;
  private person: Person;

  constructor(options: { start?: string; author?: Person; dir?: string } = {}) {
    this.dir = options.dir ?? mkdtempSync(join(tmpdir(), 'git-history-'));
    mkdirSync(this.dir, { recursive: true });
    this.clock = Date.parse(options.start ?? '2025-03-01T09:00:00Z');
    this.person = options.author ?? { name: 'Priya Raman', email: 'priya@shop.test' };
    this.git(['init', '-q', '-b', 'main']);
  }

  git(args: string[], person: Person = this.person): string {
    const at = new Date(this.clock).toISOString();
    const env = {
      ...process.env,
      GIT_AUTHOR_DATE: at,
      GIT_COMMITTER_DATE: at,
      GIT_AUTHOR_NAME: person.name,
      GIT_AUTHOR_EMAIL: person.email,
      GIT_COMMITTER_NAME: person.name,
      GIT_COMMITTER_EMAIL: person.email,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    };
    return execFileSync('git', ['-C', this.dir, ...args], { env, encoding: 'utf8' }).trim();
  }

  /** An empty commit one hour after the previous one; returns its sha. */
  commit(subject: string, body?: string, author?: Person): string {
    this.clock += 3_600_000;
    this.git(['commit', '-q', '--allow-empty', '-m', subject, ...(body ? ['-m', body] : [])], author);
    return this.head();
  }

  /** A commit one hour after the previous one that writes `files` (path → text) and deletes those given null; returns its sha. */
  commitFiles(subject: string, files: Record<string, string | null>, body?: string, author?: Person): string {
    this.clock += 3_600_000;
    for (const [path, text] of Object.entries(files)) {
      if (text === null) this.git(['rm', '-q', path]);
      else {
        mkdirSync(dirname(join(this.dir, path)), { recursive: true });
        writeFileSync(join(this.dir, path), text);
        this.git(['add', path]);
      }
    }
    this.git(['commit', '-q', '-m', subject, ...(body ? ['-m', body] : [])], author);
    return this.head();
  }

  /** A merge commit (no fast-forward) of `branch` into the current branch. */
  merge(branch: string, subject: string, body?: string, author?: Person): string {
    this.clock += 3_600_000;
    this.git(['merge', '-q', '--no-ff', branch, '-m', subject, ...(body ? ['-m', body] : [])], author);
    return this.head();
  }

  /** Annotated when a message is given, else lightweight. */
  tag(name: string, message?: string): void {
    this.clock += 60_000;
    this.git(message ? ['tag', '-a', name, '-m', message] : ['tag', name]);
  }

  head(): string {
    return this.git(['rev-parse', 'HEAD']);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
