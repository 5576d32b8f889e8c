/**
 * The agent surfaces shared by many tenants (issue #32), through the real stack: MCP sessions bounded per caller,
 * so one tenant's flood never evicts, answers 404 to or cancels anything of another's; a session the server closes
 * (eviction, idle sweep, shutdown) leaves its invocations running; event streams and MCP GET streams bounded per
 * caller; the MCP endpoint's Origin and Host checked (DNS rebinding); JSON-RPC ids usable whatever they are.
 * No worker runs unless a test starts one: calls stay open on queued invocations.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import {
  assertNotCancelled,
  initialize,
  initializeMessage,
  invocationsOf,
  listTools,
  makeTenant,
  openCall,
  untilInvocations,
  type Tenant,
} from '../support/mcp-raw';

describe('MCP sessions and streams of two tenants (MCP_SESSIONS_PER_CALLER=3, EVENT_STREAMS_PER_CALLER=3)', () => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;
  const open: { drop(): void }[] = [];
  const sessions = { a: '', b1: '' };

  before(async () => {
    h = await startHarness({ MCP_SESSIONS_PER_CALLER: '3', EVENT_STREAMS_PER_CALLER: '3' });
    a = await makeTenant(h, 'alpha');
    b = await makeTenant(h, 'beta');
  });
  after(async () => {
    for (const c of open) c.drop();
    await h?.close();
  });

  const call = async (t: Tenant, sessionId: string, id: string) => {
    const c = await openCall(h, t, sessionId, id);
    assert.equal(c.status, 200);
    open.push(c);
    return c;
  };

  it("a flood of sessions by one tenant evicts only that tenant's idle sessions: the other's answers, and no invocation is cancelled", async () => {
    sessions.a = (await initialize(h, a)).sessionId;
    await call(a, sessions.a, 'a-1');
    sessions.b1 = (await initialize(h, b)).sessionId;
    await call(b, sessions.b1, 'b-1');
    const [invA] = await untilInvocations(h, a, 1);
    const [invB] = await untilInvocations(h, b, 1);

    // More sessions than the whole process held before (200), all by tenant B.
    const flood: string[] = [];
    for (let i = 0; i < 205; i++) {
      const s = await initialize(h, b);
      assert.equal(s.status, 200, s.text);
      flood.push(s.sessionId);
    }
    // Both calls' invocations run on, A's session answers, and so does B's busy one...
    await assertNotCancelled(h, a, invA!);
    await assertNotCancelled(h, b, invB!);
    assert.equal((await listTools(h, a, sessions.a)).status, 200);
    assert.equal((await listTools(h, b, sessions.b1)).status, 200);
    // ...while B's own idle sessions made room for its new ones.
    assert.equal((await listTools(h, b, flood[0]!)).status, 404);
    assert.equal((await listTools(h, b, flood.at(-1)!)).status, 200);
  });

  it('past its quota with every session busy, a caller gets 429; another tenant still gets a session', async () => {
    // B's two idle flood sessions give way to two more busy ones.
    for (const id of ['b-2', 'b-3']) {
      const s = await initialize(h, b);
      assert.equal(s.status, 200, s.text);
      await call(b, s.sessionId, id);
    }
    await untilInvocations(h, b, 3);
    const refused = await initialize(h, b);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(JSON.parse(refused.text).code, 'too_many_mcp_sessions');
    assert.equal((await initialize(h, a)).status, 200);
  });

  it('event streams and MCP GET streams count in a share per caller: 429 past it, never taken from another tenant', async () => {
    const [invB] = await invocationsOf(h, b);
    const [invA] = await invocationsOf(h, a);
    const stream = async (t: Tenant, path: string, extra: Record<string, string> = {}) => {
      const controller = new AbortController();
      const res = await fetch(`${h.baseUrl}${path}`, {
        headers: { Authorization: `Bearer ${t.token}`, Accept: 'text/event-stream', ...extra },
        signal: controller.signal,
      });
      open.push({ drop: () => controller.abort() });
      return res;
    };
    const events = (t: Tenant, id: string) => stream(t, `/v1/agents/${t.project}/invocations/${id}/events`);
    for (let i = 0; i < 3; i++) assert.equal((await events(b, invB!.id)).status, 200);
    const over = await events(b, invB!.id);
    assert.equal(over.status, 429);
    assert.equal(((await over.json()) as { code: string }).code, 'too_many_streams');
    assert.ok(over.headers.get('retry-after'));
    // An MCP session's GET stream is one more stream of the same caller.
    const getStream = await stream(b, `/v1/agents/${b.project}/mcp`, { 'Mcp-Session-Id': sessions.b1 });
    assert.equal(getStream.status, 429);
    // Tenant A's share is its own.
    assert.equal((await events(a, invA!.id)).status, 200);
    assert.equal((await stream(a, `/v1/agents/${a.project}/mcp`, { 'Mcp-Session-Id': sessions.a })).status, 200);
  });

  it('a session the server closes (shutdown) leaves its invocations running: they finish once a worker runs', async () => {
    const before = [...(await invocationsOf(h, a)), ...(await invocationsOf(h, b))];
    assert.equal(before.length, 4);
    await h.mcpSessions.closeAll();
    assert.equal((await listTools(h, a, sessions.a)).status, 404);
    assert.equal((await listTools(h, b, sessions.b1)).status, 404);
    for (const inv of await invocationsOf(h, a)) await assertNotCancelled(h, a, inv);
    for (const inv of await invocationsOf(h, b)) await assertNotCancelled(h, b, inv);
    await h.startWorker();
    for (const t of [a, b])
      await eventually(
        () => invocationsOf(h, t),
        (l) => l.every((i) => i.status === 'completed'),
        { what: `${t.project}'s invocations to complete`, timeoutMs: 30_000 },
      );
  });
});

describe('MCP: the idle sweep and the client’s own DELETE (MCP_SESSION_IDLE_SECONDS=2, MCP_SESSIONS_PER_CALLER=100)', () => {
  let h: Harness;
  let c: Tenant;
  const open: { drop(): void }[] = [];
  before(async () => {
    // A quota the probes below never reach: what closes sessions here is the sweep, not an eviction.
    h = await startHarness({ MCP_SESSION_IDLE_SECONDS: '2', MCP_SESSIONS_PER_CALLER: '100' });
    c = await makeTenant(h, 'gamma');
  });
  after(async () => {
    for (const x of open) x.drop();
    await h?.close();
  });

  it('sweeps idle sessions, one whose client went away mid-call too, without cancelling its invocation; a session with a call in flight stays', async () => {
    const idle = (await initialize(h, c)).sessionId;
    const gone = (await initialize(h, c)).sessionId;
    const busy = (await initialize(h, c)).sessionId;
    const dropped = await openCall(h, c, gone, 'gone-1');
    open.push(dropped, await openCall(h, c, busy, 'busy-1'));
    await untilInvocations(h, c, 2);
    dropped.drop();
    // The sweep runs as sessions are made: keep making them until the idle ones are gone (looked up in the pool:
    // a request on them would use them).
    await eventually(
      async () => {
        await initialize(h, c);
        return [idle, gone].filter((id) => h.mcpSessions.find(id, c.project, c.sub));
      },
      (left) => left.length === 0,
      { what: 'the idle sessions to be swept', intervalMs: 500 },
    );
    assert.equal((await listTools(h, c, idle)).status, 404);
    assert.equal((await listTools(h, c, gone)).status, 404);
    assert.equal((await listTools(h, c, busy)).status, 200);
    for (const inv of await invocationsOf(h, c)) await assertNotCancelled(h, c, inv);
  });

  it('a DELETE of its own session by the client cancels the invocations of its calls', async () => {
    const s = (await initialize(h, c)).sessionId;
    const known = (await invocationsOf(h, c)).length;
    open.push(await openCall(h, c, s, 'deleted-1'));
    const [inv] = await untilInvocations(h, c, known + 1);
    const res = await fetch(`${h.baseUrl}/v1/agents/${c.project}/mcp`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${c.token}`, 'Mcp-Session-Id': s },
    });
    assert.equal(res.status, 200);
    await eventually(
      () => h.request('GET', `/v1/agents/${c.project}/invocations/${inv!.id}`, { token: c.token }),
      (r) => r.body.status === 'cancelled',
      { what: 'the invocation of the deleted session to be cancelled' },
    );
  });
});

describe('MCP: Origin and Host (DNS rebinding), and JSON-RPC ids as idempotency keys', () => {
  let h: Harness;
  let d: Tenant;
  const open: { drop(): void }[] = [];
  before(async () => {
    h = await startHarness({ PUBLIC_BASE_URL: 'https://skills.example.test' });
    d = await makeTenant(h, 'delta');
  });
  after(async () => {
    for (const x of open) x.drop();
    await h?.close();
  });

  /** An initialize with the given Host and Origin (fetch would set Host itself). */
  function initializeAs(host: string, origin?: string): Promise<{ status: number; type: string; body: string }> {
    const url = new URL(`${h.baseUrl}/v1/agents/${d.project}/mcp`);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            Host: host,
            ...(origin ? { Origin: origin } : {}),
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            Authorization: `Bearer ${d.token}`,
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(initializeMessage));
    });
  }

  it('refuses a foreign Origin or Host with a 403 problem; the public URL’s and loopback pass', async () => {
    const loopback = new URL(h.baseUrl).host;
    for (const [host, origin, code] of [
      [loopback, 'https://attacker.example', 'forbidden_origin'],
      [loopback, 'null', 'forbidden_origin'],
      ['attacker.example', undefined, 'forbidden_host'],
      ['attacker.example:3000', 'https://skills.example.test', 'forbidden_host'],
    ] as const) {
      const res = await initializeAs(host, origin);
      assert.equal(res.status, 403, `${host} ${origin}: ${res.body}`);
      assert.equal(res.type, 'application/problem+json');
      assert.equal(JSON.parse(res.body).code, code);
    }
    assert.equal((await initializeAs('skills.example.test', 'https://skills.example.test')).status, 200);
    assert.equal((await initializeAs(loopback)).status, 200);
    assert.equal((await initializeAs(loopback, h.baseUrl)).status, 200);
  });

  it('any JSON-RPC id works, and two long ids that differ past character 255 are two invocations', async () => {
    const s = (await initialize(h, d)).sessionId;
    open.push(await openCall(h, d, s, 'call with spaces and non-ASCII: é, 日本'));
    await untilInvocations(h, d, 1);
    const long = 'x'.repeat(300);
    open.push(await openCall(h, d, s, `${long}-1`), await openCall(h, d, s, `${long}-2`));
    await untilInvocations(h, d, 3);
    // A number and the same digits as a string are different JSON-RPC ids.
    open.push(await openCall(h, d, s, 7), await openCall(h, d, s, '7'));
    await untilInvocations(h, d, 5);
  });
});

