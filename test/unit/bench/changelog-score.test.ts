/**
 * The changelog benchmark's scorer (bench/lib/changelog-score.ts) and its choice of releases
 * (bench/changelog.ts), on small changelogs written the ways the measured projects write theirs: expected
 * figures are counted by hand from the texts below.
 */
import assert from 'node:assert/strict';
import { releasesToDraft } from '../../../bench/changelog';
import {
  bumpedPackage,
  draftEntries,
  emptySections,
  overlap,
  parseChangelog,
  scoreDraft,
  stemOf,
  type DraftEntry,
} from '../../../bench/lib/changelog-score';

const RELEASE_PLEASE = `# Changelog

## [7.0.0](https://github.com/o/r/compare/v6.7.1...v7.0.0) (2025-06-05)


### ⚠ BREAKING CHANGES

* Support Node 18+ ([#650](https://github.com/o/r/issues/650))

### Features

* \`fetch\`-Compatible API ([#680](https://github.com/o/r/issues/680)) ([d3cb530](https://github.com/o/r/commit/d3cb530430a1896f8292c218246763b53aa78097))
* Support Node 18+ ([#650](https://github.com/o/r/issues/650)) ([6fa8080](https://github.com/o/r/commit/6fa80809656bafe85ce86602c190e4b2b7546576))

### Reverts

* Undeprecate \`adapter\` ([#682](https://github.com/o/r/issues/682)) ([e042bfc](https://github.com/o/r/commit/e042bfc9a8a4c09943e43c8481749ca352238468))

## [6.7.1](https://github.com/o/r/compare/v6.7.0...v6.7.1) (2024-08-13)

### Bug Fixes

* Release uuid rollback ([#641](https://github.com/o/r/issues/641))
`;

const KEEP_A_CHANGELOG = `# Changelog

## [15.0.0] (2026-05-29)

### Added

- show excess command-arguments in error message ([#2384])

### Changed

- *Breaking:* migrated Commander implementation from CommonJS to ESM ([#2464])
- dev: switch tests from Jest to \`node:test\` test runner ([#2463])

## [15.0.0-0] (2026-02-22)

(Released as 15.0.0)

## [14.0.3] (2026-01-31)

### Fixed

- broken markdown link in README ([#2369])
`;

const HISTORY = `5.0.0 / 2024-09-10
=========================
* remove:
  - \`path-is-absolute\` dependency - use \`path.isAbsolute\` instead
* breaking:
  * \`res.status()\` accepts only integers
* deps: cookie-signature@^1.2.1

5.0.0-beta.3 / 2024-03-25
=========================

This incorporates all changes after 4.19.1 up to 4.19.2.
`;

