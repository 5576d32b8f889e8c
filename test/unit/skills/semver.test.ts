import assert from 'node:assert/strict';
import { compareSemver, inVersionRange, isSemver, parseSemver, semverKey } from '../../../src/skills/semver';

describe('skills: semver', () => {
  it('parses versions, with an optional leading v, pre-release and build metadata', () => {
    assert.deepEqual(parseSemver('1.2.3'), { major: 1, minor: 2, patch: 3, prerelease: [] });
    assert.deepEqual(parseSemver('v2.0.0-rc.1+build.5'), { major: 2, minor: 0, patch: 0, prerelease: ['rc', '1'] });
    for (const bad of ['1.2', '01.2.3', '1.2.3.4', 'latest', '', '1.2.3-', '1000000.0.0']) assert.equal(isSemver(bad), false, bad);
  });

  it('parses each version once for comparisons, and gives every caller a copy of its own', () => {
    const mine = parseSemver('3.0.0-rc.2')!;
    mine.prerelease.push('x');
    mine.major = 9;
    assert.deepEqual(parseSemver('3.0.0-rc.2'), { major: 3, minor: 0, patch: 0, prerelease: ['rc', '2'] });
    assert.ok(compareSemver('3.0.0-rc.2', '3.0.0-rc.10') < 0);
    // Past the cache's bound it starts again, with the same answers.
    for (let i = 0; i < 2_500; i++) assert.equal(compareSemver(`1.${i}.0`, `1.${i}.1`), -1);
    assert.equal(isSemver('1.2.3-'), false);
  });

  it('orders by semver, not by string: 1.10.0 > 1.9.0', () => {
    assert.ok(compareSemver('1.10.0', '1.9.0') > 0);
    assert.ok('1.10.0' < '1.9.0', 'string order says the opposite, which is the trap');
    assert.ok(compareSemver('2.0.0', '1.99.99') > 0);
    assert.equal(compareSemver('1.2.3', 'v1.2.3+build'), 0);
  });

  it('ranks pre-releases below their release, in semver precedence', () => {
    const order = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 1; i < order.length; i++) assert.ok(compareSemver(order[i - 1], order[i]) < 0, `${order[i - 1]} < ${order[i]}`);
  });

  it('treats (from, to] as half-open: above from, at most to', () => {
    assert.equal(inVersionRange('1.2.1', '1.2.1', '2.0.0'), false);
    assert.equal(inVersionRange('1.2.2', '1.2.1', '2.0.0'), true);
    assert.equal(inVersionRange('2.0.0', '1.2.1', '2.0.0'), true);
    assert.equal(inVersionRange('2.0.0-rc.1', '1.2.1', '2.0.0'), true);
    assert.equal(inVersionRange('2.0.1', '1.2.1', '2.0.0'), false);
    assert.equal(inVersionRange('1.10.0', '1.9.0', '1.10.0'), true);
  });

  it('builds keys whose string order is semver order, for database range queries', () => {
    assert.equal(semverKey('1.10.3'), '000001.000010.000003~');
    const versions = [
      '1.9.0',
      '1.10.0',
      '1.0.0',
      '1.0.0-rc.1',
      '1.0.0-rc.2',
      '1.0.0-rc.10',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '0.9.12',
      '10.0.0',
      '2.0.0-beta',
    ];
    const bySemver = [...versions].sort(compareSemver);
    const byKey = [...versions].sort((a, b) => (semverKey(a) < semverKey(b) ? -1 : semverKey(a) > semverKey(b) ? 1 : 0));
    assert.deepEqual(byKey, bySemver);
  });

  it('matches a range query on keys with the semver range', () => {
    const [gt, lte] = [semverKey('1.2.1'), semverKey('2.0.0')];
    for (const v of ['1.2.1', '1.2.2', '1.10.0', '2.0.0-rc.1', '2.0.0', '2.0.1']) {
      const k = semverKey(v);
      assert.equal(k > gt && k <= lte, inVersionRange(v, '1.2.1', '2.0.0'), v);
    }
  });
});
