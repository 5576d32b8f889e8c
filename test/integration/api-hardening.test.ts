/**
 * Issue #32's API rules, through the real stack: the invocation limit as a sliding window with RateLimit fields
 * (and shared by REST and A2A), JWT edges (a non-numeric iat, an unknown crit) and the production start-up
 * checks, Temporal UI links for admins only, Allow on 405 and nosniff everywhere, IPv4-embedding IPv6 outbound
 * URLs, and the webhook receiver's slug check and app cache.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { MongoClient } from 'mongodb';
import { mintToken } from '../../src/auth/mint-token';
import { COLLECTIONS } from '../../src/store/collections';
import { DeadLetterRepository } from '../../src/store/dead-letters';
import { billingClient } from '../support/billing-client';
import { TEST_JWT_SECRET, randomSuffix, testConfig } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { makeTenant, type Tenant } from '../support/mcp-raw';
import { providerEvent } from '../support/provider-events';
import { adminToken, projectToken } from '../support/tokens';
import { freePort } from '../../scripts/stack/servers';

const admin = adminToken();

describe('the invocation limit: a sliding window with RateLimit fields (SKILL_INVOCATIONS_PER_MINUTE=5)', () => {
  let h: Harness;
  let t: Tenant;
  // The service's clock stands still but for the steps the test takes: the window is exact to the millisecond.
  const start = Date.now();
  let offsetMs = 0;
  before(async () => {
    h = await startHarness({ SKILL_INVOCATIONS_PER_MINUTE: '5' }, { now: () => new Date(start + offsetMs) });
    t = await makeTenant(h, 'rate');
  });
  after(async () => h?.close());

  // An invalid input is counted and refused with 400 without starting anything.
  const invoke = () =>
    h.request('POST', `/v1/agents/${t.project}/skills/release_notes_composer`, { token: t.token, body: { fromVersion: '1.0.0' } });
  const fields = (r: { status: number; headers: Headers }) => [r.status, r.headers.get('ratelimit'), r.headers.get('ratelimit-policy')];
  const policy = '"invocations";q=5;w=60';

  it('counts each invocation for exactly a minute: no burst across a window boundary, and says what is left', async () => {
    assert.deepEqual(fields(await invoke()), [400, '"invocations";r=4;t=60', policy]);
    offsetMs = 59_000;
    for (const left of [3, 2, 1, 0]) assert.deepEqual(fields(await invoke()), [400, `"invocations";r=${left};t=1`, policy]);
    const refused = await invoke();
    assert.deepEqual(fields(refused), [429, '"invocations";r=0;t=1', policy]);
    assert.equal(refused.headers.get('retry-after'), '1');
    // A fixed window would start afresh here and take 5 more: only the first invocation has left the last minute.
    offsetMs = 60_500;
    assert.deepEqual(fields(await invoke()), [400, '"invocations";r=0;t=59', policy]);
    const again = await invoke();
    assert.equal(again.status, 429);
    assert.equal(again.body.code, 'rate_limited');
    assert.equal(again.headers.get('retry-after'), '59');
  });

  it('A2A tasks count against the same limit', async () => {
    const res = await h.request('POST', `/v1/agents/${t.project}/a2a`, {
      token: t.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: `m-${randomSuffix()}`,
            role: 'user',
            parts: [{ kind: 'data', data: { skill: 'proposal_writer', inputs: { customerName: 'Rate Foods', format: 'email' } } }],
          },
        },
      },
    });
    assert.equal(res.body.error?.code, -32602, res.text);
    assert.match(res.body.error.message, /too many invocations; retry in 59 s/);
  });

  it('the OpenAPI document shows the RateLimit fields and every 429', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body;
    const invokeOp = doc.paths['/v1/agents/{project}/skills/{skill}'].post;
    for (const status of ['200', '202', '400', '429'])
      for (const header of ['RateLimit', 'RateLimit-Policy'])
        assert.ok(invokeOp.responses[status].headers?.[header], `${status} ${header}`);
    assert.ok(invokeOp.responses['429'].headers['Retry-After']);
    for (const [path, method] of [
      ['/v1/agents/{project}/mcp', 'post'],
      ['/v1/agents/{project}/mcp', 'get'],
      ['/v1/agents/{project}/a2a', 'post'],
      ['/a2a', 'post'],
      ['/v1/agents/{project}/invocations/{id}/events', 'get'],
    ] as const)
      assert.ok(doc.paths[path][method].responses['429'], `${method} ${path} documents its 429`);
  });
});

/** An HS256 token with any header and payload, as jsonwebtoken would refuse to sign them. */
function handMadeToken(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT', ...header })}.${part(payload)}`;
  return `${unsigned}.${createHmac('sha256', TEST_JWT_SECRET).update(unsigned).digest('base64url')}`;
}

