/**
 * The skills as an MCP server (Streamable HTTP), driven by the official SDK's client against the real stack:
 * tools with the skills' schemas, a call that drafts with progress notifications and citations, a cancelled
 * call that cancels the workflow, and the API's token and project rules.
 */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SKILLS } from '../../src/skills/catalog';
import { TOTAL_STEPS } from '../../src/skills/invocation-status';
import { RETAIL } from '../unit/skills/cases';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { mintToken } from '../../src/auth/mint-token';
import { TEST_JWT_SECRET } from '../support/config';
import { projectToken } from '../support/tokens';
import { PROJECT, loadDemo } from './skills-helpers';

describe('skills over MCP (official SDK client, real Temporal, real store)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  const clients: Client[] = [];
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await h?.close();
  });

  async function connect(token = member, project = PROJECT): Promise<Client> {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/v1/agents/${project}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it('lists one tool per skill with the skill input schema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      SKILLS.map((s) => s.name),
    );
    for (const s of SKILLS) assert.deepEqual(tools.find((t) => t.name === s.name)!.inputSchema, s.inputSchema);
  });

  it('a call is a durable invocation: progress notifications, the Markdown, and citations as structured content', async () => {
    const worker = await h.startWorker();
    const client = await connect();
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool(
      { name: 'release_notes_composer', arguments: { fromVersion: '1.2.1', toVersion: '2.0.0' } },
      undefined,
      { onprogress: (p) => void progress.push(p) },
    );
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const text = (result.content as { type: string; text: string }[])[0]!;
    assert.equal(text.type, 'text');
    assert.match(text.text, /^# /);
    const structured = result.structuredContent as { invocationId: string; status: string; citations: { id: string }[] };
    assert.equal(structured.status, 'completed');
    assert.ok(structured.citations.length > 0);
    assert.ok(progress.length >= 1, 'at least one progress notification');
    assert.equal(progress.at(-1)!.message, 'completed');
    // The same invocation the HTTP API shows.
    const inv = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${structured.invocationId}`, { token: member });
    assert.equal(inv.body.result.markdown, text.text);
    await worker.shutdown();
  });

  it('a cancelled call cancels the workflow', async () => {
    // No worker runs: the invocation stays queued until the client gives up on the call.
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'incident_rca', arguments: { incidentId: 'INC-2025-014', severity: 'SEV-1' } }, undefined, {
      signal: controller.signal,
      onprogress: () => undefined,
    });
    const queued = await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations?skill=incident_rca&status=queued`, { token: member }),
      (r) => r.body.invocations.length === 1,
      { what: 'the call to start an invocation' },
    );
    controller.abort();
    await assert.rejects(call);
    const id = queued.body.invocations[0].id as string;
    await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${id}`, { token: member }),
      (r) => r.body.status === 'cancelled',
      { what: 'the invocation to be cancelled' },
    );
  });

  it('progress values increase with every notification, also from queued to retrieving (both 0 steps done)', async () => {
    // No worker runs: the test moves the record through its first states as the workflow's activities would.
    const client = await connect();
    const controller = new AbortController();
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const call = client.callTool({ name: 'proposal_writer', arguments: { ...RETAIL, format: 'email' } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => void progress.push(p),
    });
    const notified = (n: number, what: string) =>
      eventually(
        async () => progress.length,
        (length) => length >= n,
        { what },
      );
    await notified(1, 'the queued notification');
    const queued = await h.request('GET', `/v1/agents/${PROJECT}/invocations?skill=proposal_writer&status=queued`, { token: member });
    const id = queued.body.invocations[0].id as string;
    const step = (seq: number, status: 'retrieving' | 'drafting', completedSteps: number) =>
      h.repos.invocations.advance(id, seq, { status, progress: { step: status, completedSteps, totalSteps: TOTAL_STEPS } }, new Date());
    assert.ok(await step(1, 'retrieving', 0));
    await notified(2, 'the retrieving notification');
    assert.ok(await step(2, 'drafting', 1));
    await notified(3, 'the drafting notification');
    controller.abort();
    await assert.rejects(call);
    assert.deepEqual(
      progress.map((p) => p.message),
      ['queued', 'retrieving', 'drafting'],
    );
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.progress > progress[i - 1]!.progress, JSON.stringify(progress));
    for (const p of progress) assert.ok(p.progress <= p.total!, JSON.stringify(p));
  });

  it('bad arguments are a tool error; an unknown tool is a protocol error', async () => {
    const client = await connect();
    const bad = await client.callTool({ name: 'release_notes_composer', arguments: { fromVersion: 7 } });
    assert.equal(bad.isError, true);
    assert.match((bad.content as { text: string }[])[0]!.text, /input schema/);
    await assert.rejects(client.callTool({ name: 'no_such_skill', arguments: {} }), /no_such_skill/);
  });

  it('the API token and project rules hold: 401 without a token, 403 for another project, a session only for its caller', async () => {
    const anonymous = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(anonymous.status, 401);
    await assert.rejects(connect(projectToken(['elsewhere'])), /403|Forbidden/i);
    const client = await connect();
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const someoneElse = mintToken(TEST_JWT_SECRET, { sub: 'someone-else', projects: [PROJECT] }, { expiresInSeconds: 600 });
    const res = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${someoneElse}`,
        'Mcp-Session-Id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
  });
});
