import assert from 'node:assert/strict';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpSessionPool } from '../../../../../src/api/agents/mcp/session-pool';
import { HttpProblem } from '../../../../../src/api/http/problem';

function fakeTransport(closed: string[], id: string): StreamableHTTPServerTransport {
  return { close: async () => void closed.push(id) } as unknown as StreamableHTTPServerTransport;
}

const status = (fn: () => unknown) => {
  try {
    fn();
    return 0;
  } catch (err) {
    assert.ok(err instanceof HttpProblem);
    return err.status;
  }
};

describe('McpSessionPool: a quota per caller, a bound per process', () => {
  it("makes room from the caller's own idle sessions (least recently used first), never from another caller's", () => {
    let now = 0;
    const closed: string[] = [];
    const pool = new McpSessionPool({ perCaller: 2, max: 100, idleMs: 60_000 }, () => now);
    const open = (id: string, caller: string) => pool.admit(id, fakeTransport(closed, id), 'p', caller);
    const a1 = open('a1', 'a');
    pool.begin(a1, true); // a call in flight
    open('b1', 'b');
    now = 1;
    open('b2', 'b');
    now = 2;
    open('b3', 'b'); // b at its quota: b1, its least recently used idle session, goes
    assert.deepEqual(closed, ['b1']);
    assert.ok(pool.find('a1', 'p', 'a') && !pool.find('b1', 'p', 'b') && pool.find('b3', 'p', 'b'));
    assert.equal(pool.find('a1', 'p', 'b'), undefined, 'a session answers only its own caller');
    assert.equal(pool.find('a1', 'other', 'a'), undefined, '…on its own project');
  });

  it('answers 429 when every session of the caller is busy, 503 when the process is full of others', () => {
    const closed: string[] = [];
    const pool = new McpSessionPool({ perCaller: 2, max: 3, idleMs: 60_000 }, () => 0);
    for (const id of ['a1', 'a2']) pool.begin(pool.admit(id, fakeTransport(closed, id), 'p', 'a'), true);
    assert.equal(
      status(() => pool.admit('a3', fakeTransport(closed, 'a3'), 'p', 'a')),
      429,
    );
    pool.begin(pool.admit('b1', fakeTransport(closed, 'b1'), 'p', 'b'), true);
    assert.equal(
      status(() => pool.admit('c1', fakeTransport(closed, 'c1'), 'p', 'c')),
      503,
    );
    assert.deepEqual(closed, []);
    assert.equal(pool.size, 3);
  });

  it('sweeps idle sessions, never one with a request in flight, and marks what the server closed', async () => {
    let now = 0;
    const closed: string[] = [];
    const pool = new McpSessionPool({ perCaller: 10, max: 100, idleMs: 1_000 }, () => now);
    const idle = pool.admit('idle', fakeTransport(closed, 'idle'), 'p', 'a');
    const busy = pool.admit('busy', fakeTransport(closed, 'busy'), 'p', 'a');
    pool.begin(busy, true);
    const done = pool.admit('done', fakeTransport(closed, 'done'), 'p', 'a');
    pool.begin(done, true);
    pool.end(done, true);
    now = 1_001;
    pool.admit('new', fakeTransport(closed, 'new'), 'p', 'a');
    assert.deepEqual(closed, ['idle', 'done']);
    assert.deepEqual([idle.closedByServer, busy.closedByServer, done.closedByServer], [true, false, true]);
    await pool.closeAll();
    assert.deepEqual(closed.sort(), ['busy', 'done', 'idle', 'new']);
    assert.ok(busy.closedByServer);
    assert.equal(pool.size, 0);
  });
});
