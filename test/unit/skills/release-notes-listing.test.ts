/**
 * A project's listing policy (src/skills/release-notes/listing.ts) on a history built with git (real-histories.ts,
 * PROCESS_RUNNER: a library that follows no convention, with test-only, tooling, dev-dependency, refactoring,
 * changelog and documentation commits). What each switch must do is what docs/skills.md promises: internal work
 * listed under Other changes or left out saying why; documentation counted in one line, listed, or left out;
 * release housekeeping (the changelog, the version commit) and CI and repository automation (the pull request
 * template) never listed; a typo fix counted, never listed one by one.
 */
import assert from 'node:assert/strict';
import type { ProjectDocument } from '../../../src/skills/documents';
import type { Listing } from '../../../src/skills/release-notes/listing';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft } from '../../../src/skills/run';
import { DEMO_NOW } from './demo';
import { importInMemory } from './import-in-memory';
import { retrieve } from './memory-store';
import { PROCESS_RUNNER } from './real-histories';

const INTERNAL = ['Update test coverage for Node.js 26', 'Fix flaky test', 'Update dev dependencies', 'Remove unused helper'];
/** Repository automation: left out even where internal work is listed. */
const AUTOMATION = 'pull request template';
const DOCS = ['Fix typos in the README', 'Document cleaning up a process tree on Windows'];
/** A typo fix: counted with the documentation even where documentation is listed. */
const TYPOS = 'Fix typos in the README';

describe('skills: release notes list what the project lists (process-runner, built with git)', function () {
  this.timeout(30_000);
  let docs: ProjectDocument[];
  before(async () => ({ docs } = await importInMemory(PROCESS_RUNNER.build(), PROCESS_RUNNER.name)));
  const notes = (listing?: Listing): SkillResult => {
    const inputs = { fromVersion: '4.3.1', toVersion: '5.0.0', ...(listing ? { listing } : {}) };
    return selectAndDraft('release_notes_composer', inputs, retrieve(retrievalPlan('release_notes_composer', inputs), docs), DEMO_NOW);
  };
  const other = (r: SkillResult) => r.sections.find((s) => s.heading === 'Other changes')?.markdown ?? '';
  const bullets = (markdown: string) => markdown.split('\n').filter((l) => l.startsWith('- '));
  const reasonOf = (r: SkillResult, title: string) => {
    const doc = docs.find((d) => d.kind === 'commit' && d.title.includes(title))!;
    return r.retrieval.excluded.find((e) => e.id === `commit:${(doc as { sha: string }).sha.slice(0, 7)}`)?.reason;
  };

  it('by default (and with the defaults named) leaves internal work out saying why, and counts documentation in one line', () => {
    const r = notes();
    assert.equal(r.markdown, notes({ internalWork: 'omit', docs: 'count' }).markdown);
    for (const t of [...INTERNAL, AUTOMATION, ...DOCS]) assert.ok(!bullets(r.markdown).some((l) => l.includes(t)), `${t} is not an entry`);
    assert.match(other(r), /Documentation: 2 changes\./);
    assert.equal(reasonOf(r, 'Fix flaky test'), 'test');
    assert.equal(reasonOf(r, 'Update dev dependencies'), 'dev dependencies');
  });

  it('internalWork "list" lists tests, tooling, dev dependencies and refactors under Other changes, never release housekeeping or CI and repository automation', () => {
    const r = notes({ internalWork: 'list' });
    const listed = bullets(other(r));
    for (const t of INTERNAL)
      assert.ok(
        listed.some((l) => l.includes(t)),
        `${t} listed:\n${other(r)}`,
      );
    assert.ok(!r.markdown.includes(AUTOMATION), 'a pull request template is repository automation');
    assert.equal(reasonOf(r, 'Remove an unneeded header from the pull request template'), 'development tooling');
    assert.ok(!r.markdown.includes('Update CHANGELOG'), 'the changelog commit is housekeeping');
    assert.equal(reasonOf(r, 'Update CHANGELOG for 5.0.0'), 'changelog');
    assert.match(other(r), /Documentation: 2 changes\./, 'documentation still counted');
  });

  it('docs "list" lists each documentation change but counts a typo fix; "omit" leaves them out with the reason', () => {
    const listing = notes({ docs: 'list' });
    const listed = bullets(other(listing));
    for (const t of DOCS.filter((d) => d !== TYPOS))
      assert.ok(
        listed.some((l) => l.includes(t)),
        t,
      );
    assert.ok(!listed.some((l) => l.includes(TYPOS)), 'a typo fix is not listed one by one');
    assert.match(other(listing), /Documentation: 1 change\./, 'it is counted');
    const omitted = notes({ docs: 'omit' });
    assert.doesNotMatch(omitted.markdown, /Documentation:/);
    for (const t of DOCS) assert.equal(reasonOf(omitted, t), 'documentation (the project lists none)');
  });
});
