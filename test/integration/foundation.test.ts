import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness';
import { adminToken, expiredToken, projectToken, tokenWithoutExp, unsignedToken, wrongSecretToken } from '../support/tokens';
import { pino } from 'pino';
import { createApp } from '../../src/api/app';
import { composeApi } from '../../src/api/compose';

describe('foundation: health, errors, OpenAPI (real MongoDB wire server, real Temporal)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('GET /healthz answers 200', async () => {
    const res = await h.request('GET', '/healthz');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
  });

  it('GET /readyz is 200 when MongoDB and Temporal answer', async () => {
    const res = await h.request('GET', '/readyz');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.checks.mongodb.status, 'up');
    assert.equal(res.body.checks.temporal.status, 'up');
  });

  it('an unknown route is a problem+json 404 with a request id', async () => {
    const res = await h.request('GET', '/nope', { headers: { 'X-Request-Id': 'abc-123' } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(res.body.code, 'not_found');
    assert.equal(res.headers.get('x-request-id'), 'abc-123');
  });

  it('a wrong method is a problem+json 405', async () => {
    const res = await h.request('DELETE', '/healthz');
    assert.equal(res.status, 405);
    assert.equal(res.body.status, 405);
  });

  it('GET /metrics serves Prometheus text', async () => {
    const res = await h.request('GET', '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.text, /http_request_duration_seconds_bucket/);
  });

  it('with METRICS_TOKEN set, GET /metrics answers only the bearer of that value', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startHarness({ METRICS_TOKEN: token });
    try {
      for (const authorization of [undefined, 'Bearer wrong', token, `Basic ${token}`]) {
        const res = await guarded.request('GET', '/metrics', authorization ? { headers: { Authorization: authorization } } : {});
        assert.equal(res.status, 401, String(authorization));
        assert.equal(res.headers.get('content-type'), 'application/problem+json');
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      }
      const ok = await guarded.request('GET', '/metrics', { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(ok.status, 200);
      assert.match(ok.text, /http_request_duration_seconds_bucket/);
    } finally {
      await guarded.close();
    }
  });

  it('GET /dashboard serves the operator console with a strict content security policy and its assets from the API', async () => {
    const res = await h.request('GET', '/dashboard');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    // No inline script or style: every script comes from the API's own assets (no CDN).
    assert.doesNotMatch(res.text, /<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/);
    for (const src of res.text.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)) {
      const asset = await h.request('GET', src[1]!);
      assert.equal(asset.status, 200, src[1]);
    }
    const script = await h.request('GET', '/dashboard/assets/console.js');
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    // The entry module imports the views, each served from the built console beside it.
    assert.match(script.text, /from '\.\/views\/trends\.js'/);
    const view = await h.request('GET', '/dashboard/assets/views/trends.js');
    assert.match(view.headers.get('content-type') ?? '', /javascript/);
    assert.match(view.text, /\/v1\/billing\/metrics/);
    assert.equal((await h.request('GET', '/dashboard/assets/views/..%2Fconsole.js')).status, 404);
    const missing = await h.request('GET', '/dashboard/assets/..%2Fpage.html');
    assert.equal(missing.status, 404);
  });

  it('GET /openapi.json documents every route the app serves', async () => {
    const res = await h.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const documented = new Set<string>();
    for (const [p, item] of Object.entries(res.body.paths as Record<string, object>))
      for (const m of Object.keys(item)) documented.add(`${m.toUpperCase()} ${p}`);
    const { routers } = createApp(composeApi({ config: h.config, logger: silentLogger(), db: h.db, temporal: h.temporal }));
    const served = routers.flatMap((r) =>
      r.stack.flatMap((layer) =>
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
      ),
    );
    assert.ok(served.length > 5);
    const missing = served.filter((s) => !documented.has(s));
    assert.deepEqual(missing, [], 'routes missing from the OpenAPI document');
  });

  it('one JSON access line per request with the status the client got, the app slug on webhook lines, no stack printer', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const { app } = createApp(composeApi({ config: h.config, logger, db: h.db, temporal: h.temporal }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const printed: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    try {
      const malformed = await fetch(`${base}/v1/orgs/acme`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken()}` },
        body: '{"name":',
      });
      assert.equal(malformed.status, 400);
      const hook = await fetch(`${base}/api/saas/iap/billingprovider/webhook?app=some-app`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'nope' },
        body: '{}',
      });
      assert.equal(hook.status, 401);
    } finally {
      console.error = originalError;
      await new Promise((r) => server.close(r));
    }
    const access = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    assert.deepEqual(
      access.map((l) => [l.path, l.status]),
      [
        ['/v1/orgs/acme', 400],
        ['/api/saas/iap/billingprovider/webhook', 401],
      ],
    );
    assert.equal(access[1]!.app, 'some-app');
    assert.ok(
      lines.every((l) => !l.slice(0, -1).includes('\n')),
      'every entry is one line',
    );
    assert.deepEqual(printed, [], 'nothing printed outside the JSON log');
  });

  it('/openapi.json: an operationId on every operation, and every $ref resolves (openapi-contract.test.ts generates a client from it)', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.entries(ops)
        .filter(([m]) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
        .map(([, op]) => op.operationId),
    );
    assert.ok(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id)),
      JSON.stringify(ids),
    );
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) {
      assert.match(ref, /^#\//, ref);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      assert.ok(target !== undefined, `${ref} resolves`);
    }
  });

  describe('readiness when a dependency is down', () => {
    let down: Harness;
    before(async () => {
      // A Temporal address nothing listens on: the API must still start, and say which part is down.
      down = await startHarness({ TEMPORAL_ADDRESS: '127.0.0.1:1' });
    });
    after(async () => down?.close());
    it('GET /readyz is 503 naming temporal', async () => {
      const res = await down.request('GET', '/readyz');
      assert.equal(res.status, 503);
      assert.equal(res.body.checks.temporal.status, 'down');
      assert.equal(res.body.checks.mongodb.status, 'up');
      assert.match(res.body.detail, /temporal/);
    });
  });
});

describe('orgs, projects and the skills listing', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    const admin = adminToken();
    assert.equal(
      (await h.request('PUT', '/v1/orgs/acme', { token: admin, body: { name: 'Acme', ownerEmail: 'owner@acme.test' } })).status,
      201,
    );
    assert.equal((await h.request('PUT', '/v1/projects/acme-web', { token: admin, body: { name: 'Acme Web', org: 'acme' } })).status, 201);
  });
  after(async () => h?.close());

  it('lists the three skills with their input schemas', async () => {
    const res = await h.request('GET', '/v1/agents/acme-web/skills', { token: projectToken(['acme-web']) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.project, 'acme-web');
    const names = res.body.skills.map((s: { name: string }) => s.name);
    assert.deepEqual(names, ['release_notes_composer', 'proposal_writer', 'incident_rca']);
    const rn = res.body.skills[0];
    assert.deepEqual(rn.inputSchema.required, ['fromVersion', 'toVersion']);
    assert.deepEqual(rn.inputSchema.properties.tone.enum, ['casual', 'neutral', 'formal']);
    assert.equal(rn.output.format, 'markdown');
    assert.equal(rn.available, true);
    assert.equal(rn.unavailableReason, null);
    assert.deepEqual(res.body.skills[2].inputSchema.properties.severity.enum, ['SEV-1', 'SEV-2', 'SEV-3']);
  });

  for (const [label, token] of [
    ['missing', undefined],
    ['expired', expiredToken()],
    ['without exp', tokenWithoutExp()],
    ['badly signed', wrongSecretToken()],
    ['alg none', unsignedToken()],
    ['malformed', 'abc'],
  ] as const) {
    it(`401 with WWW-Authenticate for a ${label} token`, async () => {
      const res = await h.request('GET', '/v1/agents/acme-web/skills', token ? { token } : {});
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      assert.equal(res.body.code, 'unauthorized');
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    });
  }

  it('403 for a valid token without the project, whether or not it exists', async () => {
    const token = projectToken(['other']);
    assert.equal((await h.request('GET', '/v1/agents/acme-web/skills', { token })).status, 403);
    assert.equal((await h.request('GET', '/v1/agents/ghost/skills', { token })).status, 403);
  });

  it('404 for an unknown project when the caller may see it', async () => {
    const res = await h.request('GET', '/v1/agents/ghost/skills', { token: projectToken(['*']) });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'unknown_project');
  });

  it('only admins create orgs and projects; bodies are validated', async () => {
    const member = projectToken(['*']);
    assert.equal((await h.request('PUT', '/v1/orgs/x', { token: member, body: { name: 'X', ownerEmail: 'a@b.c' } })).status, 403);
    const bad = await h.request('PUT', '/v1/orgs/x', { token: adminToken(), body: { name: '', ownerEmail: 'nope', extra: 1 } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path).sort(), ['/extra', '/name', '/ownerEmail']);
    const noOrg = await h.request('PUT', '/v1/projects/p', { token: adminToken(), body: { name: 'P', org: 'missing' } });
    assert.equal(noOrg.status, 404);
  });

  it('415 for a non-JSON body, 400 for malformed JSON, 413 past 64 KiB', async () => {
    const admin = adminToken();
    const wrongType = await h.request('PUT', '/v1/orgs/x', { token: admin, raw: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(wrongType.status, 415);
    const malformed = await h.request('PUT', '/v1/orgs/x', {
      token: admin,
      raw: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'malformed_json');
    const huge = await h.request('PUT', '/v1/orgs/x', { token: admin, body: { name: 'x'.repeat(70 * 1024), ownerEmail: 'a@b.c' } });
    assert.equal(huge.status, 413);
  });

  it('a skill whose entitlement the project lacks is listed as unavailable', async () => {
    const gated = await startHarness({ SKILL_ENTITLEMENTS: '{"incident_rca":"pro"}' });
    try {
      const admin = adminToken();
      await gated.request('PUT', '/v1/orgs/acme', { token: admin, body: { name: 'Acme', ownerEmail: 'owner@acme.test' } });
      await gated.request('PUT', '/v1/projects/acme-web', { token: admin, body: { name: 'Acme Web', org: 'acme' } });
      const res = await gated.request('GET', '/v1/agents/acme-web/skills', { token: admin });
      const rca = res.body.skills.find((s: { name: string }) => s.name === 'incident_rca');
      assert.equal(rca.available, false);
      assert.match(rca.unavailableReason, /"pro"/);
    } finally {
      await gated.close();
    }
  });
});

function silentLogger() {
  return pino({ level: 'silent' });
}
