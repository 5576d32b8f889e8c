/**
 * The skills as an A2A agent (v0.3 JSON-RPC), driven by the official A2A JavaScript SDK's client (@a2a-js/sdk,
 * its v0.3 compatibility layer) against the real stack: the card it resolves, a task sent and awaited, a stream
 * to the document, get and cancel, and the API's token and project rules.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type * as A2aClient from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import { SKILLS } from '../../src/skills/catalog';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { PROJECT, loadDemo } from './skills-helpers';

// The SDK is published as ES modules with a CommonJS build: loaded with require, typed from its ES declarations.
const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@a2a-js/sdk/client') as typeof A2aClient;
type Client = A2aClient.Client;

/** TaskState of the SDK's v1.0 model (an enum of numbers). */
const STATE = { submitted: 1, working: 2, completed: 3, failed: 4, canceled: 5 } as const;

describe('skills over A2A (official SDK client, real Temporal, real store)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  const withToken =
    (token: string): typeof fetch =>
    (input, init) =>
      fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), Authorization: `Bearer ${token}` } });

  before(async () => {
    h = await startHarness({ PUBLIC_BASE_URL: 'http://placeholder.invalid' });
    await loadDemo(h);
  });
  after(async () => h?.close());

  async function client(token = member): Promise<Client> {
    const fetchImpl = withToken(token);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }),
      }),
    );
    const card = await new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }).resolve(
      `${h.baseUrl}/v1/agents/${PROJECT}/.well-known/agent-card.json`,
      '',
    );
    // The card names the public URL; in this test the API listens on loopback.
    for (const i of card.supportedInterfaces) i.url = i.url.replace('http://placeholder.invalid', h.baseUrl);
    return factory.createFromAgentCard(card);
  }

  const message = (skill: string, inputs: Record<string, unknown>, returnImmediately = false) => ({
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: 1,
      parts: [
        { content: { $case: 'data' as const, value: { skill, inputs } }, metadata: undefined, filename: '', mediaType: 'application/json' },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: undefined,
  });

  it('serves an agent card the SDK accepts, one A2A skill per skill', async () => {
    const res = await h.request('GET', `/v1/agents/${PROJECT}/.well-known/agent-card.json`, { token: member });
    assert.equal(res.status, 200);
    assert.equal(res.body.protocolVersion, '0.3.0');
    assert.deepEqual(
      res.body.skills.map((s: { id: string }) => s.id),
      SKILLS.map((s) => s.name),
    );
    const card = await new DefaultAgentCardResolver({ fetchImpl: withToken(member), legacyCompat: { enabled: true } }).resolve(
      `${h.baseUrl}/v1/agents/${PROJECT}/.well-known/agent-card.json`,
      '',
    );
    assert.deepEqual(
      card.skills.map((s) => s.id),
      SKILLS.map((s) => s.name),
    );
    assert.ok(card.supportedInterfaces.length >= 1);
  });

  it('a task is an invocation: sent, followed as a stream to its document, read back with tasks/get', async () => {
    const worker = await h.startWorker();
    const a2a = await client();
    const updates: string[] = [];
    let taskId = '';
    let document = '';
    for await (const event of a2a.sendMessageStream(message('release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' }))) {
      const payload = event.payload;
      if (!payload) continue;
      updates.push(payload.$case);
      if (payload.$case === 'task') taskId = payload.value.id;
      if (payload.$case === 'artifactUpdate') {
        const text = payload.value.artifact?.parts.find((p) => p.content?.$case === 'text');
        if (text?.content?.$case === 'text') document = text.content.value;
      }
    }
    assert.equal(updates[0], 'task');
    assert.match(document, /^# /);
    const task = await a2a.getTask({ tenant: '', id: taskId, historyLength: undefined });
    assert.equal(task.status?.state, STATE.completed);
    const inv = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${taskId}`, { token: member });
    assert.equal(inv.body.result.markdown, document, 'the same invocation the HTTP API shows');
    await worker.shutdown();
  });

  it('message/send answers with the task at once; tasks/cancel cancels its workflow', async () => {
    const a2a = await client();
    const sent = await a2a.sendMessage(message('incident_rca', { incidentId: 'INC-2025-014', severity: 'SEV-1' }, true));
    assert.ok('id' in sent && 'status' in sent, JSON.stringify(sent));
    const task = sent as { id: string; status?: { state: number } };
    assert.equal(task.status?.state, STATE.submitted, 'no worker runs: the task waits');
    const cancelled = await a2a.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    assert.equal(cancelled.status?.state, STATE.canceled);
    await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${task.id}`, { token: member }),
      (r) => r.body.status === 'cancelled',
      { what: 'the invocation cancelled' },
    );
    await assert.rejects(a2a.cancelTask({ tenant: '', id: task.id, metadata: undefined }), /cancel/i);
    await assert.rejects(a2a.getTask({ tenant: '', id: 'inv_01M82RANSA3FRAD36WHFZAZZD8', historyLength: undefined }), /not found|found/i);
  });

  it('JSON-RPC errors for bad requests; 401 without a token and 403 for another project, as problem+json', async () => {
    const rpc = (body: unknown) => h.request('POST', `/v1/agents/${PROJECT}/a2a`, { token: member, body });
    assert.equal((await rpc({ jsonrpc: '2.0', id: 1, method: 'nope' })).body.error.code, -32601);
    assert.equal(
      (
        await rpc({
          jsonrpc: '2.0',
          id: 2,
          method: 'message/send',
          params: { message: { messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
        })
      ).body.error.code,
      -32602,
    );
    assert.equal(
      (
        await rpc({
          jsonrpc: '2.0',
          id: 3,
          method: 'message/send',
          params: {
            message: {
              messageId: 'm2',
              role: 'user',
              parts: [{ kind: 'data', data: { skill: 'release_notes_composer', inputs: { fromVersion: 7 } } }],
            },
          },
        })
      ).body.error.code,
      -32602,
    );
    assert.equal((await rpc({ id: 4 })).body.error.code, -32600);
    const raw = await h.request('POST', `/v1/agents/${PROJECT}/a2a`, {
      token: member,
      raw: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(raw.body.error.code, -32700);
    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/.well-known/agent-card.json`)).status, 401);
    const other = await h.request('POST', `/v1/agents/${PROJECT}/a2a`, {
      token: projectToken(['elsewhere']),
      body: { jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { id: 'x' } },
    });
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('content-type'), 'application/problem+json');
  });
});
