/**
 * Thousands of generated hostile requests against every route the OpenAPI document lists (both webhook
 * receivers included): malformed, deep, oversized and random bodies, huge numbers, lone surrogates, long ids,
 * `$`-keys, wrong types, odd path parameters and tokens. None may answer 5xx, every error is a problem+json
 * with a code, and the process still serves afterwards.
 */
import assert from 'node:assert/strict';
import jwt from 'jsonwebtoken';
import { randomSuffix, TEST_JWT_SECRET, TEST_OPERATOR_AUTHORIZATION } from '../support/config';
import { startHarness, type Harness } from '../support/harness';
import { adminToken, projectToken } from '../support/tokens';
import { loadDemo } from './skills-helpers';
import { seeded, type Rng } from '../../bench/lib/random';

const PATH_VALUES = [
  'acme-web',
  'x',
  'a'.repeat(300),
  '%00',
  '..',
  '%ED%A0%80',
  '%F0%9F%98%80',
  'UPPER',
  'inv_01M82RANSA3FRAD36WHFZAZZD8',
  '$where',
  'release_notes_composer',
  '%25',
  '-',
  '1e309',
];
const QUERY_VALUES = [
  '?revokePrevious=maybe',
  '?q=' + Array.from({ length: 300 }, (_, i) => `w${i}`).join('+'),
  '',
  '?limit=-1',
  '?limit=1e9',
  '?limit=abc',
  '?cursor=%E0%A4%A',
  '?cursor=' + 'A'.repeat(3000),
  '?kind=$ne',
  '?q=' + '('.repeat(500),
  '?status=%00',
  '?app=acme&app=b',
  '?flagged=maybe',
  '?app=' + 'x'.repeat(500),
];

