/**
 * Release notes of a repository that writes changesets, on a history shaped like changesets/changesets built with
 * git: a monorepo whose package `@acme/cli` (folder packages/cli, tags `@acme/cli@X.Y.Z`) is released by the
 * changesets tool. What the notes must say comes from the tool's documented behaviour (its changelog lists one
 * line per changeset that releases the package, under Major / Minor / Patch Changes, in the changeset's words, and
 * nothing else; a changeset deleted before the release is not released), not from the code under test.
 */
import assert from 'node:assert/strict';
import type { CommitDocument, ProjectDocument } from '../../../src/skills/documents';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft } from '../../../src/skills/run';
import { GitRepo } from '../../support/git-repo';
import { DEMO_NOW } from './demo';
import { importInMemory } from './import-in-memory';
import { retrieve } from './memory-store';

// @acme/config is a dependency the tool bumps @acme/cli for; @acme/git only a development one.
const cli = (version: string) =>
  JSON.stringify({
    name: '@acme/cli',
    version,
    dependencies: { '@acme/config': 'workspace:^' },
    devDependencies: { '@acme/git': 'workspace:*' },
  });
const changeset = (bumps: Record<string, string>, summary: string) =>
  `---\n${Object.entries(bumps)
    .map(([p, b]) => `"${p}": ${b}`)
    .join('\n')}\n---\n\n${summary}\n`;

function build(): GitRepo {
  const repo = new GitRepo({ start: '2025-01-06T09:00:00Z' });
  repo.git(['remote', 'add', 'origin', 'https://github.com/acme/tools.git']);
  repo.commitFiles('Initial commit (#1)', {
    'packages/cli/package.json': cli('1.0.0'),
    'packages/git/package.json': '{"name":"@acme/git"}',
    'packages/config/package.json': '{"name":"@acme/config"}',
  });
  repo.commitFiles('Fix a crash on empty input (#2)', { 'packages/cli/src/input.ts': 'a' });
  repo.tag('@acme/cli@1.0.0');
  repo.commitFiles('Use changesets (#3)', {
    '.changeset/config.json': '{}',
    '.changeset/README.md': '# Changesets\n',
    'packages/cli/x.ts': '1',
  });
  repo.commitFiles('feat(cli): comma-separated flags (#10)', {
    'packages/cli/src/flags.ts': 'b',
    '.changeset/brave-cats-sing.md': changeset({ '@acme/cli': 'minor' }, 'Allow comma-separated values in `--major`.'),
  });
  repo.commitFiles('Rename the tag command (#11)', {
    'packages/cli/src/tag.ts': 'c',
    '.changeset/loud-dogs-run.md': changeset(
      { '@acme/cli': 'major', '@acme/git': 'patch' },
      'Renamed the `tag` command to `git-tag`.\n\nUpdate your scripts.',
    ),
    '.changeset/quiet-owls-read.md': changeset({ '@acme/cli': 'minor' }, 'Packages are now listed in alphabetical order.'),
  });
  repo.commitFiles('Fix Windows paths (#12)', {
    'packages/cli/src/paths.ts': 'd',
    '.changeset/tidy-ants-walk.md': changeset({ '@acme/cli': 'patch' }, 'Fix paths on Windos'),
  });
  repo.commitFiles('Fixup the wording of a recent changeset (#13)', {
    '.changeset/tidy-ants-walk.md': changeset({ '@acme/cli': 'patch' }, 'Fixed paths with backslashes on Windows.'),
  });
  repo.commitFiles('Migrate to pnpm (#14)', { 'packages/cli/pnpm.txt': 'e' });
  repo.commitFiles('Share git helpers (#15)', {
    'packages/cli/src/git.ts': 'f',
    '.changeset/red-fish-swim.md': changeset({ '@acme/git': 'patch' }, 'Exported `getCommits`.'),
  });
  repo.commitFiles('Bump node engines (#16)', {
    'packages/cli/engines.txt': 'g',
    '.changeset/free-birds-fly.md': changeset({ '@acme/cli': 'major' }, 'Requires Node.js 20.'),
  });
  repo.commitFiles('Cleanup some existing changeset files (#17)', { '.changeset/free-birds-fly.md': null });
  // The tool's release commit: consumes the changesets and writes the changelog.
  repo.commitFiles('Version Packages (#18)', {
    '.changeset/brave-cats-sing.md': null,
    '.changeset/loud-dogs-run.md': null,
    '.changeset/quiet-owls-read.md': null,
    '.changeset/tidy-ants-walk.md': null,
    '.changeset/red-fish-swim.md': null,
    'packages/cli/CHANGELOG.md': '# @acme/cli\n\n## 2.0.0\n',
    'packages/cli/package.json': cli('2.0.0'),
  });
  repo.tag('@acme/cli@2.0.0');
  // A release of @acme/cli that only its dependency's changeset makes (changesets/changesets' @changesets/cli 2.28.1).
  repo.commitFiles('Prevent fatal errors with the prettier option (#19)', {
    'packages/config/src/validate.ts': 'h',
    '.changeset/curly-cameras-serve.md': changeset({ '@acme/config': 'patch' }, 'Validate the `prettier` option.'),
  });
  repo.commitFiles('Version Packages (#20)', {
    '.changeset/curly-cameras-serve.md': null,
    'packages/cli/CHANGELOG.md': '# @acme/cli\n\n## 2.0.1\n\n## 2.0.0\n',
    'packages/cli/package.json': cli('2.0.1'),
  });
  repo.tag('@acme/cli@2.0.1');
  return repo;
}