describe('JWT edges and Temporal UI links', () => {
  let h: Harness;
  const APP = `links-${randomSuffix()}`;
  let auth = '';
  before(async () => {
    h = await startHarness({ TEMPORAL_UI_URL: 'http://temporal-ui.internal:8080' });
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Links' } })).body.authorization;
  });
  after(async () => h?.close());

  it('refuses an iat that is not a number and a crit header; the same token without them passes', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const claims = { sub: 'edge', projects: ['*'], exp };
    const status = async (token: string) => (await h.request('GET', '/v1/console/projects', { token })).status;
    assert.equal(await status(handMadeToken({}, claims)), 200);
    assert.equal(await status(handMadeToken({}, { ...claims, iat: Math.floor(Date.now() / 1000) })), 200);
    for (const iat of [String(exp + 86_400 * 365), { at: exp }, [exp], true]) {
      const res = await h.request('GET', '/v1/console/projects', { token: handMadeToken({}, { ...claims, iat }) });
      assert.equal(res.status, 401, `iat ${JSON.stringify(iat)}`);
      assert.match(res.body.detail, /iat/);
    }
    for (const crit of [['exp'], ['x-unknown-extension'], []]) {
      const res = await h.request('GET', '/v1/console/projects', { token: handMadeToken({ crit, 'x-unknown-extension': true }, claims) });
      assert.equal(res.status, 401, `crit ${JSON.stringify(crit)}`);
      assert.match(res.body.detail, /crit/);
    }
  });

  it('Temporal UI addresses and workflow links go to admins only, never to app or project tokens', async () => {
    await h.startWorker();
    const member = projectToken(['*'], [APP]);
    const client = billingClient(h, APP, () => auth);
    const now = Date.now();
    await client.deliver(providerEvent('INITIAL_PURCHASE', 'link-user', { at: now, expiresAt: now + 30 * 86_400_000 }));
    await client.settled('link-user', 1);
    await new DeadLetterRepository(h.db).park(
      {
        key: `app:${APP}|relay|parked`,
        scope: `app:${APP}`,
        stage: 'relay',
        eventId: 'parked',
        type: 'RENEWAL',
        subscriberId: 'link-user',
        workflowId: `billing/app:${APP}/link-user`,
        reason: 'not relayed',
        payload: '{}',
      },
      new Date(),
    );
    const ui = 'http://temporal-ui.internal:8080/namespaces/default/workflows/';
    const read = async (token: string) => {
      const get = async (path: string) => {
        const res = await h.request('GET', path, { token });
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        return res.body;
      };
      return [
        (await get('/v1/console/scopes')).temporalUiUrl,
        (await get(`/v1/billing/metrics?app=${APP}`)).metricsWorkflowUrl,
        (await get(`/v1/billing/customers?app=${APP}`)).customers[0].workflowUrl,
        (await get(`/v1/billing/customers/link-user?app=${APP}`)).workflowUrl,
        (await get(`/v1/billing/dead-letters?app=${APP}`)).deadLetters[0].workflowUrl,
      ];
    };
    assert.deepEqual(await read(member), [null, null, null, null, null]);
    const seen = await read(admin);
    assert.equal(seen[0], 'http://temporal-ui.internal:8080');
    for (const link of seen.slice(1)) assert.ok(String(link).startsWith(ui), String(link));
  });
});

