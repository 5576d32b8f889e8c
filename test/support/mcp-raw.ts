/**
 * MCP over Streamable HTTP spoken by hand (fetch), for tests that need what the SDK client hides: many sessions,
 * chosen JSON-RPC ids, a call left open, no GET stream of its own.
 */
import assert from 'node:assert/strict';
import { mintToken } from '../../src/auth/mint-token';
import { ProjectRepository } from '../../src/store/projects';
import { TEST_JWT_SECRET } from './config';
import { eventually } from './eventually';
import type { Harness } from './harness';

export interface Tenant {
  sub: string;
  project: string;
  token: string;
}

/** A tenant of its own: a project in an org of its own, and a token for just that project. */
export async function makeTenant(h: Harness, name: string): Promise<Tenant> {
  const repo = new ProjectRepository(h.db);
  await repo.upsertOrg(`org-${name}`, { name, ownerEmail: `ops@${name}.test` }, new Date());
  await repo.upsertProject(`proj-${name}`, { name, org: `org-${name}` }, new Date());
  return {
    sub: `sub-${name}`,
    project: `proj-${name}`,
    token: mintToken(TEST_JWT_SECRET, { sub: `sub-${name}`, projects: [`proj-${name}`] }, { expiresInSeconds: 3600 }),
  };
}

/** A proposal needs nothing of the project's data, so any project can run one. */
export const PROPOSAL = { customerName: 'Tenant Foods', format: 'email' };

const mcpPath = (t: Tenant) => `/v1/agents/${t.project}/mcp`;

function headers(t: Tenant, sessionId?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${t.token}`,
    ...(sessionId ? { 'Mcp-Session-Id': sessionId } : {}),
  };
}

export const initializeMessage = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tenant-test', version: '1.0.0' } },
};

/** One POST whose answer is read to its end. */
export async function mcpPost(h: Harness, t: Tenant, message: unknown, sessionId?: string) {
  const res = await fetch(`${h.baseUrl}${mcpPath(t)}`, { method: 'POST', headers: headers(t, sessionId), body: JSON.stringify(message) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A new session: its id, or the refusal's status and body. */
export async function initialize(h: Harness, t: Tenant): Promise<{ status: number; sessionId: string; text: string }> {
  const res = await mcpPost(h, t, initializeMessage);
  return { status: res.status, sessionId: res.headers.get('mcp-session-id') ?? '', text: res.text };
}

export const listTools = (h: Harness, t: Tenant, sessionId: string) =>
  mcpPost(h, t, { jsonrpc: '2.0', id: 'list', method: 'tools/list' }, sessionId);

/**
 * A tools/call left open (with no worker its invocation stays queued, and the answer with it); `drop()` closes
 * the connection, as a client that goes away does (no notifications/cancelled).
 */
export async function openCall(
  h: Harness,
  t: Tenant,
  sessionId: string,
  id: string | number,
  args: Record<string, unknown> = PROPOSAL,
): Promise<{ status: number; drop(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${h.baseUrl}${mcpPath(t)}`, {
    method: 'POST',
    headers: headers(t, sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'proposal_writer', arguments: args } }),
    signal: controller.signal,
  });
  // Headers arrive as the event stream opens; the body is drained in the background until the call ends.
  const reader = res.body?.getReader();
  void (async () => {
    try {
      while (reader && !(await reader.read()).done);
    } catch {
      // dropped
    }
  })();
  return { status: res.status, drop: () => controller.abort() };
}

/** The tenant's invocations, newest first. */
export async function invocationsOf(h: Harness, t: Tenant): Promise<{ id: string; status: string; workflowId: string }[]> {
  const res = await h.request('GET', `/v1/agents/${t.project}/invocations?limit=100`, { token: t.token });
  assert.equal(res.status, 200, res.text);
  return res.body.invocations;
}

/** Waits until the tenant has `n` invocations; returns them. */
export const untilInvocations = (h: Harness, t: Tenant, n: number) =>
  eventually(
    () => invocationsOf(h, t),
    (l) => l.length === n,
    { what: `${n} invocations of ${t.project}` },
  );

/** The invocation is still queued and nobody asked Temporal to cancel its workflow. */
export async function assertNotCancelled(h: Harness, t: Tenant, invocation: { id: string; workflowId: string }): Promise<void> {
  const res = await h.request('GET', `/v1/agents/${t.project}/invocations/${invocation.id}`, { token: t.token });
  assert.equal(res.body.status, 'queued', `${invocation.id} is ${res.body.status}`);
  const history = await h.temporal.client.workflow.getHandle(invocation.workflowId).fetchHistory();
  assert.ok(
    !history.events?.some((e) => e.workflowExecutionCancelRequestedEventAttributes),
    `nothing asked Temporal to cancel ${invocation.workflowId}`,
  );
}