describe('bench: the changelog scorer', () => {
  it('cuts a release-please changelog into releases, one entry per change, the strongest class for one listed twice', () => {
    const [v7, v671] = parseChangelog(RELEASE_PLEASE);
    assert.equal(v7!.version, '7.0.0');
    assert.equal(v7!.compareFrom, 'v6.7.1');
    assert.deepEqual(
      v7!.entries.map((e) => [e.prs, e.shas, e.class]),
      [
        [[650], ['6fa8080'], 'breaking'],
        [[680], ['d3cb530'], 'feature'],
        [[682], ['e042bfc'], 'revert'],
      ],
    );
    assert.deepEqual(
      v671!.entries.map((e) => [e.prs, e.class]),
      [[[641], 'fix']],
    );
  });

  it('reads Keep a Changelog (inline *Breaking:*) and a History.md with label bullets and setext titles', () => {
    const [v15, pre] = parseChangelog(KEEP_A_CHANGELOG);
    assert.deepEqual(
      v15!.entries.map((e) => [e.prs, e.class]),
      [
        [[2384], 'feature'],
        [[2464], 'breaking'],
        [[2463], 'other'],
      ],
    );
    assert.deepEqual(pre!.entries, []);
    const [v5] = parseChangelog(HISTORY);
    assert.equal(v5!.version, '5.0.0');
    assert.deepEqual(
      v5!.entries.map((e) => [e.text.slice(0, 20), e.class]),
      [
        ['`path-is-absolute` d', 'other'],
        ['`res.status()` accep', 'breaking'],
        ['deps: cookie-signatu', undefined],
      ],
      'under no heading or label: its class is unknown, and it counts in no section agreement',
    );
  });

  it('drafts final releases from their compare link, else the section below, skipping a pre-release "released as" it', () => {
    const tagged = new Set(['6.7.0', '6.7.1', '7.0.0', '14.0.3', '15.0.0-0', '15.0.0']);
    assert.deepEqual(
      releasesToDraft(parseChangelog(RELEASE_PLEASE), tagged, ['v']).map((r) => [r.section.version, r.from]),
      [
        ['7.0.0', ['6.7.1']],
        ['6.7.1', ['6.7.0']],
      ],
    );
    assert.deepEqual(
      releasesToDraft(parseChangelog(KEEP_A_CHANGELOG), tagged, ['v']).map((r) => [r.section.version, r.from]),
      [['15.0.0', ['14.0.3']]],
      'the pre-release section only says it was released as 15.0.0; 14.0.3 has nothing below it',
    );
    assert.deepEqual(
      releasesToDraft(parseChangelog(HISTORY), new Set(['5.0.0-beta.3', '5.0.0']), ['v']).map((r) => [r.section.version, r.from]),
      [['5.0.0', ['5.0.0-beta.3']]],
    );
  });

  it('scores by PR number or sha, words where a changelog names neither, over what the range holds', () => {
    const [v7] = parseChangelog(RELEASE_PLEASE);
    const draft: DraftEntry[] = [
      { text: 'Support Node 18+', prs: [650], shas: [], class: 'breaking' },
      { text: '`fetch`-Compatible API', prs: [680], shas: [], class: 'fix' },
      { text: 'Update dependency sinon', prs: [692], shas: [], class: 'fix' },
    ];
    const range = [
      { title: 'feat!: x', prNumber: 650 },
      { title: 'feat: y', prNumber: 680 },
      { title: 'revert: z', prNumber: 682 },
      { title: 'chore', prNumber: 692 },
    ];
    const s = scoreDraft(v7!, draft, range, 'x'.repeat(v7!.body.length));
    assert.deepEqual([s.matchable, s.matched, s.draftEntries, s.draftMatched, s.classified, s.agreeing], [3, 2, 3, 2, 2, 1]);
    assert.equal(s.recall, 2 / 3);
    assert.equal(s.precision, 2 / 3);
    assert.equal(s.sectionAgreement, 1 / 2);
    assert.equal(s.lengthRatio, 1);
    assert.deepEqual(s.missed, [v7!.entries[2]!.text]);
    assert.deepEqual(s.extra, ['Update dependency sinon']);
    // An entry whose change is not in the range cannot be missed.
    assert.equal(scoreDraft(v7!, draft, range.slice(0, 2), '').matchable, 2);
    // No references: by words.
    const [v5] = parseChangelog(HISTORY);
    const byWords = scoreDraft(
      v5!,
      [{ text: 'cookie-signature@^1.2.1', prs: [5833], shas: [], class: 'other' }],
      [{ title: 'deps: cookie-signature@^1.2.1 (#5833)' }],
      '',
    );
    assert.deepEqual([byWords.matchable, byWords.matched, byWords.draftMatched], [1, 1, 1]);
  });

  it('matches by words where the two entries name no reference of the same kind, and by a security advisory', () => {
    // commander.js 11.1.0: the pull request was merged by rebasing, so its commit names no PR number.
    const [v11] = parseChangelog(`## [11.1.0] (2023-10-13)

### Fixed

- TypeScript: add null return type to \`Commands.executableDir()\`, for when not configured ([#1965])
- TypeScript: add that \`Command.version()\` can also be used as getter ([#1982])
`);
    const draft: DraftEntry[] = [
      { text: 'Fix executableDir() return type', prs: [], shas: ['68a4276'], class: 'fix' },
      // Same words as the second entry but another PR number: a PR number decides where both name one.
      { text: 'Add that Command.version() can also be used as getter', prs: [2018], shas: [], class: 'fix' },
    ];
    const range = [
      { title: 'Fix executableDir() return type', sha: '68a42765' },
      { title: 'Types for version getter (#1982)', prNumber: 1982 },
      { title: 'Add that Command.version() can also be used as getter (#2018)', prNumber: 2018 },
    ];
    const s = scoreDraft(v11!, draft, range, '');
    assert.deepEqual([s.matchable, s.matched, s.draftEntries, s.draftMatched], [2, 1, 2, 1]);
    assert.deepEqual(s.extra, ['Add that Command.version() can also be used as getter']);
    // express 5.2.0 / 5.2.1: History.md and the commit word the fix differently; the advisory is the same.
    const [fix] = parseChangelog(`5.2.0 / 2025-12-01
========================

* Security fix for [CVE-2024-51999](https://www.cve.org/CVERecord?id=CVE-2024-51999) ([GHSA-pj86-cfqh-vqx6](https://github.com/expressjs/express/security/advisories/GHSA-pj86-cfqh-vqx6))
* deps: \`body-parser@^2.2.1\`
`);
    const advisory = scoreDraft(
      fix!,
      [
        { text: 'Security patch for CVE-2024-51999', prs: [], shas: ['2f64f68'], class: 'fix' },
        { text: 'Security patch for CVE-2024-47764', prs: [], shas: ['1111111'], class: 'fix' },
      ],
      [{ title: 'sec: security patch for CVE-2024-51999', sha: '2f64f68c' }],
      '',
    );
    assert.deepEqual([advisory.matchable, advisory.matched, advisory.draftMatched], [1, 1, 1]);
  });

  it('matches a short title whose words a longer changelog sentence all says again, and not one sharing a few', () => {
    // express 5.2.0 and 5.1.0: History.md says each change in a sentence of its own; Dice is 0.30 and 0.36.
    const [v52] = parseChangelog(`5.2.0 / 2025-12-01
========================

* deps: \`body-parser@^2.2.1\`
* A deprecation warning was added when using \`res.redirect\` with undefined arguments, Express now emits a warning to help detect calls that pass undefined as the status or URL and make them easier to fix.
* Add support for \`Uint8Array\` in \`res.send()\`
`);
    const s = scoreDraft(
      v52!,
      [
        { text: 'Add deprecation warnings for redirect arguments undefined', prs: [6405], shas: [], class: 'feature' },
        { text: 'Added check to support Uint8Array in response sending', prs: [6285], shas: [], class: 'feature' },
        // Three of its five words are in the sentence about redirects: another change.
        { text: 'Use req.socket over deprecated req.connection', prs: [6705], shas: [], class: 'other' },
        { text: 'Add develop to branches', prs: [], shas: ['d546f93'], class: 'feature' },
      ],
      [],
      '',
    );
    assert.deepEqual(s.extra, ['Use req.socket over deprecated req.connection', 'Add develop to branches']);
    assert.equal(stemOf('warnings'), stemOf('warning'));
    assert.equal(stemOf('added'), stemOf('add'));
    assert.equal(stemOf('codes'), stemOf('code'));
    assert.equal(overlap(new Set(['a', 'b', 'c']), new Set(['a', 'b', 'x', 'y', 'z'])), 2 / 3);
  });

  it('matches a bare dependency bump with an entry naming that package, and only that package', () => {
    // express 5.0.1: History.md's one line is the commit "cookie@0.7.0" (2027b87); their words share only "cookie".
    const [patch] = parseChangelog(`5.0.1 / 2024-10-08
==========

* Update \`cookie\` semver lock to address [CVE-2024-47764](https://nvd.nist.gov/vuln/detail/CVE-2024-47764)
`);
    const bump = scoreDraft(
      patch!,
      [{ text: 'cookie@0.7.0', prs: [], shas: ['2027b87'], class: 'fix' }],
      [{ title: 'cookie@0.7.0', sha: '2027b87a' }],
      '',
    );
    assert.deepEqual([bump.matchable, bump.matched, bump.draftEntries, bump.draftMatched], [1, 1, 1, 1]);
    // express 5.1.0 names its dependencies as code at a version; nyc (a dev dependency) is not among them.
    const [minor] = parseChangelog(`5.1.0 / 2025-03-31
========================
* deps: \`router@^2.2.0\`
* deps: \`server-static@2.2.0\`
`);
    const deps = scoreDraft(
      minor!,
      [
        { text: 'router@^2.0.0', prs: [5885], shas: [], class: 'fix' },
        { text: 'nyc@^17.1.0', prs: [6122], shas: [], class: 'fix' },
        { text: 'Fix(deps) serve-staic@2.0.0', prs: [5790], shas: [], class: 'fix' },
      ],
      [],
      '',
    );
    assert.deepEqual(deps.extra, ['nyc@^17.1.0', 'Fix(deps) serve-staic@2.0.0'], 'another package, or a misspelt one, is another change');
    assert.equal(bumpedPackage('deps: `@types/node@20.1.0`'), '@types/node');
    assert.equal(bumpedPackage('Adopt Node@18 as the minimum supported version'), undefined, 'a sentence is no bump');
  });

  it("reads a draft's entries from its group sections, and finds sections that say nothing", () => {
    const sections = [
      { heading: 'Highlights', markdown: 'Since 1.0.0: 1 fix.', markdownWithCitations: 'Since 1.0.0: 1 fix.' },
      {
        heading: 'Fixes',
        markdown: '',
        markdownWithCitations: '- Handle empty carts ([#12](https://x/pull/12); 1.1.0) by @ada [pr:12] [commit:abcdef1]',
      },
      { heading: 'Improvements', markdown: 'No improvements.', markdownWithCitations: 'No improvements.' },
    ];
    assert.deepEqual(draftEntries(sections), [{ text: 'Handle empty carts', prs: [12], shas: ['abcdef1'], class: 'fix' }]);
    assert.deepEqual(emptySections(sections), ['Fixes', 'Improvements']);
  });
});
