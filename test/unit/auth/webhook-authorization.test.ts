import assert from 'node:assert/strict';
import {
  MAX_GRACE_VALUES,
  appAuthorizes,
  digestMatches,
  digestOf,
  generateAuthorization,
  graceAfterRotation,
  type AuthorizationDigests,
} from '../../../src/auth/webhook-authorization';

describe('webhook authorization values', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const hex = (value: string) => digestOf(value).toString('hex');

  it('generates distinct whsec_ values with 256 bits of entropy', () => {
    const a = generateAuthorization();
    const b = generateAuthorization();
    assert.match(a, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b);
  });

  it('matches a presented value against its stored digest only', () => {
    assert.equal(digestMatches('whsec_a', hex('whsec_a')), true);
    assert.equal(digestMatches('whsec_b', hex('whsec_a')), false);
    assert.equal(digestMatches('whsec_a', null), false);
    assert.equal(digestMatches('', hex('whsec_a')), false);
  });

  it('accepts the current value, and the previous one only until its grace period ends', () => {
    const app: AuthorizationDigests = {
      authorizationDigest: hex('new'),
      previousAuthorizationDigest: hex('old'),
      previousValidUntil: new Date(now.getTime() + 1000),
    };
    assert.equal(appAuthorizes(app, 'new', now), true);
    assert.equal(appAuthorizes(app, 'old', now), true);
    assert.equal(appAuthorizes(app, 'old', new Date(now.getTime() + 1000)), false, 'not at the end of the grace period');
    assert.equal(appAuthorizes(app, 'other', now), false);
    assert.equal(appAuthorizes({ ...app, previousValidUntil: null }, 'old', now), false);
  });

  it('rotations in quick succession keep every value in use within its grace; a revoking rotation keeps none', () => {
    const HOUR = 3600_000;
    let app: AuthorizationDigests = { authorizationDigest: hex('v0') };
    const rotate = (value: string, at: Date, graceMs = 24 * HOUR, revoke = false) => {
      app = { authorizationDigest: hex(value), graceDigests: graceAfterRotation(app, at, graceMs, revoke) };
    };
    rotate('v1', now);
    rotate('v2', new Date(now.getTime() + 1000));
    for (const v of ['v0', 'v1', 'v2']) assert.equal(appAuthorizes(app, v, new Date(now.getTime() + 2000)), true, v);
    // v0's grace ends 24 h after the first rotation, v1's 24 h after the second.
    assert.equal(appAuthorizes(app, 'v0', new Date(now.getTime() + 24 * HOUR)), false);
    assert.equal(appAuthorizes(app, 'v1', new Date(now.getTime() + 24 * HOUR)), true);
    for (let i = 3; i < 3 + MAX_GRACE_VALUES + 2; i++) rotate(`v${i}`, new Date(now.getTime() + i * 1000));
    assert.equal(app.graceDigests!.length, MAX_GRACE_VALUES, 'bounded');
    rotate('fresh', new Date(now.getTime() + 60_000), 24 * HOUR, true);
    assert.deepEqual(app.graceDigests, []);
    assert.equal(appAuthorizes(app, 'v8', new Date(now.getTime() + 61_000)), false);
    assert.equal(appAuthorizes(app, 'fresh', new Date(now.getTime() + 61_000)), true);
    // Records written before the grace list: their one previous value still counts until its end.
    const legacy: AuthorizationDigests = {
      authorizationDigest: hex('new'),
      previousAuthorizationDigest: hex('old'),
      previousValidUntil: new Date(now.getTime() + 1000),
    };
    assert.deepEqual(
      graceAfterRotation(legacy, now, HOUR, false).map((g) => g.digest),
      [hex('old'), hex('new')],
    );
  });

  it('authorizes nothing for an unknown app', () => {
    assert.equal(appAuthorizes(null, 'new', now), false);
    assert.equal(appAuthorizes(null, '', now), false);
  });
});
