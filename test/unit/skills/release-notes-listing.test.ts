/**
 * A project's listing policy (src/skills/release-notes/listing.ts) on a history built with git (real-histories.ts,
 * PROCESS_RUNNER: a library that follows no convention, with test-only, tooling, dev-dependency, refactoring,
 * changelog and documentation commits). What each switch must do is what docs/skills.md promises: internal work
 * listed under Other changes or left out saying why; documentation counted in one line, listed, or left out;
 * release housekeeping (the changelog, the version commit) never listed.
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

const INTERNAL = [
  'Update test coverage for Node.js 26',
  'Fix flaky test',
  'Update dev dependencies',
  'Remove unused helper',
  'pull request template',
];
const DOCS = ['Fix typos in the README', 'Document cleaning up a process tree on Windows'];

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
    for (const t of [...INTERNAL, ...DOCS]) assert.ok(!bullets(r.markdown).some((l) => l.includes(t)), `${t} is not an entry`);
    assert.match(other(r), /Documentation: 2 changes\./);
    assert.equal(reasonOf(r, 'Fix flaky test'), 'test');
    assert.equal(reasonOf(r, 'Update dev dependencies'), 'dev dependencies');
  });

  it('internalWork "list" lists tests, tooling, dev dependencies and refactors under Other changes, never release housekeeping', () => {
    const r = notes({ internalWork: 'list' });
    const listed = bullets(other(r));
    for (const t of INTERNAL)
      assert.ok(
        listed.some((l) => l.includes(t)),
        `${t} listed:\n${other(r)}`,
      );
    assert.ok(!r.markdown.includes('Update CHANGELOG'), 'the changelog commit is housekeeping');
    assert.equal(reasonOf(r, 'Update CHANGELOG for 5.0.0'), 'changelog');
    assert.match(other(r), /Documentation: 2 changes\./, 'documentation still counted');
  });

  it('docs "list" lists each documentation change; "omit" leaves them out with the reason', () => {
    const listed = bullets(other(notes({ docs: 'list' })));
    for (const t of DOCS)
      assert.ok(
        listed.some((l) => l.includes(t)),
        t,
      );
    const omitted = notes({ docs: 'omit' });
    assert.doesNotMatch(omitted.markdown, /Documentation:/);
    for (const t of DOCS) assert.equal(reasonOf(omitted, t), 'documentation (the project lists none)');
  });
});
