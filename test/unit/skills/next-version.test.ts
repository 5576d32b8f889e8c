/**
 * The version a draft proposes, checked against semver's rules and release-please's documented defaults
 * (googleapis/release-please, versioning-strategies/default.ts and prerelease.ts): breaking → major, feature →
 * minor, else patch, the same before 1.0.0 (bump-minor-pre-major off), and the next pre-release number after a
 * pre-release when the change fits it.
 */
import assert from 'node:assert/strict';
import { agreesWith, proposeVersion } from '../../../src/skills/release-notes/next-version';

describe('skills: the version a draft proposes', () => {
  it('bumps major for a breaking change, minor for a feature, patch otherwise', () => {
    assert.equal(proposeVersion('7.1.2', 'major').version, '8.0.0');
    assert.equal(proposeVersion('7.1.2', 'minor').version, '7.2.0');
    assert.equal(proposeVersion('7.1.2', 'patch').version, '7.1.3');
  });

  it('before 1.0.0, as release-please does by default: a breaking change makes 1.0.0, a feature the next minor', () => {
    assert.equal(proposeVersion('0.4.2', 'major').version, '1.0.0');
    assert.equal(proposeVersion('0.4.2', 'minor').version, '0.5.0');
    assert.equal(proposeVersion('0.4.2', 'patch').version, '0.4.3');
  });

  it('after a pre-release: the next pre-release when the change fits it, else the bumped release', () => {
    assert.deepEqual(proposeVersion('2.0.0-rc.1', 'major'), { version: '2.0.0-rc.2', bump: 'pre-release', base: '2.0.0-rc.1' });
    assert.equal(proposeVersion('2.0.0-rc.1', 'patch').version, '2.0.0-rc.2');
    assert.equal(proposeVersion('2.1.0-beta09', 'minor').version, '2.1.0-beta10');
    assert.equal(proposeVersion('2.1.0-beta', 'patch').version, '2.1.0-beta.1');
    assert.equal(proposeVersion('2.1.0-rc.1', 'major').version, '3.0.0');
  });

  it('agrees with the version proposed, or with the release of the pre-release it follows', () => {
    assert.ok(agreesWith('7.2.0', proposeVersion('7.1.2', 'minor')));
    assert.ok(!agreesWith('7.1.3', proposeVersion('7.1.2', 'minor')));
    assert.ok(agreesWith('2.0.0', proposeVersion('2.0.0-rc.1', 'patch')), 'naming 2.0.0 releases the pre-release');
    assert.ok(!agreesWith('2.0.1', proposeVersion('2.0.0-rc.1', 'patch')));
  });
});
