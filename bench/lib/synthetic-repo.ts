/**
 * A git repository of real shape built with `git fast-import` in seconds, the same on every run (seeded
 * messages, fixed dates): squash merges ending in "(#N)", merge commits of feature branches, conventional and
 * free-form titles, ticket keys, `Co-authored-by` trailers, bot dependency bumps, breaking changes, and
 * release tags (annotated and lightweight) spread evenly over the history. Nothing is downloaded.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { seeded } from './random';

export interface SyntheticRepoOptions {
  dir: string;
  commits: number;
  tags: number;
  seed?: number;
}

export interface SyntheticRepo {
  dir: string;
  /** Commits written, merge commits and feature-branch commits included. */
  commits: number;
  tags: number;
}

const PEOPLE = ['Priya Raman', 'Marco Bianchi', 'Sara Lindqvist', 'Tom Okafor', 'Lena Fischer', 'Ana Souza', 'Kenji Sato', 'Noor Haddad'];
const SCOPES = ['api', 'orders', 'auth', 'search', 'export', 'checkout', 'ui', 'webhooks'];
const THINGS = [
  'order filters',
  'CSV export',
  'session refresh',
  'saved searches',
  'payment retries',
  'webhook signatures',
  'dark mode',
  'bulk edit',
  'UTF-8 file names',
  'ISO-8601 dates',
];
const TYPES = ['feat', 'fix', 'fix', 'perf', 'chore', 'docs', 'refactor', 'test', 'ci'];
const START = Date.parse('2019-01-01T00:00:00Z') / 1000;

function ident(name: string, at: number): string {
  return `${name} <${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.test> ${at} +0000`;
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/** Writes the fast-import stream for the history; returns what it holds. */
function* stream(options: SyntheticRepoOptions, counts: { commits: number; tags: number }): Generator<string> {
  const rng = seeded(options.seed ?? 7);
  let mark = 0;
  let mainTip = 0;
  let pr = 100;
  let clock = START;
  const tagEvery = Math.max(1, Math.floor(options.commits / Math.max(1, options.tags)));
  let version = { major: 1, minor: 0, patch: 0 };

  const pending: string[] = [];
  const commit = (ref: string, from: number, message: string, merge?: number, author = rng.pick(PEOPLE)): number => {
    clock += rng.int(600, 20_000);
    mark += 1;
    counts.commits += 1;
    const parents = `${from ? `from :${from}\n` : ''}${merge ? `merge :${merge}\n` : ''}`;
    pending.push(
      `commit ${ref}\nmark :${mark}\nauthor ${ident(author, clock)}\ncommitter ${ident(author, clock)}\n${data(message)}${parents}M 644 inline file.txt\n${data(`${mark}\n`)}\n`,
    );
    return mark;
  };

  while (counts.commits < options.commits) {
    const kind = rng.int(0, 19);
    pr += 1;
    const scope = rng.pick(SCOPES);
    const thing = rng.pick(THINGS);
    const ticket = `WEB-${rng.int(1, 4000)}`;
    if (kind === 0) {
      // A feature branch of two commits, merged with a merge commit.
      const first = commit(`refs/heads/feature-${pr}`, mainTip, `Start ${thing} in ${scope}\n\n${ticket}`);
      const second = commit(
        `refs/heads/feature-${pr}`,
        first,
        `Finish ${thing}\n\nCo-authored-by: ${rng.pick(PEOPLE)} <pair@example.test>`,
      );
      mainTip = commit('refs/heads/main', mainTip, `Merge pull request #${pr} from acme/feature/${ticket}-${scope}\n\n${thing}`, second);
    } else if (kind === 1) {
      mainTip = commit(
        'refs/heads/main',
        mainTip,
        `chore(deps): bump ${scope}-lib from 1.${rng.int(0, 9)}.0 to 1.${rng.int(10, 19)}.0 (#${pr})`,
        undefined,
        'dependabot[bot]',
      );
    } else if (kind === 2) {
      const body = `* feat!: ${thing} requires the v2 ${scope} API\n\nBREAKING CHANGE: call /v2/${scope} instead of /v1/${scope}.\n\nCo-authored-by: Owl Bot <gcf-owl-bot[bot]@users.noreply.github.com>`;
      mainTip = commit('refs/heads/main', mainTip, `feat(${scope})!: ${thing} on the v2 API (#${pr})\n\n${body}`);
    } else if (kind === 3) {
      mainTip = commit('refs/heads/main', mainTip, `${thing} shows the wrong totals in ${scope} (#${pr})\n\nFixes #${rng.int(1, 900)}`);
    } else {
      const type = rng.pick(TYPES);
      mainTip = commit(
        'refs/heads/main',
        mainTip,
        `${type}(${scope}): ${type === 'fix' ? 'handle' : 'add'} ${thing} (#${pr})\n\nImplements ${ticket}.`,
      );
    }
    yield* pending.splice(0);
    if (counts.tags < options.tags && counts.commits >= (counts.tags + 1) * tagEvery) {
      version =
        counts.tags % 25 === 24
          ? { major: version.major + 1, minor: 0, patch: 0 }
          : counts.tags % 5 === 4
            ? { ...version, minor: version.minor + 1, patch: 0 }
            : { ...version, patch: version.patch + 1 };
      const name = `v${version.major}.${version.minor}.${version.patch}`;
      counts.tags += 1;
      yield counts.tags % 2 === 0
        ? `tag ${name}\nfrom :${mainTip}\ntagger ${ident('Priya Raman', clock + 60)}\n${data(`Release ${name}`)}`
        : `reset refs/tags/${name}\nfrom :${mainTip}\n\n`;
    }
  }
}

export async function buildSyntheticRepo(options: SyntheticRepoOptions): Promise<SyntheticRepo> {
  mkdirSync(options.dir, { recursive: true });
  const git = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('git', ['-C', options.dir, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.stdin.on('error', () => undefined); // the exit status and stderr say why git stopped reading
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} failed: ${stderr.trim()}`))));
      if (args[0] === 'fast-import') {
        const counts = { commits: 0, tags: 0 };
        void (async () => {
          for (const chunk of stream(options, counts))
            if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
          child.stdin.end();
          result.commits = counts.commits;
          result.tags = counts.tags;
        })();
      } else child.stdin.end();
    });
  const result: SyntheticRepo = { dir: options.dir, commits: 0, tags: 0 };
  await git(['init', '-q', '-b', 'main']);
  await git(['fast-import', '--quiet']);
  await git(['remote', 'add', 'origin', 'git@github.com:acme/synthetic.git']);
  await git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  return result;
}
