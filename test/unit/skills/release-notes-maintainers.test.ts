/**
 * Release notes the way maintainers release them (issue 33), on a history shaped like googleapis/gaxios built
 * with git (real-histories.ts, HTTP_CLIENT), imported by import-git's own code and retrieved through the plan
 * from a store in memory that marks first contributions over every document it holds, as the real store's
 * index does: no empty section, highlights that add something, reverts listed, first contributions from the
 * whole history, people by login, a draft before the tag, component tags and pre-releases.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check } from '../../../src/contracts/validation';
import type { ProjectDocument } from '../../../src/skills/documents';
import { releaseNotesInputSchema } from '../../../src/skills/release-notes/definition';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft, validateBusinessRules } from '../../../src/skills/run';
import { repoRoot } from '../../support/repo-root';
import { DEMO_NOW } from './demo';
import { importInMemory } from './import-in-memory';
import { retrieve } from './memory-store';
import { HTTP_CLIENT } from './real-histories';

const importHistory = (tagPrefixes?: string[]) => importInMemory(HTTP_CLIENT.build(), HTTP_CLIENT.name, tagPrefixes ? { tagPrefixes } : {});

const headings = (r: SkillResult) => r.sections.map((s) => s.heading);
const sectionOf = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)?.markdown ?? '';

describe('skills: release notes the way maintainers release (http-client, a gaxios-shaped history built with git)', function () {
  this.timeout(30_000);
  let docs: ProjectDocument[];
  let said: string[];
  const notes = (fromVersion: string, toVersion: string) => {
    const inputs = { fromVersion, toVersion };
    return selectAndDraft('release_notes_composer', inputs, retrieve(retrievalPlan('release_notes_composer', inputs), docs), DEMO_NOW);
  };
  before(async () => ({ docs, said } = await importHistory(HTTP_CLIENT.tagPrefixes)));

  it('1. leaves out the sections it has nothing for: a one-fix patch is its fix, its people and its changelog link', () => {
    const r = notes('7.1.0', '7.1.1');
    assert.deepEqual(headings(r), ['Fixes', 'Contributors', 'Full changelog']);
    assert.match(sectionOf(r, 'Fixes'), /^- Don't iterate over undefined opts\.data \(\[#711\]\([^)]+\)\) by @dbanks$/);
    for (const s of r.sections) assert.doesNotMatch(s.markdown, /^(No |Nothing )/, s.heading);
    assert.match(
      sectionOf(r, 'Full changelog'),
      /^\*\*Full changelog:\*\* \[7\.1\.0\.\.\.7\.1\.1\]\([^)]+\), released \d{4}-\d{2}-\d{2} /,
      'the date stands by the changelog link',
    );
  });

  it('2. has highlights only where they add to the entries, and never repeats an entry in them', () => {
    assert.ok(!headings(notes('7.0.0', '7.1.0')).includes('Highlights'), 'one feature needs no summary');
    const major = notes('6.7.1', '7.0.0');
    const highlights = sectionOf(major, 'Highlights');
    assert.equal(highlights, 'Since 6.7.1: 2 breaking changes, 1 new feature and 1 revert.');
    for (const line of major.markdown.split('\n').filter((l) => l.startsWith('- ')))
      assert.ok(!highlights.includes(line.slice(2, 20)), `highlights repeat "${line}"`);
  });

  it('3. lists a user-visible revert under Reverts, and drops a feature reverted before it shipped, with both reasons', () => {
    const r = notes('6.7.1', '7.0.0');
    assert.match(
      sectionOf(r, 'Reverts'),
      /^- Undeprecate `adapter` \(\[#682\]\(https:\/\/github\.com\/acme\/http-client\/pull\/682\); 7\.0\.0\) by @d-dev$/,
    );
    assert.doesNotMatch(r.markdown, /response cache/);
    const reasons = r.retrieval.excluded.map((e) => e.reason);
    assert.ok(
      reasons.some((x) => x.startsWith('reverted in the same range')),
      reasons.join(', '),
    );
    assert.ok(reasons.includes('reverts a change of the same range'));
  });

  it('4. names first contributions from the whole history: the first pull request, even one not listed (a test fix)', () => {
    const r = notes('6.7.1', '7.0.0');
    assert.match(
      sectionOf(r, 'Contributors'),
      /New contributors:\n\n- @d-dev made their first contribution in \[#668\]\(https:\/\/github\.com\/acme\/http-client\/pull\/668\)$/,
    );
    assert.ok(!sectionOf(r, 'Fixes').includes('#668'), 'the test fix itself is not an entry');
    // From the pre-release on, d-dev is no newcomer: their first contribution shipped in 7.0.0-rc.1.
    assert.doesNotMatch(sectionOf(notes('7.0.0-rc.1', '7.0.0'), 'Contributors'), /New contributors/);
    // A first contribution after the last tag is the draft's.
    assert.match(sectionOf(notes('7.1.1', '7.1.2'), 'Contributors'), /- Tomas Rimko made their first contribution in \[#738\]/);
  });

  it('5. names people by their login where one is known, by their name otherwise, the same way everywhere', () => {
    const r = notes('6.6.0', '7.0.0');
    // Dan Banks signed one commit with a no-reply address: every commit of that name is @dbanks.
    assert.doesNotMatch(r.markdown, /Dan Banks/);
    assert.match(sectionOf(r, 'Breaking changes'), /\*\*Support Node 18\+\*\* \([^)]*\); 7\.0\.0-rc\.1\) by @dbanks\./);
    assert.match(
      sectionOf(r, 'New features'),
      /`fetch`-compatible API \([^)]*\); 7\.0\.0\) by @d-dev and @sofi/,
      'a co-author by the login of their address',
    );
    assert.match(sectionOf(r, 'Contributors'), /^Thanks to the people who contributed to this release: @d-dev, @dbanks and @sofi\.$/m);
    assert.match(sectionOf(notes('7.1.1', '7.1.2'), 'Fixes'), /by Tomas Rimko$/, 'no login known: the name');
  });

  it('6. drafts before the tag: everything after fromVersion up to the newest commit, said to be unreleased, with the version the changes call for', () => {
    const inputs = { fromVersion: '7.1.2', toVersion: '7.2.0' };
    const releaseVersions = docs.filter((d) => d.kind === 'release').map((d) => (d as { version: string }).version);
    assert.deepEqual(
      validateBusinessRules('release_notes_composer', inputs, { releaseVersions }),
      [],
      'an untagged version above every release',
    );
    const r = notes('7.1.2', '7.2.0');
    assert.equal(r.title, 'Release notes: 7.2.0 (unreleased)');
    assert.match(
      sectionOf(r, 'Highlights'),
      /^\*\*Not released yet\.\*\* 7\.2\.0 is not tagged: this draft covers the changes after 7\.1\.2 up to commit \[\w{7}\]\(https:\/\/github\.com\/acme\/http-client\/commit\/\w{40}\) of 2024-04-02\. The changes since 7\.1\.2 call for version \*\*7\.1\.3\*\* \(patch: fixes and other changes, no new feature\)\./,
    );
    assert.match(sectionOf(r, 'Fixes'), /`no content` response handling/);
    assert.match(
      sectionOf(r, 'Full changelog'),
      /\[7\.1\.2\.\.\.\w{7}\]\(https:\/\/github\.com\/acme\/http-client\/compare\/http-client-v7\.1\.2\.\.\.\w{40}\)/,
    );
    assert.deepEqual(r.release && { ...r.release, upTo: undefined }, {
      version: '7.2.0',
      status: 'unreleased',
      base: '7.1.2',
      proposedVersion: '7.1.3',
      bump: 'patch',
      upTo: undefined,
    });
    assert.deepEqual(r.notes, [
      'toVersion 7.2.0 disagrees with the changes since 7.1.2, which call for 7.1.3 (patch: fixes and other changes, no new feature).',
    ]);
    assert.equal(notes('7.1.2', '7.1.3').notes, undefined, 'the version the changes call for: no warning');
    // A tagged toVersion is a release: nothing unreleased creeps in.
    assert.doesNotMatch(notes('7.1.1', '7.1.2').markdown, /no content/);
    assert.equal(notes('7.1.1', '7.1.2').release?.status, 'released');
  });

  it('7. reads component tags and pre-releases: drafting 7.0.0 includes its pre-release, drafting the pre-release alone works', async () => {
    assert.ok(
      said.some((l) => /^tags: 8 releases \(6\.6\.0 … 7\.1\.2\)$/.test(l)),
      said.join('\n'),
    );
    const plain = await importHistory();
    assert.ok(
      plain.said.some((l) => /not releases: http-client-v7\.1\.2/.test(l)) &&
        plain.said.some((l) => /other tag prefixes in this repository: http-client-v \(1 tag\)/.test(l)),
      plain.said.join('\n'),
    );
    assert.match(
      sectionOf(notes('6.7.1', '7.0.0'), 'Breaking changes'),
      /\*\*Support Node 18\+\*\* \(\[#650\]\([^)]+\); 7\.0\.0-rc\.1\)/,
      "the pre-release's change, named by it",
    );
    const rc = notes('6.7.1', '7.0.0-rc.1');
    assert.match(sectionOf(rc, 'Breaking changes'), /Support Node 18\+/);
    assert.doesNotMatch(rc.markdown, /fetch/);
    // A leading "v" is not a version: the 400 names the accepted form.
    const errors = check(releaseNotesInputSchema, { fromVersion: 'v6.7.1', toVersion: '7.0.0' });
    assert.deepEqual(errors, [
      {
        path: '/fromVersion',
        message:
          '"v6.7.1" is not in the accepted form: major.minor.patch, optionally with a pre-release (6.7.1, 2.0.0-rc.1), without a leading "v" or tag prefix. The exclusive lower bound: a release of the project',
      },
    ]);
    assert.deepEqual(check(releaseNotesInputSchema, { fromVersion: '6.7.1', toVersion: '7.0.0-rc.1' }), []);
  });

  it("9. the documentation's release-notes example (docs/skills.md) is a whole document, from its title to its changelog link", () => {
    const readme = readFileSync(join(repoRoot(), 'docs', 'skills.md'), 'utf8');
    const example = /For example, `googleapis\/gaxios`[^]*?```markdown\n([^]*?)```/.exec(readme)?.[1];
    assert.ok(example, 'the example block');
    assert.match(example, /^# Release notes: 7\.0\.0\n/);
    assert.match(
      example,
      /\n## Full changelog\n\n\*\*Full changelog:\*\* \[6\.7\.1\.\.\.7\.0\.0\]\([^)]+\), released \d{4}-\d{2}-\d{2} .*\n$/,
    );
    assert.doesNotMatch(example, /^(…|\.\.\.)$/m, 'nothing cut out');
  });
});
