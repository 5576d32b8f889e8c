/**
 * What maintainers who list their own work still leave out, and what they list once (issue 33's precision analysis
 * of the changelog benchmark), on histories built with git from real commit titles. Expected values come from the
 * projects' own changelogs:
 *
 * - tj/commander.js (CHANGELOG.md, Keep a Changelog by hand; its project lists internal work and documentation): it
 *   lists "dev: switch tests from Jest to `node:test` test runner" (15.0.0), "improve negative number auto-detection
 *   test" (14.0.2), "refactor `.parseOptions()` to process args array in-place" (14.0.1), "broken markdown link in
 *   README" (14.0.1, the commit "Fix typos and broken link") and "update (dev) dependencies" once (14.0.1, two
 *   "Update dependencies" commits); none of its CI, Dependabot, node-version or pull-request-template commits, and
 *   none of "Fix typos" (13.0.0), "Fix grammar in docs" (11.1.0), "Added missing period for consistency and
 *   readability" (14.0.0).
 * - expressjs/express (History.md; documentation omitted): 5.0.0 says "Drop support for Node.js below 18" once, where
 *   the history has "feat: adopt Node@18 as the minimum supported version" twice (4b3b8cc, and #5803); 5.1.0 does not
 *   list "fix: added a missing semicolon in css styles in examples/auth (#6297)".
 */
import assert from 'node:assert/strict';
import type { CommitDocument, ProjectDocument } from '../../../src/skills/documents';
import type { ReleaseNotesInputs } from '../../../src/skills/release-notes/definition';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft } from '../../../src/skills/run';
import { GitRepo } from '../../support/git-repo';
import { DEMO_NOW } from './demo';
import { importInMemory } from './import-in-memory';
import { retrieve } from './memory-store';

const maintainer = { name: 'John Gee', email: 'john@example.test' };
const contributor = { name: 'Abe Tomoaki', email: 'abe@example.test' };

function commandLineLibrary(): GitRepo {
  const repo = new GitRepo({ start: '2025-05-18T09:00:00Z', author: maintainer });
  repo.git(['remote', 'add', 'origin', 'https://github.com/example/command-line.git']);
  repo.commit('14.0.0');
  repo.tag('v14.0.0');
  // Listed by the changelog (internal work and documentation it lists).
  repo.commit('Switch from Jest to Node.js built-in test runner (#2463)');
  repo.commit('Improve negative test (#2428)');
  repo.commit('Refactor parseOptions to process args in-place (#2409)');
  repo.commit('Fix typos and broken link (#2369)', undefined, contributor);
  repo.commit('Update dependencies (#2411)');
  repo.commit('Update dependencies (#2418)');
  // Left out by the changelog: CI and repository automation, typo and punctuation fixes.
  repo.commit('Pin GitHub actions with hash (#2521)', undefined, contributor);
  repo.commit('Add 22.x to node-version (#2192)', undefined, contributor);
  repo.commit('Drop EOL node 20 from test matrix, and add node 26 (#2520)');
  repo.commit('Watch for npm package updates with dependabot', undefined, contributor);
  repo.commit('Remove unneeded header from Pull Request template (#2224)');
  repo.commit('Fix typos (#2264)', undefined, contributor);
  repo.commit('Fix grammar in docs', undefined, contributor);
  repo.commit('Added missing period for consistency and readability (#2318)', undefined, contributor);
  // A typo in what the program prints is still listed where documentation is (expressjs/express be478d34).
  repo.commit('Fix typo in res.redirect deprecation', undefined, contributor);
  repo.commit('14.1.0');
  repo.tag('v14.1.0');
  return repo;
}

function webFramework(): GitRepo {
  const repo = new GitRepo({ start: '2024-09-01T09:00:00Z', author: { name: 'Ulises Gascon', email: 'ulises@example.test' } });
  repo.git(['remote', 'add', 'origin', 'https://github.com/example/web-framework.git']);
  repo.commit('5.0.0-beta.3');
  repo.tag('v5.0.0-beta.3');
  repo.commit('feat: adopt Node@18 as the minimum supported version');
  repo.commit('fix: added a missing semicolon in css styles in examples/auth (#6297)');
  repo.commit('feat: adopt Node@18 as the minimum supported version (#5803)');
  repo.commit('5.0.0');
  repo.tag('v5.0.0');
  return repo;
}

async function imported(build: () => GitRepo, name: string): Promise<ProjectDocument[]> {
  return (await importInMemory(build(), name)).docs;
}

const draft = (docs: ProjectDocument[], inputs: ReleaseNotesInputs): SkillResult =>
  selectAndDraft('release_notes_composer', inputs, retrieve(retrievalPlan('release_notes_composer', inputs), docs), DEMO_NOW);

/** The entries: bullets of the group sections (the contributors section has bullets of its own). */
const bullets = (r: SkillResult) =>
  r.sections
    .filter((s) => !['Contributors', 'New contributors'].includes(s.heading))
    .flatMap((s) => s.markdown.split('\n'))
    .filter((l) => l.startsWith('- '));

