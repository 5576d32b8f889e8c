/**
 * Reading one changeset file (src/git/changesets.ts), checked against the changesets tool's documented format
 * (github.com/changesets/changesets, docs/adding-a-changeset.md): YAML front matter of `"package": bump` lines,
 * then the summary.
 */
import assert from 'node:assert/strict';
import { CHANGESET_SUMMARY_MAX, parseChangeset } from '../../../src/git/changesets';

describe('git: a changeset file', () => {
  const file = '---\n"@changesets/cli": minor\n"@changesets/git": patch\n---\n\nAdded a `--since` flag.\n\nMore words.\n';

  it('gives the bump of the named package and the summary', () => {
    assert.deepEqual(parseChangeset(file, '@changesets/cli'), { summary: 'Added a `--since` flag.\n\nMore words.', bump: 'minor' });
    assert.deepEqual(parseChangeset(file, '@changesets/git'), { summary: 'Added a `--since` flag.\n\nMore words.', bump: 'patch' });
  });

  it('gives no bump for a package it does not name, or names with none', () => {
    assert.deepEqual(parseChangeset(file, '@changesets/parse'), { summary: 'Added a `--since` flag.\n\nMore words.' });
    assert.deepEqual(parseChangeset("---\n'pkg-a': none\n---\nNothing to release\n", 'pkg-a'), { summary: 'Nothing to release' });
  });

  it('without a package name, takes the strongest bump of any package (single quotes and bare names too)', () => {
    assert.equal(parseChangeset("---\n'a': patch\nb: major\n---\nx\n")?.bump, 'major');
    assert.equal(parseChangeset('---\r\n"a": patch\r\n---\r\nx\r\n')?.bump, 'patch');
  });

  it('is no changeset without front matter, with a line that is no bump, or without a summary', () => {
    assert.equal(parseChangeset('# Changesets\n\nHello'), undefined);
    assert.equal(parseChangeset('---\n"@changesets/cli": cli\n---\nx\n'), undefined);
    assert.equal(parseChangeset('---\n"a": minor\n---\n\n'), undefined);
    assert.equal(parseChangeset('---\n"a": minor\nno end'), undefined);
  });

  it('cuts a summary longer than the document schema allows', () => {
    const long = parseChangeset(`---\n"a": patch\n---\n${'x'.repeat(CHANGESET_SUMMARY_MAX + 10)}\n`);
    assert.equal(long?.summary.length, CHANGESET_SUMMARY_MAX);
    assert.ok(long?.summary.endsWith('…'));
  });

  it('reads a long hostile front matter line in linear time', () => {
    const started = Date.now();
    assert.equal(parseChangeset(`---\n${'"'.repeat(100_000)}: major\n${'a'.repeat(100_000)}:\n---\nx\n`), undefined);
    assert.ok(Date.now() - started < 2000);
  });
});
