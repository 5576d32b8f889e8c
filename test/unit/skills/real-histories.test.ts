/**
 * Release notes from two real-shaped histories (real-histories.ts): built with git, imported by the same
 * code as `import-git` (into memory instead of the store), retrieved with the skill's plan, drafted, and
 * compared with golden files. Then what a maintainer checks before pasting them into a GitHub release.
 */
import assert from 'node:assert/strict';
import type { ProjectDocument } from '../../../src/skills/documents';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft } from '../../../src/skills/run';
import { DEMO_NOW } from './demo';
import { importInMemory } from './import-in-memory';
import { assertGolden } from './golden-files';
import { retrieve } from './memory-store';
import { CLIENT_LIBRARY, PROCESS_RUNNER, STOREFRONT, type History } from './real-histories';

const imported = async (history: History): Promise<ProjectDocument[]> => (await importInMemory(history.build(), history.name)).docs;

const sectionOf = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)!.markdownWithCitations;

for (const history of [CLIENT_LIBRARY, STOREFRONT]) {
  describe(`skills: release notes of a real-shaped history (${history.name}, built with git)`, function () {
    this.timeout(30_000);
    const results = new Map<string, SkillResult>();
    before(async () => {
      const docs = await imported(history);
      for (const c of history.cases) {
        results.set(
          c.name,
          selectAndDraft('release_notes_composer', c.inputs, retrieve(retrievalPlan('release_notes_composer', c.inputs), docs), DEMO_NOW),
        );
      }
    });

    for (const c of history.cases) it(`golden: ${c.name}`, () => assertGolden('release_notes_composer', c.name, results.get(c.name)!));

    it('links every listed entry to its pull request', () => {
      const r = results.get(history.cases[0]!.name)!;
      const groups = r.sections.filter((s) => ['Breaking changes', 'New features', 'Improvements', 'Fixes', 'Reverts'].includes(s.heading));
      assert.ok(groups.length >= 3);
      for (const s of groups) {
        for (const line of s.markdownWithCitations.split('\n').filter((l) => l.startsWith('- '))) {
          assert.match(line, /\(\[#\d+\]\(https:\/\/github\.com\/[^/]+\/[^/]+\/pull\/\d+\)/, `${s.heading}: ${line}`);
        }
      }
    });

    it('credits people, never bots or automation accounts', () => {
      const contributors = sectionOf(results.get(history.cases[0]!.name)!, 'Contributors');
      assert.doesNotMatch(contributors, /bot|Jenkins|Automation|renovate|dependabot|release-please/i);
      assert.match(contributors, /^Thanks to the people who contributed to this release: [A-Z]/m);
    });

    it('keeps words that only look like ticket keys (AIP-193, UTF-8, ISO-8601)', () => {
      const md = results.get(history.cases[0]!.name)!.markdown;
      for (const word of history === CLIENT_LIBRARY ? ['AIP-193', 'UTF-8', 'ISO-8601'] : ['UTF-8', 'ISO-8601'])
        assert.ok(md.includes(word), word);
    });
  });
}

describe('skills: what the real-shaped histories must read like', function () {
  this.timeout(30_000);
  it('client library: breaking changes say what to do when the commit does, and the rest is said once', async () => {
    const inputs = CLIENT_LIBRARY.cases[0]!.inputs;
    const r = selectAndDraft(
      'release_notes_composer',
      inputs,
      retrieve(retrievalPlan('release_notes_composer', inputs), await imported(CLIENT_LIBRARY)),
      DEMO_NOW,
    );
    const breaking = sectionOf(r, 'Breaking changes');
    assert.match(
      breaking,
      /\*\*Support AIP-193 for GaxiosError\*\* \(\[#644\]\([^)]+\)\) by Daniel Bankhead\. Action required: `GaxiosError\.code` is now the AIP-193 error code/,
    );
    assert.match(
      breaking,
      /\*\*Support Node 18\+\*\* \(\[#650\]\([^)]+\)\) by Justin Beckwith \[commit:/,
      "the squashed siblings' subjects are not its migration",
    );
    assert.equal(breaking.match(/migration/g)?.length, 1, breaking);
    assert.match(
      sectionOf(r, 'Fixes'),
      /- UTF-8 response bodies are decoded as latin1 when no charset is given \(\[#612\]\([^)]+\), \[#598\]\(https:\/\/github\.com\/googleapis\/gaxios\/issues\/598\)\) by Sofia Leon/,
      "in its author's words",
    );
    assert.match(sectionOf(r, 'Fixes'), /- Don't retry on 501 Not Implemented/);
    assert.doesNotMatch(r.markdown, /release workflow/, 'a fix scoped to CI is internal');
    assert.ok(r.retrieval.excluded.some((e) => e.reason === 'ci'));
  });

  it("storefront: a fix titled by its bug stays in its author's words, a merge body's Migration section is the action", async () => {
    const inputs = STOREFRONT.cases[0]!.inputs;
    const r = selectAndDraft(
      'release_notes_composer',
      inputs,
      retrieve(retrievalPlan('release_notes_composer', inputs), await imported(STOREFRONT)),
      DEMO_NOW,
    );
    assert.match(
      sectionOf(r, 'Fixes'),
      /- prefer-template invalid autofix creates a tagged template call \(\[#121\]\([^)]+\), SHOP-52\) by /,
    );
    assert.match(
      sectionOf(r, 'Breaking changes'),
      /Action required: Point `checkoutUrl` at `\/v2\/checkout`; Remove the `legacy` flag from `config\.yml`\./,
    );
    assert.match(sectionOf(r, 'Improvements'), /Show ISO-8601 dates in the order history \(\[#122\]\([^)]+\), SHOP-44\) by Lena Fischer/);
    assert.match(
      sectionOf(r, 'New features'),
      /- Export orders as CSV \(\[#118\]\([^)]+\), SHOP-41\) by Lena Fischer (\[commit:\w{7}\] ?){3}$/m,
      'a merge commit and its branch are one entry, titled as the pull request, credited to the branch author (not the merger)',
    );
    assert.match(sectionOf(r, 'Fixes'), /- Don't crash when the cart is empty/);
  });
});

describe('skills: release notes of a library that follows no convention (process-runner, built with git)', function () {
  this.timeout(30_000);
  const results = new Map<string, SkillResult>();
  before(async () => {
    const docs = await imported(PROCESS_RUNNER);
    for (const c of PROCESS_RUNNER.cases)
      results.set(
        c.name,
        selectAndDraft('release_notes_composer', c.inputs, retrieve(retrievalPlan('release_notes_composer', c.inputs), docs), DEMO_NOW),
      );
  });

  for (const c of PROCESS_RUNNER.cases) it(`golden: ${c.name}`, () => assertGolden('release_notes_composer', c.name, results.get(c.name)!));

  it("a major release: its removals and raised requirements are its breaking changes, in their authors' words", () => {
    const r = results.get('process-runner-4.3.1-5.0.0')!;
    const breaking = sectionOf(r, 'Breaking changes');
    for (const title of [
      'Require Node.js 22',
      'Remove `runCommand()` and `runCommandSync()`',
      "Remove the old `stdio: [..., 'ipc']` syntax",
      'Disallow excess arguments',
    ])
      assert.ok(breaking.includes(`**${title}**`), `${title} in:\n${breaking}`);
    // A plain commit body is not a migration: only a BREAKING CHANGE footer or a migration section is.
    assert.match(breaking, /None of them describes a migration; review each before upgrading\./);
    assert.doesNotMatch(breaking, /unused helper|template/, 'an internal removal is not breaking');
    assert.match(sectionOf(r, 'Fixes'), /- Fix input with an inherited stdin \(\[#232\]/);
    assert.match(sectionOf(r, 'New features'), /- Expose the destination's methods on `\.pipe\(\)` \(\[#252\]/);
    assert.match(sectionOf(r, 'Improvements'), /- Harden against prototype pollution \(\[#253\]/);
  });

  it('leaves out test-only, tooling, changelog, dev-dependency and version-bump commits, with the reason; docs are other changes', () => {
    const r = results.get('process-runner-4.3.1-5.0.0')!;
    for (const title of [
      'Fix flaky test',
      'Update test coverage',
      'Update dev dependencies',
      'pull request template',
      'CHANGELOG',
      'typos',
    ])
      assert.ok(!r.markdown.includes(title), title);
    const reasons = r.retrieval.excluded.map((e) => e.reason);
    for (const reason of ['test', 'dev dependencies', 'release commit', 'changelog', 'development tooling'])
      assert.ok(reasons.includes(reason), `${reason} in ${reasons.join(', ')}`);
    // Listed: Move away…; counted: Document… and Fix typos in the README; left out: Remove unused helper (internal).
    const other = sectionOf(r, 'Other changes');
    assert.deepEqual(
      other
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.replace(/ \(.*$/, '')),
      ['- Move away from `cross-spawn`'],
    );
    assert.match(other, /^Documentation: 2 changes\. \[commit:\w{7}\] \[commit:\w{7}\]$/m);
    assert.ok(reasons.includes('internal change'));
  });

  it('credits a co-author named by a GitHub no-reply address alone by login, and publishes no other address', () => {
    const r = results.get('process-runner-4.3.1-5.0.0')!;
    assert.match(sectionOf(r, 'Contributors'), /sam-lee/);
    assert.doesNotMatch(r.markdown, /private@example\.test|noreply/);
  });

  it('a major release with nothing that reads as breaking says so in its highlights, without an empty Breaking changes section', () => {
    const r = results.get('process-runner-5.0.1-6.0.0')!;
    assert.ok(!r.sections.some((s) => s.heading === 'Breaking changes'));
    assert.match(
      sectionOf(r, 'Highlights'),
      /None are marked as breaking, but 6\.0\.0 is a major release: review the changes below before upgrading\.$/,
    );
  });
});