describe('production start-up: refuses to start without JWT_ISSUER, JWT_AUDIENCE and METRICS_TOKEN', function () {
  // Two API processes start (on a loaded machine, one took 30 s to serve).
  this.timeout(150_000);
  const server = join(__dirname, '..', '..', 'src', 'api', 'server.js');

  // A process that starts when it should not (or a test that fails half-way) is not left running.
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  async function start(extra: Record<string, string>) {
    // Read here, not where the suite is defined: the stack's addresses are set once it runs.
    const config = testConfig();
    const port = await freePort();
    const child = spawn(process.execPath, [server], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        PORT: String(port),
        TEMPORAL_ADDRESS: config.temporal.address,
        MONGODB_URI: config.mongo.uri,
        MONGODB_DB: config.mongo.dbName,
        JWT_SECRET: TEST_JWT_SECRET,
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close': exited, and its stderr read to the end.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    started.push(child);
    return { child, port, exited, stderr: () => stderr };
  }

  it('names each missing setting and exits 1; with them it serves, and a SIGTERM ends a request under way after its grace', async () => {
    const bare = await start({});
    // It exits when it refuses; one that serves has started without them.
    const outcome = await eventually(
      async () =>
        bare.child.exitCode ??
        (await fetch(`http://127.0.0.1:${bare.port}/healthz`)
          .then((r) => (r.status === 200 ? 'serving' : null))
          .catch(() => null)),
      (o) => o !== null,
      { what: 'the API without them to exit or serve', timeoutMs: 90_000 },
    );
    assert.equal(outcome, 1, `the API without them: ${outcome}`);
    await bare.exited;
    for (const name of ['JWT_ISSUER', 'JWT_AUDIENCE', 'METRICS_TOKEN'])
      assert.match(bare.stderr(), new RegExp(`${name} is required in production`));

    const full = await start({ JWT_ISSUER: 'https://id.example', JWT_AUDIENCE: 'skills-api', METRICS_TOKEN: 'metrics-token-0123456789' });
    try {
      await eventually(
        () =>
          fetch(`http://127.0.0.1:${full.port}/healthz`)
            .then((r) => r.status)
            .catch(() => 0),
        (s) => s === 200,
        { what: 'the production API to serve', timeoutMs: 90_000 },
      );
      const token = mintToken(
        TEST_JWT_SECRET,
        { sub: 'p', projects: ['*'] },
        { expiresInSeconds: 600, issuer: 'https://id.example', audience: 'skills-api' },
      );
      const noAudience = mintToken(TEST_JWT_SECRET, { sub: 'p', projects: ['*'] }, { expiresInSeconds: 600 });
      const status = (t: string) =>
        fetch(`http://127.0.0.1:${full.port}/v1/console/projects`, { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.status);
      assert.equal(await status(token), 200);
      assert.equal(await status(noAudience), 401);
      // A request still under way at SIGTERM (headers never finished, as a stalled client or a held stream leaves
      // one) gets the shutdown's grace, not the server's 60-second request timeout: the process exits and the
      // connection is closed well before that timeout could have ended it.
      const held = connect(full.port, '127.0.0.1');
      const heldClosed = new Promise<number>((resolve) => held.on('close', () => resolve(Date.now())));
      held.on('error', () => undefined);
      await new Promise<void>((resolve) => held.once('connect', () => resolve()));
      held.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const termAt = Date.now();
      full.child.kill('SIGTERM');
      await full.exited;
      const closedAfter = (await heldClosed) - termAt;
      assert.ok(closedAfter < 40_000, `the held connection closed ${closedAfter} ms after SIGTERM`);
    } finally {
      if (full.child.exitCode === null) full.child.kill('SIGTERM');
      await full.exited;
    }
  });
});

describe('HTTP conformance, outbound addresses and the webhook receiver', () => {
  let h: Harness;
  let t: Tenant;
  const APP = `recv-${randomSuffix()}`;
  let auth = '';
  let frozen: number | null = null;
  before(async () => {
    h = await startHarness({}, { monitorCommands: true, now: () => new Date(frozen ?? Date.now()) });
    t = await makeTenant(h, 'conformance');
    auth = (await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Receiver' } })).body.authorization;
  });
  after(async () => h?.close());

  it('a 405 names the allowed methods in Allow', async () => {
    for (const [method, path, allowed] of [
      ['DELETE', '/healthz', ['GET', 'HEAD']],
      ['PUT', `/v1/agents/${t.project}/mcp`, ['DELETE', 'GET', 'HEAD', 'POST']],
      ['PATCH', '/v1/apps', ['GET', 'HEAD', 'POST']],
    ] as const) {
      const res = await h.request(method, path, { token: admin });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.body.code, 'method_not_allowed');
      assert.deepEqual(
        (res.headers.get('allow') ?? '')
          .split(',')
          .map((m) => m.trim())
          .sort(),
        allowed,
        `${method} ${path}`,
      );
    }
  });

  it('every answer carries X-Content-Type-Options: nosniff (problems, documents, the OpenAPI document, MCP)', async () => {
    const answers = [
      await h.request('GET', '/v1/nowhere'),
      await h.request('GET', '/openapi.json'),
      await h.request('GET', `/v1/projects/${t.project}/documents`, { token: t.token }),
      await h.request('GET', '/healthz'),
      await h.request('DELETE', '/healthz'),
    ];
    const mcp = await fetch(`${h.baseUrl}/v1/agents/${t.project}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'n', version: '1' } },
      }),
    });
    await mcp.text();
    for (const res of [...answers, mcp]) assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${res.status}`);
  });

  it('outbound URLs: every IPv4-embedding IPv6 form of a reserved IPv4 address is refused at registration', async () => {
    assert.equal((await h.request('PUT', `/v1/apps/${APP}/outbound-access`, { token: admin, body: { enabled: true } })).status, 200);
    const path = `/v1/apps/${APP}/webhook-endpoints`;
    for (const url of [
      'https://[::127.0.0.1]/hook',
      'https://[::7f00:1]/hook',
      'https://[::10.0.0.1]/hook',
      'https://[::169.254.169.254]/latest/meta-data',
      'https://[0:0:0:0:0:0:192.168.1.1]/',
      'https://[2606:4700::5efe:7f00:1]/',
      'https://[2606:4700::200:5efe:a00:1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[64:ff9b::a00:1]/',
    ]) {
      const res = await h.request('POST', path, { token: admin, body: { url } });
      assert.equal(res.status, 422, `${url}: ${res.text}`);
      assert.equal(res.body.code, 'unsafe_url');
    }
    // A public IPv6 address, with an ISATAP identifier around a public IPv4 address too, is registered.
    for (const url of ['https://[2606:4700:4700::1111]/hook', 'https://[2606:4700::5efe:808:808]/hook'])
      assert.equal((await h.request('POST', path, { token: admin, body: { url } })).status, 201, url);
  });

  it('the receiver refuses a slug no app can have without reading the store, and reads an unknown one once', async () => {
    const client = h.store.client as MongoClient;
    const appReads: string[] = [];
    const listener = (ev: { commandName: string; databaseName: string; command: Record<string, unknown> }) => {
      if (ev.databaseName === h.config.mongo.dbName && ev.commandName === 'find' && ev.command.find === COLLECTIONS.apps)
        appReads.push(String((ev.command.filter as { _id?: unknown })?._id));
    };
    client.on('commandStarted', listener);
    try {
      const post = (slug: string, authorization = 'Bearer nope') =>
        fetch(`${h.baseUrl}/api/saas/iap/billingprovider/webhook?app=${encodeURIComponent(slug)}`, {
          method: 'POST',
          headers: { Authorization: authorization, 'Content-Type': 'application/json' },
          body: '{}',
        }).then(async (r) => (await r.text(), r.status));
      for (const slug of ['Upper-Case', '-leading-dash', 'has space', 'question?', 'é', 'x'.repeat(64), `${APP}/..`])
        assert.equal(await post(slug), 401, slug);
      assert.deepEqual(appReads, [], 'no store read for slugs that cannot exist');

      // The real app is read once and cached; unknown (well-formed) slugs then cost a read each, and none of the
      // real app's (the clock stands still: no entry expires meanwhile).
      frozen = Date.now();
      const event = providerEvent('INITIAL_PURCHASE', 'cache-user', { at: frozen, expiresAt: frozen + 30 * 86_400_000 });
      assert.equal(await post(APP, auth), 400, 'authorized (an empty body is then a 400)');
      const readsOfApp = () => appReads.filter((s) => s === APP).length;
      const before = readsOfApp();
      for (let i = 0; i < 50; i++) assert.equal(await post(`unknown-${i}`), 401);
      assert.equal(appReads.length - before, 50, 'an unknown slug is read once (not again after its miss)');
      const delivered = await fetch(`${h.baseUrl}/api/saas/iap/billingprovider/webhook?app=${APP}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ api_version: '1.0', event }),
      });
      assert.equal(delivered.status, 200, await delivered.text());
      assert.equal(readsOfApp(), before, 'the real app was still cached');
    } finally {
      client.off('commandStarted', listener);
      frozen = null;
    }
  });
});
