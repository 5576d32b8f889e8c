import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TokenError, canReadApp, canUseProject, verifyToken } from '../../../../src/api/access/auth';
import { mintToken } from '../../../../src/auth/mint-token';

const secret = 's'.repeat(40);
const hs = { secret, publicKey: null, algorithms: ['HS256' as const], issuer: null, audience: null };

describe('verifyToken', () => {
  it('accepts a valid HS256 token and reads its claims', () => {
    const token = mintToken(secret, { sub: 'ann', projects: ['p1'], apps: ['a1'], roles: ['admin'] }, { expiresInSeconds: 60 });
    assert.deepEqual(verifyToken(token, hs), { sub: 'ann', projects: ['p1'], apps: ['a1'], roles: ['admin'] });
  });

  it('refuses alg none, a missing exp, an expired token and a wrong signature', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const cases = [
      jwt.sign({ sub: 'x', exp }, '', { algorithm: 'none' }),
      jwt.sign({ sub: 'x' }, secret, { algorithm: 'HS256' }),
      jwt.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 120 }, secret, { algorithm: 'HS256' }),
      jwt.sign({ sub: 'x', exp }, 'other'.repeat(10), { algorithm: 'HS256' }),
      'not.a.token',
    ];
    for (const token of cases) assert.throws(() => verifyToken(token, hs), TokenError);
  });

  it('refuses a token issued or valid only in the future beyond the clock skew, and accepts one within it', () => {
    const nowS = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, number>) => jwt.sign({ sub: 'x', exp: nowS + 3600, ...claims }, secret, { algorithm: 'HS256' });
    assert.throws(() => verifyToken(sign({ iat: nowS + 3600 }), hs), /issued in the future/);
    assert.throws(() => verifyToken(sign({ nbf: nowS + 3600 }), hs), TokenError);
    assert.equal(verifyToken(sign({ iat: nowS + 30, nbf: nowS + 30 }), hs).sub, 'x');
    assert.throws(() => verifyToken(sign({ iat: nowS + 30 }), { ...hs, clockSkewSeconds: 0 }), /issued in the future/);
    // Expired a moment ago: still inside the skew.
    assert.equal(verifyToken(jwt.sign({ sub: 'x', exp: nowS - 5 }, secret, { algorithm: 'HS256' }), hs).sub, 'x');
  });

  it('refuses an iat that is not a number, and any crit header (RFC 7515 §4.1.11: no extension is understood here)', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const raw = (header: Record<string, unknown>, payload: Record<string, unknown>) => {
      const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT', ...header })}.${part(payload)}`;
      return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
    };
    assert.equal(verifyToken(raw({}, { sub: 'x', exp, iat: exp - 60 }), hs).sub, 'x');
    for (const iat of [String(exp + 10 ** 6), '1', { n: 1 }, [1], null, true])
      assert.throws(() => verifyToken(raw({}, { sub: 'x', exp, iat }), hs), /iat is not a NumericDate/, JSON.stringify(iat));
    for (const crit of [['x-ext'], ['exp'], [], 'x-ext'])
      assert.throws(() => verifyToken(raw({ crit, 'x-ext': 1 }, { sub: 'x', exp }), hs), /crit/, JSON.stringify(crit));
  });

  it('refuses an RS256 token when only HS256 is configured (no algorithm confusion)', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = jwt.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 }, privateKey, { algorithm: 'RS256' });
    assert.throws(() => verifyToken(token, hs), /RS256 is not accepted/);
  });

  it('verifies RS256 with a configured public key, and checks iss and aud', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const settings = { secret: null, publicKey: pem, algorithms: ['RS256' as const], issuer: 'idp', audience: 'svc' };
    const good = jwt.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) + 60, iss: 'idp', aud: 'svc' }, privateKey, {
      algorithm: 'RS256',
    });
    assert.equal(verifyToken(good, settings).sub, 'x');
    const wrongAud = jwt.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) + 60, iss: 'idp', aud: 'else' }, privateKey, {
      algorithm: 'RS256',
    });
    assert.throws(() => verifyToken(wrongAud, settings), /audience/);
  });
});

describe('rights', () => {
  const member = { sub: 'm', projects: ['p1'], apps: ['a1'], roles: [] };
  it('grants listed projects and apps, wildcards, and everything to admins', () => {
    assert.equal(canUseProject(member, 'p1'), true);
    assert.equal(canUseProject(member, 'p2'), false);
    assert.equal(canReadApp(member, 'a1'), true);
    assert.equal(canReadApp(member, 'a2'), false);
    assert.equal(canUseProject({ ...member, projects: ['*'] }, 'p9'), true);
    assert.equal(canReadApp({ ...member, roles: ['admin'] }, 'a9'), true);
  });
});
