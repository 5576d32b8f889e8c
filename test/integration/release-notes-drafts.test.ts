/**
 * Release notes the way maintainers release (issue 33), end to end: a gaxios-shaped history built with git
 * (test/unit/skills/real-histories.ts, HTTP_CLIENT) imported by the CLI process with its component's tag prefix
 * into the real store, then drafted through the API and the CLI on the real worker: a draft before the tag, a
 * version in the wrong form refused by name, first contributions from the store's index over the whole history.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COLLECTIONS } from '../../src/store/collections';
import { backfillFirstContributions } from '../../src/store/documents';
import { ProjectRepository } from '../../src/store/projects';
import type { GitRepo } from '../support/git-repo';
import { cliEnv, startHarness, type Harness } from '../support/harness';
import { repoRoot } from '../support/repo-root';
import { adminToken, projectToken } from '../support/tokens';
import { HTTP_CLIENT } from '../unit/skills/real-histories';
import { assertResultShape } from './skills-helpers';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'src', 'cli.js');
const PROJECT = 'http-client';

describe('release notes the way maintainers release: component tags, drafts before the tag (CLI process, real store, real Temporal)', function () {
  this.timeout(90_000);
  let h: Harness;
  let repo: GitRepo;
  const member = projectToken([PROJECT]);
  const draft = (body: object) =>
    h.request('POST', `/v1/agents/${PROJECT}/skills/release_notes_composer`, { token: member, body, headers: { Prefer: 'wait=30' } });

  before(async () => {
    h = await startHarness();
    const projects = new ProjectRepository(h.db);
    await projects.upsertOrg('acme', { name: 'Acme', ownerEmail: 'ops@acme.test' }, new Date());
    await projects.upsertProject(PROJECT, { name: 'HTTP client', org: 'acme' }, new Date());
    await h.startWorker();
    repo = HTTP_CLIENT.build();
    const { stdout } = await run(
      process.execPath,
      [CLI, 'import-git', '--project', PROJECT, '--repo', repo.dir, '--tag-prefix', 'http-client-v', '--tag-prefix', 'v'],
      { env: cliEnv(h) },
    );
    assert.match(stdout, /tags: 8 releases \(6\.6\.0 … 7\.1\.2\)/);
  });
  after(async () => {
    await h?.close();
    repo?.remove();
  });

  it('drafts an untagged toVersion: everything after fromVersion up to the newest commit, unreleased, with the version the changes call for', async () => {
    const res = await draft({ fromVersion: '7.1.2', toVersion: '7.2.0' });
    assert.equal(res.status, 200, res.text);
    const result = res.body.result;
    assertResultShape(result);
    assert.equal(result.title, 'Release notes: 7.2.0 (unreleased)');
    assert.equal(result.release.status, 'unreleased');
    assert.equal(result.release.proposedVersion, '7.1.3');
    assert.equal(result.release.upTo.sha, repo.head());
    assert.match(result.markdown, /\*\*Not released yet\.\*\*/);
    assert.match(result.markdown, /`no content` response handling/);
    assert.deepEqual(result.notes, [
      'toVersion 7.2.0 disagrees with the changes since 7.1.2, which call for 7.1.3 (patch: fixes and other changes, no new feature).',
    ]);
    // Below the newest release, an untagged version names nothing: 422, saying why.
    const below = await draft({ fromVersion: '7.0.0', toVersion: '7.0.5' });
    assert.equal(below.status, 422);
    assert.match(below.body.errors[0].message, /a draft before the tag needs a version above its newest release, 7\.1\.2/);
  });

  it('answers a version with a leading "v" with a 400 that names the accepted form; a pre-release is accepted', async () => {
    const res = await draft({ fromVersion: 'v6.7.1', toVersion: '7.0.0' });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['/fromVersion'],
    );
    assert.match(
      res.body.errors[0].message,
      /^"v6\.7\.1" is not in the accepted form: major\.minor\.patch, optionally with a pre-release \(6\.7\.1, 2\.0\.0-rc\.1\), without a leading "v" or tag prefix/,
    );
    assert.doesNotMatch(res.body.detail, /\^\(0\|/, 'no regular expression');
    const rc = await draft({ fromVersion: '6.7.1', toVersion: '7.0.0-rc.1' });
    assert.equal(rc.status, 200, rc.text);
    assert.match(rc.body.result.markdown, /Support Node 18\+/);
  });

  it("names first contributions from the store's index over the whole history, people by login", async () => {
    const res = await draft({ fromVersion: '6.7.1', toVersion: '7.0.0' });
    assert.equal(res.status, 200, res.text);
    const contributors = res.body.result.sections.find((s: { heading: string }) => s.heading === 'Contributors').markdown as string;
    assert.match(contributors, /- @d-dev made their first contribution in \[#668\]\(https:\/\/github\.com\/acme\/http-client\/pull\/668\)/);
    assert.match(contributors, /@dbanks/);
    // Commits stored before the index existed get their place in it at start-up, once.
    await h.db.collection(COLLECTIONS.firstContributions).deleteMany({});
    await h.db.collection(COLLECTIONS.migrations).deleteOne({ _id: 'documents.firstContributions' as never });
    assert.ok((await backfillFirstContributions(h.db)) >= 23);
    assert.equal(await backfillFirstContributions(h.db), 0, 'done once');
    const again = await draft({ fromVersion: '6.7.1', toVersion: '7.0.0', tone: 'formal' });
    assert.match(again.body.result.markdown, /@d-dev made their first contribution in \[#668\]/);
  });

  it('the CLI drafts the same in one command, its stdout the Markdown alone (`npx skills-cli` runs bin/cli)', async () => {
    const { stdout, stderr } = await run(
      join(repoRoot(), 'bin', 'cli'),
      ['invoke', 'release_notes_composer', '--project', PROJECT, '--from', '7.1.2', '--to', '7.2.0'],
      { env: cliEnv(h, { TEMPORAL_TASK_QUEUE: h.config.temporal.taskQueue }) },
    );
    assert.match(stdout, /^# Release notes: 7\.2\.0 \(unreleased\)\n\n## Highlights\n/);
    assert.match(stdout, /\n## Full changelog\n\n\*\*Full changelog:\*\* \[7\.1\.2\.\.\.\w{7}\]\([^)]+\) \(\[7\.1\.2\]\([^)]+\)\)\n$/);
    assert.doesNotMatch(stdout, /^>|npm |\[invoke\]/m, 'nothing but the document');
    assert.match(stderr, /\[invoke\] note: toVersion 7\.2\.0 disagrees with the changes since 7\.1\.2/);
  });
  it("applies the project's listing setting (create-project's flags, PUT /v1/projects) to invocations that name none", async () => {
    const other = (r: { body: { result: { sections: { heading: string; markdown: string }[] } } }) =>
      r.body.result.sections.find((x) => x.heading === 'Other changes')?.markdown ?? '';
    const before = await draft({ fromVersion: '6.7.1', toVersion: '7.0.0' });
    assert.doesNotMatch(other(before), /timeout flaky fix/, 'a test change is left out by default');
    const { stdout } = await run(
      process.execPath,
      [CLI, 'create-project', '--project', PROJECT, '--org', 'acme', '--name', 'HTTP client', '--release-notes-internal', 'list'],
      { env: cliEnv(h) },
    );
    assert.equal(stdout, `project ${PROJECT} (org acme): updated; release notes: internalWork list\n`);
    const got = await h.request('GET', `/v1/projects/${PROJECT}`, { token: member });
    assert.deepEqual(got.body.releaseNotes, { listing: { internalWork: 'list', docs: 'count' } });
    const listed = await draft({ fromVersion: '6.7.1', toVersion: '7.0.0' });
    assert.equal(listed.status, 200, listed.text);
    assert.match(other(listed), /^- Timeout flaky fix \(\[#668\]/im);
    assert.deepEqual(listed.body.inputs.listing, { internalWork: 'list' }, 'the record keeps what it ran with');
    const own = await draft({ fromVersion: '6.7.1', toVersion: '7.0.0', listing: { internalWork: 'omit' } });
    assert.doesNotMatch(other(own), /timeout flaky fix/i, "the invocation's own listing wins");

    const admin = adminToken();
    const put = await h.request('PUT', `/v1/projects/${PROJECT}`, {
      token: admin,
      body: { name: 'HTTP client', org: 'acme', releaseNotes: { listing: { docs: 'omit' } } },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.releaseNotes, { listing: { internalWork: 'omit', docs: 'omit' } }, 'replaced, not merged');
    assert.doesNotMatch(other(await draft({ fromVersion: '6.7.1', toVersion: '7.0.0' })), /timeout flaky fix/i);
    const kept = await h.request('PUT', `/v1/projects/${PROJECT}`, { token: admin, body: { name: 'HTTP client', org: 'acme' } });
    assert.deepEqual(kept.body.releaseNotes, { listing: { internalWork: 'omit', docs: 'omit' } }, 'a body without it keeps it');
    const bad = await h.request('PUT', `/v1/projects/${PROJECT}`, {
      token: admin,
      body: { name: 'HTTP client', org: 'acme', releaseNotes: { listing: { docs: 'sometimes' } } },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(
      bad.body.errors.map((e: { path: string }) => e.path),
      ['/releaseNotes/listing/docs'],
    );
    await h.request('PUT', `/v1/projects/${PROJECT}`, { token: admin, body: { name: 'HTTP client', org: 'acme', releaseNotes: {} } });
  });
});
