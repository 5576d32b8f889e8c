/**
 * Release-notes wording on titles and bodies taken from real public repositories: ticket keys that are not
 * tickets, bots, fixes titled by their bug, migration notes.
 */
import assert from 'node:assert/strict';
import { isBot } from '../../../src/skills/release-notes/bots';
import { coAuthors, tidyTitle } from '../../../src/skills/release-notes/conventional';
import { migrationNote } from '../../../src/skills/release-notes/migration';
import { entrySentence } from '../../../src/skills/release-notes/tone';

describe('skills: release-notes wording on real titles', () => {
  it('removes only the project’s ticket keys; AIP-193, UTF-8 and ISO-8601 are words', () => {
    assert.equal(tidyTitle('feat!: Support AIP-193 for GaxiosError (#644)'), 'Support AIP-193 for GaxiosError');
    assert.equal(tidyTitle('feat!: Support AIP-193 for GaxiosError (#644)', { own: ['AIP-193'] }), 'Support AIP-193 for GaxiosError', 'a key inside the sentence stays');
    assert.equal(tidyTitle('fix: parse ISO-8601 offsets (UTF-8)'), 'Parse ISO-8601 offsets (UTF-8)');
    assert.equal(tidyTitle('SHOP-44: Show ISO-8601 dates in the order history (#122)', { own: ['SHOP-44'] }), 'Show ISO-8601 dates in the order history');
    assert.equal(tidyTitle('Fix totals for WEB-12 customers', { own: [], trackerPrefixes: new Set(['WEB']) }), 'Fix totals for customers', "the tracker's keys go wherever they stand");
    assert.equal(tidyTitle('RFC-7231: honour Retry-After'), 'RFC-7231: honour Retry-After');
    assert.equal(tidyTitle('fix: prefer-template invalid autofix creates a tagged template call (#17421)'), 'prefer-template invalid autofix creates a tagged template call', 'code keeps its case');
  });

  it('writes a fix titled by its bug as fixed, and one that states the behaviour as it is', () => {
    const cases: [string, string][] = [
      ['prefer-template invalid autofix creates a tagged template call', 'Fixed: prefer-template invalid autofix creates a tagged template call.'],
      ['`no-unused-vars` false positive with a `catch` parameter', 'Fixed: `no-unused-vars` false positive with a `catch` parameter.'],
      ['UTF-8 response bodies are decoded as latin1 when no charset is given', 'Fixed: UTF-8 response bodies are decoded as latin1 when no charset is given.'],
      ['Crash on save when the title is empty', 'Fixed: Crash on save when the title is empty.'],
      ['Escape closes the dialog twice', 'Fixed: Escape closes the dialog twice.'],
      ["Don't retry on 501 Not Implemented", "Don't retry on 501 Not Implemented."],
      ['Escape commas and quotes in CSV exports', 'Escape commas and quotes in CSV exports.'],
      ['Keep cart contents after a session refresh', 'Keep cart contents after a session refresh.'],
      ['Handle expired sessions', 'Handled expired sessions.'],
      ['Correct the tax rate for Canadian stores', 'Corrected the tax rate for Canadian stores.'],
    ];
    for (const [title, sentence] of cases) assert.equal(entrySentence('neutral', 'fix', title, false), sentence, title);
    assert.equal(entrySentence('casual', 'fix', cases[0]![0], false), 'We fixed an issue: prefer-template invalid autofix creates a tagged template call.');
    assert.equal(entrySentence('formal', 'fix', cases[0]![0], false), 'This release resolves the following issue: prefer-template invalid autofix creates a tagged template call.');
    assert.equal(entrySentence('neutral', 'feature', 'prefer-template option for tagged templates', false), 'prefer-template option for tagged templates.', 'only fixes are reworded');
  });

  it('leaves bots and automation accounts out, by name, by email, or by the project’s list', () => {
    for (const name of ['dependabot[bot]', 'renovate[bot]', 'Owl Bot', 'GitHub Actions Bot', 'Jenkins', 'github-actions', 'Yoshi Automation', 'release-please[bot]', 'renovate-bot', 'web-flow']) assert.ok(isBot(name), name);
    for (const name of ['Sarah Jenkins', 'Talbot Smith', 'Abbot', 'Travis Nguyen', 'Robotics Team Lead']) assert.ok(!isBot(name), name);
    assert.ok(isBot('Release Manager', '41898282+github-actions[bot]@users.noreply.github.com'));
    assert.ok(isBot('Build Account', 'build-bot@example.test'));
    assert.ok(isBot('ACME CI', undefined, new Set(['acme ci'])));
    assert.deepEqual(coAuthors('x\n\nCo-authored-by: Owl Bot <gcf-owl-bot[bot]@users.noreply.github.com>\nco-authored-by:   Ada Lovelace  \nCo-authored-by: <>'), [
      { name: 'Owl Bot', email: 'gcf-owl-bot[bot]@users.noreply.github.com' },
      { name: 'Ada Lovelace' },
    ]);
  });

  it('finds what to do in footers, migration sections and squashed commit lists', () => {
    assert.equal(migrationNote({ title: 'feat!: x', body: 'Intro.\n\nBREAKING CHANGE: the config file moved\nto `.acme/config.yml`.\nRefs: WEB-1' }), 'the config file moved to `.acme/config.yml`.');
    assert.equal(migrationNote({ title: 'feat!: x', body: 'BREAKING CHANGES: rename these:\n- `a` to `b`\n- `c` to `d`' }), 'rename these; `a` to `b`; `c` to `d`');
    assert.equal(migrationNote({ title: 'x', body: '## Summary\n\nThings.\n\n### Migration guide\n\n1. Run `acme migrate`.\n2. Restart.\n\n## Tests\n\nok' }), 'Run `acme migrate`; Restart.');
    assert.equal(migrationNote({ title: 'x', body: 'Upgrading: set `ACME_V2=1` first.\n\nOther text.' }), 'set `ACME_V2=1` first.');
    assert.equal(migrationNote({ title: 'feat!: Support Node 18+ (#650)', body: '* feat!: Support Node 18+\n\n* feat!: drop the callback API\n\n* chore: engines' }), 'Drop the callback API');
    assert.equal(migrationNote({ title: 'feat!: Support Node 18+ (#650)', body: '* feat!: Support Node 18+\n\n* chore: update engines' }), undefined);
    assert.ok(migrationNote({ title: 'x', body: `BREAKING CHANGE: ${'word '.repeat(500)}` })!.length <= 600);
  });
});