describe('skills: release notes from changesets (a changesets-shaped monorepo built with git)', function () {
  this.timeout(30_000);
  let docs: ProjectDocument[];
  let said: string[];
  before(async () => ({ docs, said } = await importInMemory(build(), 'acme-cli', { tagPrefixes: ['@acme/cli@'], path: 'packages/cli' })));
  const notes = (fromVersion = '1.0.0', toVersion = '2.0.0'): SkillResult => {
    const inputs = { fromVersion, toVersion };
    return selectAndDraft('release_notes_composer', inputs, retrieve(retrievalPlan('release_notes_composer', inputs), docs), DEMO_NOW);
  };
  const sectionOf = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)?.markdown ?? '';
  const commit = (pr: number) => docs.find((d): d is CommitDocument => d.kind === 'commit' && d.prNumber === pr)!;

  it('import-git stores each commit’s changesets: the bump of the package at --path, the newest text, none before adoption', () => {
    assert.ok(
      said.some((l) => /^changesets: 6 in 5 commits \(bumps of @acme\/cli\)$/.test(l)),
      said.join('\n'),
    );
    assert.equal(commit(2).changesets, undefined, 'before .changeset/config.json: not known');
    assert.deepEqual(commit(14).changesets, [], 'after it: known to have none');
    assert.deepEqual(commit(11).changesets, [
      { summary: 'Renamed the `tag` command to `git-tag`.\n\nUpdate your scripts.', bump: 'major' },
      { summary: 'Packages are now listed in alphabetical order.', bump: 'minor' },
    ]);
    assert.deepEqual(commit(12).changesets, [{ summary: 'Fixed paths with backslashes on Windows.', bump: 'patch' }], 'as fixed up');
    assert.deepEqual(commit(15).changesets, [{ summary: 'Exported `getCommits`.' }], 'another package only (a development dependency)');
    assert.deepEqual(
      commit(19).changesets,
      [{ summary: 'Validate the `prettier` option.', dependencies: ['@acme/config'] }],
      'a dependency of the package only',
    );
    assert.deepEqual(commit(16).changesets, [], 'deleted by hand before the release: withdrawn');
  });

  it('lists one line per changeset in its section and words (major → Breaking, minor → New features, patch → Fixes), and nothing else', () => {
    const r = notes();
    const breaking = sectionOf(r, 'Breaking changes');
    assert.match(breaking, /^- \*\*Renamed the `tag` command to `git-tag`\*\* \(\[#11\]\([^)]+\)\)/m);
    assert.match(breaking, /Update your scripts\./, 'the rest of a major changeset says what to do');
    const features = sectionOf(r, 'New features');
    assert.match(features, /^- Allow comma-separated values in `--major` \(\[#10\]/m);
    assert.match(features, /^- Packages are now listed in alphabetical order \(\[#11\]/m);
    assert.match(sectionOf(r, 'Fixes'), /^- Fixed paths with backslashes on Windows \(\[#12\]/m);
    for (const absent of ['pnpm', 'getCommits', 'helpers', 'Node.js 20', 'engines', 'Version Packages', 'changesets'])
      assert.ok(!r.markdown.includes(absent), `${absent} is not listed`);
    assert.equal(sectionOf(r, 'Other changes'), '');
  });

  it('says why each change without a changeset for the package is left out', () => {
    const reasons = new Map(notes().retrieval.excluded.map((e) => [e.id, e.reason]));
    assert.equal(reasons.get(`commit:${commit(14).sha.slice(0, 7)}`), 'no changeset');
    assert.equal(reasons.get(`commit:${commit(15).sha.slice(0, 7)}`), 'its changesets release other packages, not this one');
    assert.equal(reasons.get(`commit:${commit(16).sha.slice(0, 7)}`), 'no changeset');
  });

  it('lists "Updated dependencies" where only a dependency\'s changeset releases the package, as the tool writes it', () => {
    const r = notes('2.0.0', '2.0.1');
    assert.equal(
      sectionOf(r, 'Fixes'),
      '- Updated dependencies: `@acme/config` ([#19](https://github.com/acme/tools/pull/19)) by Priya Raman',
    );
    assert.ok(!r.markdown.includes('prettier'), "the dependency's own words are its changelog's, not this package's");
  });
});