const reasonOf = (docs: ProjectDocument[], r: SkillResult, title: string) => {
  const doc = docs.find((d): d is CommitDocument => d.kind === 'commit' && d.title.startsWith(title))!;
  assert.ok(doc, title);
  return r.retrieval.excluded.find((e) => e.id === `commit:${doc.sha.slice(0, 7)}`)?.reason;
};

describe('skills: release notes list what maintainers list (commander- and express-shaped histories, built with git)', function () {
  this.timeout(30_000);
  let library: ProjectDocument[];
  let framework: ProjectDocument[];
  before(async () => {
    library = await imported(commandLineLibrary, 'command-line');
    framework = await imported(webFramework, 'web-framework');
  });

  it('a project that lists its own work and documentation lists what its changelog lists', () => {
    const r = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0', listing: { internalWork: 'list', docs: 'list' } });
    const listed = bullets(r);
    for (const title of [
      'Switch from Jest to Node.js built-in test runner',
      'Improve negative test',
      'Refactor parseOptions to process args in-place',
      'Fix typos and broken link',
      'Fix typo in res.redirect deprecation',
    ])
      assert.ok(
        listed.some((l) => l.includes(title)),
        `${title} listed:\n${listed.join('\n')}`,
      );
  });

  it('never lists CI and repository automation, even where the project lists its own work; says why', () => {
    const r = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0', listing: { internalWork: 'list', docs: 'list' } });
    const automation = [
      'Pin GitHub actions with hash',
      'Add 22.x to node-version',
      'Drop EOL node 20 from test matrix, and add node 26',
      'Watch for npm package updates with dependabot',
      'Remove unneeded header from Pull Request template',
    ];
    for (const title of automation) {
      assert.ok(!r.markdown.includes(title), `${title} is not listed`);
      assert.ok(reasonOf(library, r, title), `${title} has a reason`);
    }
    assert.equal(reasonOf(library, r, 'Pin GitHub actions with hash'), 'development tooling');
    assert.equal(reasonOf(library, r, 'Drop EOL node 20 from test matrix'), 'test');
    // The same reasons as when internal work is omitted: only whether they are listed differs.
    const omitted = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0' });
    for (const title of automation) assert.equal(reasonOf(library, r, title), reasonOf(library, omitted, title));
  });

  it('counts typo, grammar and punctuation fixes with the documentation, never one by one; omits them where docs are omitted', () => {
    const typos = ['Fix typos (#2264)', 'Fix grammar in docs', 'Added missing period for consistency and readability'];
    const listing = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0', listing: { internalWork: 'list', docs: 'list' } });
    // An entry is "- <title>", then its references " ([#…" and people " by …".
    const isEntry = (line: string, title: string) =>
      line === `- ${title}` || [' (', ' by '].some((next) => line.startsWith(`- ${title}${next}`));
    for (const title of typos) assert.ok(!bullets(listing).some((l) => isEntry(l, title.replace(/ \(#\d+\)$/, ''))), `${title} not listed`);
    assert.match(listing.markdown, /Documentation: 3 changes\./);
    const counting = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0' });
    assert.match(counting.markdown, /Documentation: 5 changes\./, 'the default counts them with the other two');
    const omitting = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0', listing: { docs: 'omit' } });
    assert.doesNotMatch(omitting.markdown, /Documentation:/);
    for (const title of typos) assert.equal(reasonOf(library, omitting, title), 'documentation (the project lists none)');
  });

  it('lists the same change landed twice once, citing both (commander\'s "Update dependencies", express\'s Node@18)', () => {
    const r = draft(library, { fromVersion: '14.0.0', toVersion: '14.1.0', listing: { internalWork: 'list', docs: 'list' } });
    const updates = bullets(r).filter((l) => l.includes('Update dependencies'));
    assert.equal(updates.length, 1, updates.join('\n'));
    assert.match(updates[0]!, /#2411/);
    assert.match(updates[0]!, /#2418/);

    const major = draft(framework, { fromVersion: '5.0.0-beta.3', toVersion: '5.0.0', listing: { docs: 'omit' } });
    const node18 = bullets(major).filter((l) => /adopt Node@18/i.test(l));
    assert.equal(node18.length, 1, bullets(major).join('\n'));
    assert.match(node18[0]!, /#5803/);
    const first = framework.find(
      (d): d is CommitDocument => d.kind === 'commit' && d.title === 'feat: adopt Node@18 as the minimum supported version',
    )!;
    assert.ok(
      major.citations.some((c) => c.id === `commit:${first.sha.slice(0, 7)}`),
      'the first landing is cited too',
    );
    assert.ok(!bullets(major).some((l) => l.includes('semicolon')), 'a punctuation fix in an example is documentation');
    assert.equal(reasonOf(framework, major, 'fix: added a missing semicolon'), 'documentation (the project lists none)');
  });
});