function hostileBody(r: Rng): { raw: string; type: string } {
  const json = (v: unknown) => ({ raw: JSON.stringify(v), type: 'application/json' });
  const deep = (n: number) => ({ raw: '['.repeat(n) + ']'.repeat(n), type: 'application/json' });
  const cases: (() => { raw: string; type: string })[] = [
    () => ({ raw: '{', type: 'application/json' }),
    () => ({ raw: Buffer.from(Array.from({ length: 200 }, () => r.int(0, 255))).toString('latin1'), type: 'application/json' }),
    () => deep(5_000),
    () => ({
      raw: `{"event":{"id":"deep","type":"INITIAL_PURCHASE","app_user_id":"u","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
      type: 'application/json',
    }),
    () => ({ raw: `{"a":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`, type: 'application/json' }),
    () => json({ documents: [{ kind: 'ticket', externalId: 'x'.repeat(100_000), title: 't', body: 'b' }] }),
    () => ({ raw: '{"event":{"id":"\\ud800","type":"TEST"}}', type: 'application/json' }),
    () =>
      json({
        event: { id: 'e', type: 'INITIAL_PURCHASE', app_user_id: 'u', expiration_at_ms: 1e308, purchased_at_ms: -1e308, price: 1e308 },
      }),
    () => json({ event: { id: 'e', type: 'RENEWAL', app_user_id: { $gt: '' }, aliases: [{ $ne: 1 }] } }),
    () => json({ $where: 'sleep(1000)', 'a.b': 1, slug: { $gt: '' }, name: ['x'] }),
    () => json({ fromVersion: '1.0.0', toVersion: '9'.repeat(400) + '.0.0', tone: 'loud' }),
    () => json({ customerName: 'C', format: 'email', painPoints: Array.from({ length: 500 }, () => 'p') }),
    () => json({ incidentId: { $ne: null }, severity: 'SEV-0' }),
    () => json([1, 2, 3]),
    () => json(null),
    () => json('string'),
    () => json(123456789012345678901234567890),
    () => ({ raw: '{"a":1}', type: 'text/plain' }),
    () => ({ raw: 'a=1&b=2', type: 'application/x-www-form-urlencoded' }),
    () => json({ name: 'n', org: 'o', ownerEmail: 'not-an-email', slug: 'UPPER CASE', documents: 'nope' }),
    () => json({ event: { id: 'x'.repeat(600), type: 'T'.repeat(100) } }),
    () =>
      json({
        url: r.pick([
          'https://[::ffff:0:127.0.0.1]/x',
          'https://192.0.2.1/x',
          'https://[64:ff9b::a00:1]/x',
          'https://[2002:a00:1::1]/x',
          'https://[fec0::1]/x',
        ]),
      }),
  ];
  return r.pick(cases)();
}

describe('hostile input: generated requests against every route (real stack)', function () {
  this.timeout(180_000);
  let h: Harness;
  let appAuth = '';
  const APP = `fuzz-${randomSuffix()}`;
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
    appAuth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Fuzz' } })).body.authorization;
  });
  after(async () => h?.close());

  it('answers every case with a documented 4xx or a 2xx, never a 5xx, and keeps serving', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => ({ method: m.toUpperCase(), path })),
    );
    assert.ok(routes.length >= 20, `${routes.length} routes in the OpenAPI document`);
    const r = seeded(20261122);
    const tokens = [
      () => adminToken(),
      () => projectToken(['acme-web'], [APP]),
      () => 'garbage',
      () => 'a'.repeat(10_000),
      () => '',
      () => futureToken('iat'),
      () => futureToken('nbf'),
    ];
    const failures: string[] = [];
    let sent = 0;
    const CASES_PER_ROUTE = 80;
    for (const route of routes) {
      for (let i = 0; i < CASES_PER_ROUTE; i++) {
        const path =
          route.path.replace(/\{[^}]+\}/g, () => r.pick(PATH_VALUES)).replace('?app={slug}', '') +
          (route.path.includes('webhook') ? `?app=${r.chance(0.8) ? APP : r.pick(PATH_VALUES)}` : r.pick(QUERY_VALUES));
        const headers: Record<string, string> = {};
        if (route.path.includes('/api/saas/')) headers.Authorization = r.chance(0.8) ? appAuth : r.pick(['', 'x', appAuth + 'x']);
        else if (route.path.includes('/api/billing/')) headers.Authorization = r.chance(0.8) ? TEST_OPERATOR_AUTHORIZATION : 'nope';
        else {
          const token = r.pick(tokens)();
          if (token) headers.Authorization = `Bearer ${token}`;
        }
        if (r.chance(0.2)) headers['Idempotency-Key'] = r.pick(['k', '\u00e9', 'x'.repeat(300)]).replace(/[^\x20-\x7e]/g, '?');
        if (r.chance(0.1)) headers.Prefer = r.pick(['wait=999999', 'wait=-1', 'wait=1']);
        let body: { raw: string; type: string } | null = null;
        if (['POST', 'PUT', 'PATCH'].includes(route.method)) {
          body = hostileBody(r);
          headers['Content-Type'] = body.type;
        }
        let res;
        try {
          res = await h.request(route.method, path, { raw: body?.raw, headers });
        } catch (err) {
          failures.push(`${route.method} ${path.slice(0, 120)}: request failed: ${String(err)}`);
          continue;
        }
        sent += 1;
        if (res.status >= 500) failures.push(`${route.method} ${path.slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`);
        else if (res.status >= 400 && !(res.headers.get('content-type') ?? '').includes('application/problem+json'))
          failures.push(`${route.method} ${path.slice(0, 120)} → ${res.status} without problem+json`);
        else if (res.status >= 400 && typeof res.body?.code !== 'string')
          failures.push(`${route.method} ${path.slice(0, 120)} → ${res.status} without a code`);
      }
    }
    process.stdout.write(`      hostile input: ${sent} requests over ${routes.length} routes, ${failures.length} failures\n`);
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} of ${sent} requests broke the contract`);
    assert.equal((await h.request('GET', '/healthz')).status, 200);
    assert.equal((await h.request('GET', '/readyz')).status, 200);
  });

  it('the hardening cases get their documented answers', async () => {
    for (const claim of ['iat', 'nbf'] as const) {
      const res = await h.request('GET', '/v1/apps', { headers: { Authorization: `Bearer ${futureToken(claim)}` } });
      assert.equal(res.status, 401, `a token with ${claim} in the future`);
    }
    assert.equal(
      (await h.request('POST', `/v1/apps/${APP}/webhook-authorization/rotate?revokePrevious=maybe`, { token: adminToken() })).status,
      400,
    );
    await h.request('PUT', `/v1/apps/${APP}/outbound-access`, { token: adminToken(), body: { enabled: true } });
    for (const url of [
      'https://[::ffff:0:127.0.0.1]/x',
      'https://203.0.113.7/x',
      'https://[64:ff9b::a00:1]/x',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
    ]) {
      const res = await h.request('POST', `/v1/apps/${APP}/webhook-endpoints`, { token: adminToken(), body: { url } });
      assert.equal(res.status, 422, `${url}: ${res.text}`);
      assert.equal(res.body.code, 'unsafe_url');
    }
  });
});

/** A well-signed admin token whose `iat` or `nbf` lies an hour in the future. */
function futureToken(claim: 'iat' | 'nbf'): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign({ sub: 'future', roles: ['admin'], exp: now + 7200, [claim]: now + 3600 }, TEST_JWT_SECRET, { algorithm: 'HS256' });
}
