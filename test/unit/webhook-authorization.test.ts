import assert from 'node:assert/strict';
import { appAuthorizes, digestMatches, digestOf, generateAuthorization, type AuthorizationDigests } from '../../src/webhook-authorization';

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
    const app: AuthorizationDigests = { authorizationDigest: hex('new'), previousAuthorizationDigest: hex('old'), previousValidUntil: new Date(now.getTime() + 1000) };
    assert.equal(appAuthorizes(app, 'new', now), true);
    assert.equal(appAuthorizes(app, 'old', now), true);
    assert.equal(appAuthorizes(app, 'old', new Date(now.getTime() + 1000)), false, 'not at the end of the grace period');
    assert.equal(appAuthorizes(app, 'other', now), false);
    assert.equal(appAuthorizes({ ...app, previousValidUntil: null }, 'old', now), false);
  });

  it('authorizes nothing for an unknown app', () => {
    assert.equal(appAuthorizes(null, 'new', now), false);
    assert.equal(appAuthorizes(null, '', now), false);
  });
});
