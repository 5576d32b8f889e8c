import assert from 'node:assert/strict';
import { parseTagRefs, prefixOfVersionTag, releasesOf, tagVersion, type GitTag } from '../../../src/git/tags';

const C = (n: number) => String(n).repeat(40).slice(0, 40);
const T = 'f'.repeat(40);
const ref = (fields: string[]) => `${fields.join('\x1f')}\x1e\n`;

describe('git: tags and releases', () => {
  it('reads lightweight and annotated tags, peeling annotated ones to their commit', () => {
    const out =
      ref(['1.1.0', 'commit', C(1), '', '', '2024-09-02T17:00:00+02:00', 'fix: a commit subject', 'commit body']) +
      ref(['v2.0.0', 'tag', T, 'commit', C(2), '2024-10-01T10:00:00Z', 'Version 2', 'Breaking: the old API is gone.\n']) +
      ref(['tree-tag', 'tag', T, 'tree', 'e'.repeat(40), '2024-10-01T10:00:00Z', 'x', '']) +
      ref(['blob', 'blob', 'd'.repeat(40), '', '', '', '', '']);
    assert.deepEqual(parseTagRefs(out), [
      { name: '1.1.0', commit: C(1), date: '2024-09-02T15:00:00.000Z', message: '' },
      { name: 'v2.0.0', commit: C(2), date: '2024-10-01T10:00:00.000Z', message: 'Version 2\n\nBreaking: the old API is gone.' },
    ]);
  });

  it('keeps releases in semver order (not string order), pre-releases included, one per version; lists the rest', () => {
    const tag = (name: string, date: string, n = 1): GitTag => ({ name, commit: C(n), date, message: '' });
    const { releases, skipped } = releasesOf([
      tag('v1.10.0', '2024-05-01T00:00:00.000Z'),
      tag('v1.9.0', '2024-04-01T00:00:00.000Z'),
      tag('1.9.0', '2024-04-02T00:00:00.000Z'),
      tag('v2.0.0-rc.1', '2024-06-01T00:00:00.000Z'),
      tag('nightly', '2024-06-02T00:00:00.000Z'),
      tag('v1.2', '2024-01-01T00:00:00.000Z'),
      tag('v01.2.3', '2024-01-01T00:00:00.000Z'),
    ]);
    assert.deepEqual(
      releases.map((r) => [r.version, r.tag]),
      [
        ['1.9.0', 'v1.9.0'],
        ['1.10.0', 'v1.10.0'],
        ['2.0.0-rc.1', 'v2.0.0-rc.1'],
      ],
    );
    assert.deepEqual(skipped, ['1.9.0', 'nightly', 'v01.2.3', 'v1.2']);
  });

  it("reads a component's tags with its prefix (release-please, changesets), and names the prefixes it left out", () => {
    const tag = (name: string, n = 1): GitTag => ({ name, commit: C(n), date: '2025-01-01T00:00:00.000Z', message: '' });
    const tags = [
      tag('gaxios-v7.1.3'),
      tag('v7.1.2'),
      tag('@changesets/cli@2.27.1'),
      tag('@changesets/cli@3.0.0-next.0'),
      tag('tools-v1.0.0'),
    ];
    assert.deepEqual(
      releasesOf(tags, ['gaxios-v', 'v']).releases.map((r) => [r.version, r.tag]),
      [
        ['7.1.2', 'v7.1.2'],
        ['7.1.3', 'gaxios-v7.1.3'],
      ],
    );
    assert.deepEqual(
      releasesOf(tags, ['@changesets/cli@']).releases.map((r) => r.version),
      ['2.27.1', '3.0.0-next.0'],
    );
    assert.equal(tagVersion('gaxios-v7.1.3'), undefined, 'not under the default prefixes');
    assert.equal(tagVersion('v7.1.3'), '7.1.3');
    assert.equal(prefixOfVersionTag('gaxios-v7.1.3'), 'gaxios-v');
    assert.equal(prefixOfVersionTag('@changesets/cli@3.0.0-next.0'), '@changesets/cli@');
    assert.equal(prefixOfVersionTag('nightly'), undefined);
  });
});
