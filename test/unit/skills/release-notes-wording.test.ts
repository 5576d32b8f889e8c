/**
 * Release-notes wording on titles and bodies taken from real public repositories: ticket keys that are not
 * tickets, bots, entries in their authors' words, migration notes.
 */
import assert from 'node:assert/strict';
import { isBot } from '../../../src/skills/release-notes/bots';
import { coAuthors, tidyTitle } from '../../../src/skills/release-notes/conventional';
import { migrationNote } from '../../../src/skills/release-notes/migration';
import { CASES, runCase } from './cases';

describe('skills: release-notes wording on real titles', () => {
  it('removes only the project’s ticket keys; AIP-193, UTF-8 and ISO-8601 are words', () => {
    assert.equal(tidyTitle('feat!: Support AIP-193 for GaxiosError (#644)'), 'Support AIP-193 for GaxiosError');
    assert.equal(
      tidyTitle('feat!: Support AIP-193 for GaxiosError (#644)', { own: ['AIP-193'] }),
      'Support AIP-193 for GaxiosError',
      'a key inside the sentence stays',
    );
    assert.equal(tidyTitle('fix: parse ISO-8601 offsets (UTF-8)'), 'Parse ISO-8601 offsets (UTF-8)');
    assert.equal(
      tidyTitle('SHOP-44: Show ISO-8601 dates in the order history (#122)', { own: ['SHOP-44'] }),
      'Show ISO-8601 dates in the order history',
    );
    assert.equal(
      tidyTitle('Fix totals for WEB-12 customers', { own: [], trackerPrefixes: new Set(['WEB']) }),
      'Fix totals for customers',
      "the tracker's keys go wherever they stand",
    );
    assert.equal(tidyTitle('RFC-7231: honour Retry-After'), 'RFC-7231: honour Retry-After');
    assert.equal(
      tidyTitle('fix: prefer-template invalid autofix creates a tagged template call (#17421)'),
      'prefer-template invalid autofix creates a tagged template call',
      'code keeps its case',
    );
  });

  it('keeps every entry in its author’s words in every tone: no verb rewritten, no "Fixed:" put before it', () => {
    const entries = (name: string) => {
      const result = runCase(CASES.find((c) => c.name === name)!);
      return result.sections
        .filter((s) => ['New features', 'Improvements', 'Fixes'].includes(s.heading))
        .flatMap((s) => s.markdown.split('\n').filter((l) => l.startsWith('- ')));
    };
    const neutral = entries('neutral-1.2.1-2.0.0');
    assert.deepEqual(entries('casual-1.2.1-2.0.0'), neutral);
    assert.deepEqual(entries('formal-1.2.1-2.0.0'), neutral);
    assert.ok(
      neutral.some((l) => l.startsWith('- Add dark mode (')),
      neutral.join('\n'),
    );
    assert.ok(
      neutral.some((l) => l.startsWith('- Invoice PDF shows the wrong tax rate for Canadian stores (')),
      'a ticket titled by its bug stays as written',
    );
    assert.ok(neutral.every((l) => !/^- (Added|Fixed|We've|This release)/.test(l)));
  });

  it('leaves bots and automation accounts out, by name, by email, or by the project’s list', () => {
    for (const name of [
      'dependabot[bot]',
      'renovate[bot]',
      'Owl Bot',
      'GitHub Actions Bot',
      'Jenkins',
      'github-actions',
      'Yoshi Automation',
      'release-please[bot]',
      'renovate-bot',
      'web-flow',
      'Mend Renovate',
    ])
      assert.ok(isBot(name), name);
    for (const name of ['Sarah Jenkins', 'Talbot Smith', 'Abbot', 'Travis Nguyen', 'Robotics Team Lead']) assert.ok(!isBot(name), name);
    assert.ok(isBot('Release Manager', '41898282+github-actions[bot]@users.noreply.github.com'));
    assert.ok(isBot('Build Account', 'build-bot@example.test'));
    assert.ok(isBot('ACME CI', undefined, new Set(['acme ci'])));
    assert.deepEqual(
      coAuthors(
        'x\n\nCo-authored-by: Owl Bot <gcf-owl-bot[bot]@users.noreply.github.com>\nco-authored-by:   Ada Lovelace  \nCo-authored-by: <>',
      ),
      [{ name: 'Owl Bot', email: 'gcf-owl-bot[bot]@users.noreply.github.com' }, { name: 'Ada Lovelace' }],
    );
  });

  it('finds what to do in footers, migration sections and squashed commit lists', () => {
    assert.equal(
      migrationNote({ title: 'feat!: x', body: 'Intro.\n\nBREAKING CHANGE: the config file moved\nto `.acme/config.yml`.\nRefs: WEB-1' }),
      'the config file moved to `.acme/config.yml`.',
    );
    assert.equal(
      migrationNote({ title: 'feat!: x', body: 'BREAKING CHANGES: rename these:\n- `a` to `b`\n- `c` to `d`' }),
      'rename these; `a` to `b`; `c` to `d`',
    );
    assert.equal(
      migrationNote({
        title: 'x',
        body: '## Summary\n\nThings.\n\n### Migration guide\n\n1. Run `acme migrate`.\n2. Restart.\n\n## Tests\n\nok',
      }),
      'Run `acme migrate`; Restart.',
    );
    assert.equal(migrationNote({ title: 'x', body: 'Upgrading: set `ACME_V2=1` first.\n\nOther text.' }), 'set `ACME_V2=1` first.');
  });

  it('takes a squash merge’s migration text from the squashed commit that is the change, never from its siblings', () => {
    // The shape of gaxios 7.0.0's squash merge: the title's own commit, then other breaking commits.
    const squash = (own: string) =>
      `* feat!: Support Node 18+\n${own}\n* feat!: Headers should be \`Headers\`\n\nBREAKING CHANGE: responses expose a Headers object\n\n* feat!: upgrade to node-fetch v3\n\n* chore: engines`;
    assert.equal(
      migrationNote({ title: 'feat!: Support Node 18+ (#650)', body: squash('') }),
      undefined,
      'sibling subjects and footers are other changes',
    );
    assert.equal(
      migrationNote({
        title: 'feat!: Support Node 18+ (#650)',
        body: squash('\nBREAKING CHANGE: Node 14 and 16 are no longer supported.\n'),
      }),
      'Node 14 and 16 are no longer supported.',
    );
    assert.equal(
      migrationNote({ title: 'feat!: Support Node 18+ (#650)', body: squash('\nUpgrade Node first.\n\nCo-authored-by: A <a@x.test>\n') }),
      'Upgrade Node first.',
      "the commit's own body, trailers left out",
    );
    assert.equal(migrationNote({ title: 'feat!: Headers should be `Headers`', body: squash('') }), 'responses expose a Headers object');
    assert.equal(
      migrationNote({ title: 'feat!: v7', body: `## Migration\n\nRead the guide.\n\n${squash('')}` }),
      'Read the guide.',
      "the pull request's own migration section comes first",
    );
    assert.ok(migrationNote({ title: 'x', body: `BREAKING CHANGE: ${'word '.repeat(500)}` })!.length <= 600);
  });
});
