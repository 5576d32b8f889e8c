import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HttpProblem } from '../../http/problem';

export interface SessionLimits {
  /** Sessions one caller (a token's `sub`) may hold at once. */
  perCaller: number;
  /** Sessions this process holds at once, every caller together. */
  max: number;
  /** A session with no request for this long (and none in flight) is closed; its client initializes again. */
  idleMs: number;
}

export interface McpSession {
  readonly id: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly project: string;
  readonly caller: string;
  lastUsed: number;
  /** POST requests being answered (tool calls wait for their invocation): such a session is never evicted or swept. */
  inFlight: number;
  /** Set before the server closes the session (eviction, idle sweep, shutdown), so its calls know not to cancel. */
  closedByServer: boolean;
}

/**
 * The MCP sessions of one API process. Each caller has a quota: a caller at it who initializes another session
 * closes its own least recently used idle one, or gets 429 when all of its sessions are busy; the process is
 * bounded too (503 past it). Nothing one caller does closes, evicts or cancels another caller's session. A
 * session the server closes leaves its invocations running: only the client cancels (`notifications/cancelled`,
 * or DELETE of its session).
 */
export class McpSessionPool {
  private readonly sessions = new Map<string, McpSession>();
  private readonly byCaller = new Map<string, Set<McpSession>>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The session `id`, if it is bound to this project and caller. */
  find(id: string, project: string, caller: string): McpSession | undefined {
    const s = this.sessions.get(id);
    return s && s.project === project && s.caller === caller ? s : undefined;
  }

  /**
   * Makes room for a new session of `caller` (sweeping idle sessions, then closing the caller's own least recently
   * used idle one if at its quota) and holds it under `id` until `remove(id)`. Throws 429 when the caller's
   * sessions are all busy, 503 when the process is full of other callers' sessions.
   */
  admit(id: string, transport: StreamableHTTPServerTransport, project: string, caller: string): McpSession {
    const now = this.clock();
    this.sweep(now);
    const own = this.byCaller.get(caller) ?? new Set<McpSession>();
    if (own.size >= this.limits.perCaller || this.sessions.size >= this.limits.max) {
      const idle = [...own].filter((s) => s.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (idle) void this.close(idle);
      else if (own.size >= this.limits.perCaller)
        throw new HttpProblem(
          429,
          'too_many_mcp_sessions',
          `You hold ${own.size} MCP sessions, each with a request in flight: the most one caller may. Reuse one, or end one with DELETE`,
          { headers: { 'Retry-After': '5' } },
        );
      else
        throw new HttpProblem(503, 'mcp_sessions_exhausted', 'This server holds as many MCP sessions as it can; retry shortly', {
          headers: { 'Retry-After': '5' },
        });
    }
    const session: McpSession = { id, transport, project, caller, lastUsed: now, inFlight: 0, closedByServer: false };
    this.sessions.set(id, session);
    this.byCaller.set(caller, own.add(session));
    return session;
  }

  /** A request on the session starts; `post`: it may wait (a tool call), so the session counts as busy. */
  begin(session: McpSession, post: boolean): void {
    session.lastUsed = this.clock();
    if (post) session.inFlight += 1;
  }

  /** …and its answer has ended (or the client went away). */
  end(session: McpSession, post: boolean): void {
    session.lastUsed = this.clock();
    if (post) session.inFlight -= 1;
  }

  /** Forgets a closed session (its transport's onclose, or an initialize that never made it). */
  remove(id: string): void {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    const own = this.byCaller.get(s.caller);
    own?.delete(s);
    if (own?.size === 0) this.byCaller.delete(s.caller);
  }

  /** Shutdown: every session closed by the server (their invocations go on). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.close(s)));
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(now: number): void {
    for (const s of this.sessions.values()) if (s.inFlight === 0 && now - s.lastUsed > this.limits.idleMs) void this.close(s);
  }

  private async close(s: McpSession): Promise<void> {
    s.closedByServer = true;
    this.remove(s.id);
    await s.transport.close();
  }
}
