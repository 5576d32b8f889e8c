import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ProjectRepository } from '../../src/store/projects';
import { GitRepo } from '../support/git-repo';
import { startHarness, type Harness, cliEnv } from '../support/harness';
import { projectToken } from '../support/tokens';
import { assertResultShape } from './skills-helpers';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'src', 'cli.js');
const GIT_PROJECT = 'shop-api';

describe('import-git: a real repository into a project, then release notes over it (CLI process, real store, real Temporal)', () => {
  let h: Harness;
  let repo: GitRepo;
  const c: Record<string, string> = {};
  const member = projectToken([GIT_PROJECT]);
  const cli = (args: string[]) =>
    run(process.execPath, [CLI, 'import-git', ...args], {
      env: cliEnv(h),
    });

  before(async () => {
    h = await startHarness();
    const projects = new ProjectRepository(h.db);
    await projects.upsertOrg('shop', { name: 'Shop', ownerEmail: 'ops@shop.test' }, new Date());
    await projects.upsertProject(GIT_PROJECT, { name: 'Shop API', org: 'shop' }, new Date());
    await h.startWorker();

    repo = new GitRepo();
    repo.git(['remote', 'add', 'origin', 'git@github.com:shop/api.git']);
    c.first = repo.commit('feat(orders): list orders with filters (#1)', 'Implements WEB-1.');
    repo.tag('v1.0.0', 'First release');
    c.fix = repo.commit('fix(api): return 404 for unknown orders', 'Fixes #45');
    repo.git(['checkout', '-q', '-b', 'saved-carts']);
    c.branch1 = repo.commit('feat(carts): save carts between sessions', 'WEB-7');
    c.branch2 = repo.commit('test(carts): cover saved carts', 'WEB-7');
    repo.git(['checkout', '-q', 'main']);
    c.chore = repo.commit('chore(deps): bump koa from 2.15.0 to 2.15.3');
    repo.commit('placeholder');
    c.placeholder = repo.git(['rev-parse', 'HEAD']);
    repo.git(['reset', '-q', '--hard', 'HEAD~1']); // a commit no ref reaches: never imported
    repo.git(['merge', '-q', '--no-ff', 'saved-carts', '-m', 'Merge pull request #7 from shop/saved-carts', '-m', 'Saved carts']);
    c.merge = repo.git(['rev-parse', 'HEAD']);
    repo.tag('1.1.0');
    repo.tag('nightly');
    c.breaking = repo.commit('feat!: drop the v1 orders endpoint (#9)', 'BREAKING CHANGE: clients must call /v2/orders.');
    repo.tag('v2.0.0-rc.1', 'Release candidate');
    repo.tag('v2.0.0', 'Version 2');
    c.unreleased = repo.commit('docs: describe the v2 endpoints');
  });
  after(async () => {
    await h?.close();
    repo?.remove();
  });

  const documents = async (kind: string) =>
    (await h.request('GET', `/v1/projects/${GIT_PROJECT}/documents?kind=${kind}&limit=200`, { token: member })).body.documents as Record<
      string,
      unknown
    >[];

  it('imports semver releases and every reachable commit with its first release, PR number and ticket keys', async () => {
    const { stdout } = await cli(['--project', GIT_PROJECT, '--repo', repo.dir]);
    assert.match(stdout, /^links: https:\/\/github\.com\/shop\/api$/m);
    assert.match(stdout, /tags: 4 releases \(1\.0\.0 … 2\.0\.0\); not releases: nightly/);
    assert.match(stdout, /commits: 8 \(7 released, 1 unreleased\)/);
    assert.match(stdout, /12 documents new, 0 updated, 0 rejected/);

    const releases = await documents('release');
    assert.deepEqual(releases.map((r) => [r.version, r.tag, r.sha, r.body]).sort(), [
      ['1.0.0', 'v1.0.0', c.first, 'First release'],
      ['1.1.0', '1.1.0', c.merge, ''],
      ['2.0.0', 'v2.0.0', c.breaking, 'Version 2'],
      ['2.0.0-rc.1', 'v2.0.0-rc.1', c.breaking, 'Release candidate'],
    ]);
    assert.deepEqual(
      releases.map((r) => r.url).sort(),
      ['1.1.0', 'v1.0.0', 'v2.0.0', 'v2.0.0-rc.1'].map((t) => `https://github.com/shop/api/releases/tag/${t}`),
    );

    const commits = new Map((await documents('commit')).map((d) => [d.sha as string, d]));
    assert.equal(commits.size, 8);
    assert.ok(!commits.has(c.placeholder), 'unreachable commits are not imported');
    const view = (sha: string) => {
      const d = commits.get(sha)!;
      return { version: d.version, prNumber: d.prNumber, ticketKeys: d.ticketKeys };
    };
    assert.deepEqual(view(c.first), { version: '1.0.0', prNumber: 1, ticketKeys: ['WEB-1'] });
    assert.deepEqual(view(c.fix), { version: '1.1.0', prNumber: undefined, ticketKeys: ['GH-45'] });
    assert.deepEqual(
      view(c.branch1),
      { version: '1.1.0', prNumber: 7, ticketKeys: ['WEB-7'] },
      'a branch commit belongs to the PR that merged it',
    );
    assert.deepEqual(view(c.chore), { version: '1.1.0', prNumber: undefined, ticketKeys: undefined });
    assert.deepEqual(view(c.merge), { version: '1.1.0', prNumber: 7, ticketKeys: undefined });
    assert.deepEqual(view(c.breaking), { version: '2.0.0-rc.1', prNumber: 9, ticketKeys: undefined }, 'first shipped in the pre-release');
    assert.deepEqual(view(c.unreleased), { version: undefined, prNumber: undefined, ticketKeys: undefined });
    const fix = commits.get(c.fix)!;
    assert.equal(fix.title, 'fix(api): return 404 for unknown orders');
    assert.equal(fix.body, 'Fixes #45');
    assert.equal(fix.author, 'Priya Raman');
    assert.equal(fix.committedAt, '2025-03-01T11:01:00.000Z');
    assert.equal(fix.url, `https://github.com/shop/api/commit/${c.fix}`);
  });

  it('a second import updates in place', async () => {
    const { stdout } = await cli(['--project', GIT_PROJECT, '--repo', repo.dir]);
    assert.match(stdout, /0 documents new, 12 updated, 0 rejected/);
    assert.equal((await documents('commit')).length, 8);
  });

  it('through the HTTP API with a token (--api): the same documents, no store or Temporal settings needed', async () => {
    const { stdout } = await run(
      process.execPath,
      [CLI, 'import-git', '--project', GIT_PROJECT, '--repo', repo.dir, '--api', h.baseUrl, '--token', member],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        cwd: tmpdir(),
      },
    );
    assert.match(stdout, /0 documents new, 12 updated, 0 rejected/);
    assert.equal((await documents('commit')).length, 8);
  });

  it('release notes over the imported history: the fix and the breaking change, each cited', async () => {
    const minor = await h.request('POST', `/v1/agents/${GIT_PROJECT}/skills/release_notes_composer`, {
      token: member,
      body: { fromVersion: '1.0.0', toVersion: '1.1.0' },
      headers: { Prefer: 'wait=30' },
    });
    assert.equal(minor.status, 200, minor.text);
    assertResultShape(minor.body.result);
    const cited = (result: { sections: { heading: string; citations: string[] }[] }, heading: string) =>
      result.sections.find((s) => s.heading === heading)?.citations ?? [];
    assert.ok(cited(minor.body.result, 'Fixes').includes(`commit:${c.fix.slice(0, 7)}`), JSON.stringify(minor.body.result.sections));
    assert.ok(
      minor.body.result.retrieval.excluded.some((e: { id: string }) => e.id === `commit:${c.chore.slice(0, 7)}`),
      'the bot-style bump is left out',
    );
    assert.equal(minor.body.result.retrieval.searched.commit, 5, 'fix, two branch commits, the bump and the merge: nothing earlier');

    const major = await h.request('POST', `/v1/agents/${GIT_PROJECT}/skills/release_notes_composer`, {
      token: member,
      body: { fromVersion: '1.1.0', toVersion: '2.0.0' },
      headers: { Prefer: 'wait=30' },
    });
    assert.equal(major.status, 200, major.text);
    const breaking = major.body.result.sections.find((s: { heading: string }) => s.heading === 'Breaking changes').markdown as string;
    assert.ok(
      cited(major.body.result, 'Breaking changes').includes(`commit:${c.breaking.slice(0, 7)}`),
      JSON.stringify(major.body.result.sections),
    );
    assert.match(
      breaking,
      /\*\*Drop the v1 orders endpoint\*\* \(\[#9\]\(https:\/\/github\.com\/shop\/api\/pull\/9\)\) by Priya Raman\. Action required: clients must call \/v2\/orders\./,
    );
  });

  it('fails clearly for an unknown project or a folder that is not a repository', async () => {
    await assert.rejects(
      cli(['--project', 'nope', '--repo', repo.dir]),
      (err: { code: number; stderr: string }) => err.code === 1 && /project "nope" does not exist/.test(err.stderr),
    );
    const empty = mkdtempSync(join(tmpdir(), 'not-a-repo-'));
    try {
      await assert.rejects(
        cli(['--project', GIT_PROJECT, '--repo', empty]),
        (err: { code: number; stderr: string }) => err.code === 1 && /is not a git repository/.test(err.stderr),
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