describe('A2A JSON-RPC: ids as JSON-RPC 2.0 says, messageIds hashed into idempotency keys', () => {
  let h: Harness;
  let e: Tenant;
  before(async () => {
    h = await startHarness();
    e = await makeTenant(h, 'epsilon');
  });
  after(async () => h?.close());

  const send = (messageId: string, id: unknown = 1, withId = true) =>
    h.request('POST', `/v1/agents/${e.project}/a2a`, {
      token: e.token,
      body: {
        jsonrpc: '2.0',
        ...(withId ? { id } : {}),
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId,
            role: 'user',
            parts: [{ kind: 'data', data: { skill: 'proposal_writer', inputs: { customerName: 'Tenant Foods', format: 'email' } } }],
          },
        },
      },
    });

  it('an id that is an object, an array or a boolean is -32600 with id null, and starts nothing', async () => {
    for (const id of [{}, { n: 1 }, [], [1], true, false]) {
      const res = await send(`m-${JSON.stringify(id)}`, id);
      assert.equal(res.status, 200);
      assert.deepEqual(
        { id: res.body.id, code: res.body.error?.code, result: res.body.result },
        { id: null, code: -32600, result: undefined },
      );
    }
    assert.equal((await invocationsOf(h, e)).length, 0);
    // A string, a number and null are ids, echoed back.
    for (const id of ['s-1', 2, null]) assert.equal((await send(`m-ok-${String(id)}`, id)).body.id, id);
    await untilInvocations(h, e, 3);
  });

  it('a request without an id is a notification: nothing is answered, and its task is started', async () => {
    const res = await send('m-notification', undefined, false);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    await untilInvocations(h, e, 4);
  });

  it('any messageId works; two long ones that differ past character 255 are two tasks, one sent again the same task', async () => {
    const spaced = await send('message with spaces and non-ASCII: é, 日本');
    assert.equal(spaced.body.result?.kind, 'task', spaced.text);
    const long = 'y'.repeat(300);
    const first = (await send(`${long}-1`)).body.result.id;
    const second = (await send(`${long}-2`)).body.result.id;
    assert.notEqual(first, second);
    assert.equal((await send(`${long}-1`)).body.result.id, first);
  });
});
