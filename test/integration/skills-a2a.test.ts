/**
 * The skills as an A2A agent, protocol 1.0 and 0.3 (JSON-RPC binding), against the real stack: driven by the
 * official A2A JavaScript SDK's client (@a2a-js/sdk: its 1.0 client, and its 0.3 transport for old servers) and
 * the official Python SDK (a2a-sdk 1.x, and 0.3 as an old client has it; test/support/a2a-python/), and by raw
 * requests checked against the specification's own examples (A2A 1.0 §4, §5.4, §9; 0.3 for requests without
 * A2A-Version): the host's public card without a token, a project's card and endpoint, the extended card, tasks
 * sent, streamed, read and cancelled, text that holds a call and text that does not, and version negotiation.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
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
type AgentCard = Awaited<ReturnType<Client['getAgentCard']>>;

/** TaskState of the SDK's 1.0 model (an enum of numbers, as in a2a.proto). */
const STATE = { submitted: 1, working: 2, completed: 3, failed: 4, canceled: 5 } as const;
const PUBLIC = 'http://placeholder.invalid';
const RELEASE_NOTES = { skill: 'release_notes_composer', inputs: { fromVersion: '1.2.1', toVersion: '2.0.0' } };

describe('skills over A2A 1.0 and 0.3 (official SDK clients, real Temporal, real store)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  /** Every JSON-RPC call the JavaScript SDK makes, as [A2A-Version header, method]: what it spoke on the wire. */
  const calls: [string, string][] = [];
  const withToken =
    (token: string | undefined): typeof fetch =>
    (input, init) => {
      if (init?.method === 'POST' && typeof init.body === 'string')
        calls.push([new Headers(init.headers).get('A2A-Version') ?? '', (JSON.parse(init.body) as { method: string }).method]);
      return fetch(input, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
    };

  before(async () => {
    h = await startHarness({ PUBLIC_BASE_URL: PUBLIC });
    await loadDemo(h);
  });
  after(async () => h?.close());

  /** A card as the SDK's resolver reads it, its URLs moved from the public base URL to where this test's API listens. */
  async function resolve(cardPath: string, token?: string, legacyCompat = false): Promise<AgentCard> {
    const resolver = new DefaultAgentCardResolver({ fetchImpl: withToken(token), legacyCompat: { enabled: legacyCompat } });
    const card = await resolver.resolve(`${h.baseUrl}${cardPath}`, '');
    for (const i of card.supportedInterfaces) i.url = i.url.replace(PUBLIC, h.baseUrl);
    return card;
  }

  /** The SDK's client for a card; with `legacy`, its 0.3 transport (what it uses for an agent that speaks only 0.3). */
  async function client(card: AgentCard, token = member, legacy = false): Promise<Client> {
    const fetchImpl = withToken(token);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: legacy } })],
      }),
    );
    if (!legacy) return factory.createFromAgentCard(card);
    return factory.createFromAgentCard({
      ...card,
      supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3'),
    });
  }

  const part = (p: { text: string } | { data: Record<string, unknown> }) => ({
    content: 'text' in p ? { $case: 'text' as const, value: p.text } : { $case: 'data' as const, value: p.data },
    metadata: undefined,
    filename: '',
    mediaType: 'text' in p ? 'text/plain' : 'application/json',
  });
  const message = (p: { text: string } | { data: Record<string, unknown> }, returnImmediately = false, tenant = '') => ({
    tenant,
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: 1,
      parts: [part(p)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: undefined,
  });

  /** Streams a send to its end: the kinds of events in order, the task id and the document's text. */
  async function streamToEnd(a2a: Client, request: ReturnType<typeof message>) {
    const events: string[] = [];
    let taskId = '';
    let document = '';
    let state = 0;
    for await (const event of a2a.sendMessageStream(request)) {
      const payload = event.payload;
      if (!payload) continue;
      events.push(payload.$case);
      if (payload.$case === 'task') taskId = payload.value.id;
      if (payload.$case === 'statusUpdate') state = payload.value.status?.state ?? 0;
      if (payload.$case === 'artifactUpdate') {
        const text = payload.value.artifact?.parts.find((p) => p.content?.$case === 'text');
        if (text?.content?.$case === 'text') document = text.content.value;
      }
    }
    return { events, taskId, document, state };
  }

  const rpc = (url: string, body: unknown, headers: Record<string, string> = {}, token = member) =>
    h.request('POST', url, { token, body: { jsonrpc: '2.0', ...(body as object) }, headers });
  const V1 = { 'A2A-Version': '1.0' };

  it("the host's public card needs no token and holds no tenant's data: 1.0 when asked, else 0.3 with the 1.0 interfaces", async () => {
    const v1 = await h.request('GET', '/.well-known/agent-card.json', { headers: V1 });
    assert.equal(v1.status, 200);
    // A2A 1.0 §8.5's sample card: supportedInterfaces with protocolBinding and protocolVersion; no top-level url or protocolVersion.
    assert.deepEqual(v1.body.supportedInterfaces, [
      { url: `${PUBLIC}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${PUBLIC}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    assert.equal(v1.body.url, undefined);
    assert.equal(v1.body.protocolVersion, undefined);
    assert.deepEqual(v1.body.capabilities, { streaming: true, pushNotifications: false, extendedAgentCard: true });
    assert.equal(v1.body.securitySchemes.bearer.httpAuthSecurityScheme.scheme, 'bearer');
    assert.deepEqual(v1.body.securityRequirements, [{ schemes: { bearer: { list: [] } } }]);
    assert.deepEqual(
      v1.body.skills.map((s: { id: string }) => s.id),
      SKILLS.map((s) => s.name),
    );
    assert.match(v1.headers.get('vary') ?? '', /A2A-Version/i);
    const v03 = await h.request('GET', '/.well-known/agent-card.json');
    assert.equal(v03.status, 200);
    assert.equal(v03.body.protocolVersion, '0.3.0');
    assert.equal(v03.body.url, `${PUBLIC}/a2a`);
    assert.equal(v03.body.supportsAuthenticatedExtendedCard, true);
    assert.deepEqual(v03.body.supportedInterfaces, v1.body.supportedInterfaces);
    for (const body of [v1.body, v03.body]) assert.doesNotMatch(JSON.stringify(body), /acme/i, 'no project named in the public card');
    // The project's own card stays behind the token (its name and description are the project's).
    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/.well-known/agent-card.json`)).status, 401);
  });

  it("1.0 SDK client from the public card: a text part holding the call streams to the document; GetTask; the extended card is the project's", async () => {
    const worker = await h.startWorker();
    const card = await resolve('/.well-known/agent-card.json');
    assert.doesNotMatch(card.name, /acme/i);
    const a2a = await client(card);
    assert.equal(a2a.protocolVersion, '1.0');
    calls.length = 0;
    const run = await streamToEnd(a2a, message({ text: JSON.stringify(RELEASE_NOTES) }));
    assert.equal(run.events[0], 'task');
    assert.equal(run.events.at(-1), 'statusUpdate');
    assert.equal(run.state, STATE.completed);
    assert.match(run.document, /^# /);
    const task = await a2a.getTask({ tenant: '', id: run.taskId, historyLength: undefined });
    assert.equal(task.status?.state, STATE.completed);
    const inv = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${run.taskId}`, { token: member });
    assert.equal(inv.body.result.markdown, run.document, 'the same invocation the HTTP API shows');
    const extended = await a2a.getAgentCard();
    assert.match(extended.name, /project assistant/);
    assert.ok(extended.description.includes(PROJECT), 'the extended card is the project’s');
    assert.equal(extended.supportedInterfaces[0]!.url, `${PUBLIC}/v1/agents/${PROJECT}/a2a`);
    assert.deepEqual(calls, [
      ['1.0', 'SendStreamingMessage'],
      ['1.0', 'GetTask'],
      ['1.0', 'GetExtendedAgentCard'],
    ]);
    await worker.shutdown();
  });

  it("1.0 SDK client on the project's endpoint: SendMessage returns at once when asked; CancelTask; the specification's errors", async () => {
    const card = await resolve(`/v1/agents/${PROJECT}/.well-known/agent-card.json`, member);
    const a2a = await client(card);
    assert.equal(a2a.protocolVersion, '1.0');
    const sent = await a2a.sendMessage(
      message({ data: { skill: 'incident_rca', inputs: { incidentId: 'INC-2025-014', severity: 'SEV-1' } } }, true),
    );
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
    await assert.rejects(
      a2a.cancelTask({ tenant: '', id: task.id, metadata: undefined }),
      (e: Error) => e.name === 'TaskNotCancelableError',
    );
    await assert.rejects(
      a2a.getTask({ tenant: '', id: 'inv_01M82RANSA3FRAD36WHFZAZZD8', historyLength: undefined }),
      (e: Error) => e.name === 'TaskNotFoundError',
    );
  });

  it("0.3 clients (the SDK's 0.3 transport, chosen by the card's 0.3 interface): a task streamed to its document, read, and one cancelled", async () => {
    const worker = await h.startWorker();
    const card = await resolve(`/v1/agents/${PROJECT}/.well-known/agent-card.json`, member, true);
    const a2a = await client(card, member, true);
    assert.equal(a2a.protocolVersion, '0.3');
    calls.length = 0;
    const run = await streamToEnd(a2a, message({ data: RELEASE_NOTES }));
    assert.equal(run.events[0], 'task');
    assert.match(run.document, /^# /);
    assert.equal((await a2a.getTask({ tenant: '', id: run.taskId, historyLength: undefined })).status?.state, STATE.completed);
    await worker.shutdown();
    const sent = (await a2a.sendMessage(
      message({ data: { skill: 'incident_rca', inputs: { incidentId: 'INC-2025-014', severity: 'SEV-1' } } }, true),
    )) as {
      id: string;
    };
    assert.equal((await a2a.cancelTask({ tenant: '', id: sent.id, metadata: undefined })).status?.state, STATE.canceled);
    assert.deepEqual(
      calls.map(([, method]) => method),
      ['message/stream', 'tasks/get', 'message/send', 'tasks/cancel'],
    );
    for (const [version] of calls) assert.notEqual(version, '1.0');
  });

  it('text that is not a call: a failed task naming every skill and its input schema, in either version', async () => {
    const url = `/v1/agents/${PROJECT}/a2a`;
    const v1 = await rpc(
      url,
      {
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Write our release notes' }] } },
      },
      V1,
    );
    const failed = v1.body.result.task;
    assert.equal(failed.status.state, 'TASK_STATE_FAILED');
    assert.equal(failed.status.message.role, 'ROLE_AGENT');
    const v03 = await rpc(url, {
      id: 2,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hello' }] } },
    });
    assert.equal(v03.body.result.kind, 'task');
    assert.equal(v03.body.result.status.state, 'failed');
    for (const text of [failed.status.message.parts[0].text, v03.body.result.status.message.parts[0].text])
      for (const skill of SKILLS) assert.ok(text.includes(`${skill.name} (${skill.title}): ${JSON.stringify(skill.inputSchema)}`), text);
    // The 1.0 stream of such a message: the failed task, and the end.
    const streamed = await h.request('POST', url, {
      token: member,
      headers: V1,
      body: {
        jsonrpc: '2.0',
        id: 3,
        method: 'SendStreamingMessage',
        params: { message: { messageId: 'm-text', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      },
    });
    assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = streamed.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
    assert.equal(events.length, 1);
    assert.equal(events[0].result.task.status.state, 'TASK_STATE_FAILED');
  });

  it('version negotiation, the two methods sets, errors per version; 401 and 403 as problem+json', async () => {
    const url = `/v1/agents/${PROJECT}/a2a`;
    // A2A 1.0 §3.6.2 and §5.4: an unsupported version is VersionNotSupportedError, -32009, with ErrorInfo (§9.5).
    const unsupported = await rpc(url, { id: 1, method: 'GetTask', params: { id: 'x' } }, { 'A2A-Version': '2.0' });
    assert.equal(unsupported.body.error.code, -32009);
    assert.deepEqual(unsupported.body.error.data, [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' },
    ]);
    // No header is 0.3, where SendMessage is no method; the answer says which header to send.
    const unnamed = await rpc(url, { id: 2, method: 'SendMessage', params: {} });
    assert.equal(unnamed.body.error.code, -32601);
    assert.match(unnamed.body.error.message, /A2A-Version: 1\.0/);
    assert.equal((await rpc(url, { id: 3, method: 'message/send', params: {} }, V1)).body.error.code, -32601);
    const notFound = await rpc(url, { id: 4, method: 'GetTask', params: { id: 'nope' } }, V1);
    assert.equal(notFound.body.error.code, -32001);
    assert.equal(notFound.body.error.data[0].reason, 'TASK_NOT_FOUND');
    const notFound03 = await rpc(url, { id: 5, method: 'tasks/get', params: { id: 'nope' } });
    assert.equal(notFound03.body.error.code, -32001);
    assert.equal(notFound03.body.error.data, undefined);
    assert.equal((await rpc(url, { id: 6, method: 'ListTasks', params: {} }, V1)).body.error.code, -32004);
    assert.equal((await rpc(url, { id: 7, method: 'CreateTaskPushNotificationConfig', params: {} }, V1)).body.error.code, -32003);
    const badInputs = await rpc(
      url,
      {
        id: 8,
        method: 'SendMessage',
        params: {
          message: {
            messageId: 'b',
            role: 'ROLE_USER',
            parts: [{ data: { skill: 'release_notes_composer', inputs: { fromVersion: 7 } } }],
          },
        },
      },
      V1,
    );
    assert.equal(badInputs.body.error.code, -32602);
    assert.equal((await rpc(url, { id: 9, method: 'nope' })).body.error.code, -32601);
    assert.equal((await h.request('POST', url, { token: member, body: { id: 4 } })).body.error.code, -32600);
    const raw = await h.request('POST', url, { token: member, raw: '{', headers: { 'Content-Type': 'application/json' } });
    assert.equal(raw.body.error.code, -32700);
    // The host's endpoint: the project is the token's only one, or the request's tenant.
    const twoProjects = projectToken([PROJECT, 'elsewhere']);
    const mismatch = await rpc(url, { id: 15, method: 'GetTask', params: { id: 'x', tenant: 'elsewhere' } }, V1);
    assert.equal(mismatch.body.error.code, -32602);
    const unnamedProject = await rpc('/a2a', { id: 10, method: 'GetTask', params: { id: 'x' } }, V1, twoProjects);
    assert.equal(unnamedProject.body.error.code, -32602);
    assert.match(unnamedProject.body.error.message, /tenant/);
    assert.equal(
      (await rpc('/a2a', { id: 11, method: 'GetTask', params: { id: 'x', tenant: PROJECT } }, V1, twoProjects)).body.error.code,
      -32001,
    );
    const extended = await rpc('/a2a', { id: 12, method: 'GetExtendedAgentCard', params: { tenant: PROJECT } }, V1, twoProjects);
    assert.equal(extended.body.result.supportedInterfaces[0].url, `${PUBLIC}/v1/agents/${PROJECT}/a2a`);
    const otherTenant = await rpc('/a2a', { id: 13, method: 'GetTask', params: { id: 'x', tenant: 'elsewhere-2' } }, V1, twoProjects);
    assert.equal(otherTenant.status, 403);
    assert.equal(otherTenant.headers.get('content-type'), 'application/problem+json');
    assert.equal((await h.request('POST', '/a2a', { body: { jsonrpc: '2.0', id: 1, method: 'GetTask' } })).status, 401);
    const other = await rpc(url, { id: 14, method: 'tasks/get', params: { id: 'x' } }, {}, projectToken(['elsewhere']));
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('content-type'), 'application/problem+json');
  });

  describe('the official Python SDK (a2a-sdk), 1.x and 0.3', function () {
    const sdkDir = process.env.A2A_PYTHON_SDK_DIR;
    const script = path.resolve(__dirname, '../../../test/support/a2a-python/client.py');
    before(function () {
      if (!sdkDir) {
        console.log(
          '      !!! A2A_PYTHON_SDK_DIR is not set (scripts/ensure-a2a-python-sdk.sh, run by npm test): the Python SDK tests do not run !!!',
        );
        this.skip();
      }
    });

    for (const [venv, version] of [
      ['venv-1', '1.0'],
      ['venv-0.3', '0.3'],
    ] as const)
      it(`a2a-sdk ${version === '1.0' ? '1.x' : '0.3'}: the public card, then a task streamed to its document, read back; text that is not a call fails`, async () => {
        const worker = await h.startWorker();
        const { stdout } = await promisify(execFile)(
          path.join(sdkDir!, venv, 'bin', 'python'),
          [script, h.baseUrl, PUBLIC, member, PROJECT, JSON.stringify(RELEASE_NOTES)],
          { timeout: 90_000 },
        );
        await worker.shutdown();
        const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
        assert.equal(out.sdkProtocol, version);
        // What it spoke on the wire: the version header and the method names of that version.
        assert.deepEqual(
          out.calls,
          version === '1.0'
            ? [
                ['1.0', 'SendStreamingMessage'],
                ['1.0', 'GetTask'],
                ['1.0', 'SendStreamingMessage'],
              ]
            : [
                ['', 'message/stream'],
                ['', 'tasks/get'],
                ['', 'message/stream'],
              ],
        );
        assert.deepEqual(
          out.publicSkills,
          SKILLS.map((s) => s.name),
        );
        assert.equal(out.firstEvent, 'task');
        assert.equal(out.finalState, version === '1.0' ? 'TASK_STATE_COMPLETED' : 'completed');
        assert.match(out.document, /^# /);
        assert.equal(out.gotState, out.finalState);
        assert.equal(out.textState, version === '1.0' ? 'TASK_STATE_FAILED' : 'failed');
        for (const skill of SKILLS) assert.ok(out.textReason.includes(skill.name));
        const inv = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${out.taskId}`, { token: member });
        assert.equal(inv.body.result.markdown, out.document);
      });
  });
});
