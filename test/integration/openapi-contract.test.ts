/**
 * The OpenAPI document against the real API: every operation is called until it answers a 2xx, and every answer
 * (through the harness) is checked against the document with ajv (test/support/openapi-validator.ts); the
 * outbound webhook bodies a receiver gets are checked against its `webhooks` section; and a client generated
 * from the document (openapi-typescript types, openapi-fetch calls) type-checks and reads real answers. The
 * last test fails for any operation no test here checked, so a new route needs a call here.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { DeadLetterRepository } from '../../src/store/dead-letters';
import { outboundDeliveryContract } from '../../src/contracts/workflows/outbound-delivery';
import { FAST_OUTBOUND_ENV, TEST_OPERATOR_AUTHORIZATION, randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { openApiValidator } from '../support/openapi-validator';
import { DAY, envelope, providerEvent } from '../support/provider-events';
import { repoRoot } from '../support/repo-root';
import { adminToken, projectToken } from '../support/tokens';
import { loadDemo, PROJECT } from './skills-helpers';

const OUTBOUND_ENV = { ...FAST_OUTBOUND_ENV, TEMPORAL_UI_URL: 'http://127.0.0.1:8233' };

/** A receiver on loopback that keeps every body it is sent. */
async function startReceiver() {
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.statusCode = 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    bodies,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('OpenAPI contract: every route answers as its document says (real stack)', function () {
  this.timeout(180_000);
  const validator = openApiValidator();
  const admin = adminToken();
  const APP = `contract-${randomSuffix()}`;
  const member = projectToken([PROJECT], [APP]);
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let appAuth = '';
  let invocationId = '';
  let worker: Awaited<ReturnType<Harness['startWorker']>> | null = null;

  /** A stream the harness would wait on: its status and media type checked like the harness checks, then closed. */
  async function checkedStream(path: string, headers: Record<string, string>) {
    const controller = new AbortController();
    const res = await fetch(`${h.baseUrl}${path}`, { headers, signal: controller.signal });
    controller.abort();
    assert.deepEqual(
      validator.problems({
        method: 'GET',
        path,
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: undefined,
        text: '',
      }),
      [],
      `GET ${path}`,
    );
    return res;
  }

  before(async () => {
    validator.seen.clear();
    receiver = await startReceiver();
    h = await startHarness(OUTBOUND_ENV);
    await loadDemo(h);
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('operations, orgs, projects and documents', async () => {
    for (const path of [
      '/healthz',
      '/readyz',
      '/metrics',
      '/dashboard',
      '/dashboard/assets/console.js',
      '/dashboard/assets/console.css',
      '/dashboard/assets/views/trends.js',
      '/openapi.json',
    ]) {
      assert.equal((await h.request('GET', path)).status, 200, path);
    }
    assert.equal(
      (await h.request('PUT', '/v1/orgs/acme', { token: admin, body: { name: 'Acme', ownerEmail: 'owner@acme.test' } })).status,
      200,
    );
    assert.equal(
      (await h.request('PUT', `/v1/orgs/other-${APP}`, { token: admin, body: { name: 'Other', ownerEmail: 'owner@other.test' } })).status,
      201,
    );
    assert.equal((await h.request('GET', '/v1/orgs/acme', { token: admin })).status, 200);
    assert.equal(
      (await h.request('PUT', `/v1/projects/${PROJECT}`, { token: admin, body: { name: 'Acme Web', org: 'acme' } })).status,
      200,
    );
    assert.equal((await h.request('GET', `/v1/projects/${PROJECT}`, { token: member })).status, 200);
    const upload = await h.request('POST', `/v1/projects/${PROJECT}/documents`, {
      token: member,
      body: {
        documents: [
          { kind: 'ticket', externalId: 'CONTRACT-1', title: 'A ticket', body: 'Text', key: 'CONTRACT-1', type: 'bug', status: 'Done' },
          {
            kind: 'ticket',
            externalId: 'CONTRACT-2',
            title: 'A bad ticket',
            body: 'Text',
            key: 'CONTRACT-2',
            type: 'bug',
            status: 'Done',
            fixversion: '1.0.0',
          },
        ],
      },
    });
    assert.equal(upload.status, 200, upload.text);
    assert.equal(upload.body.rejected.length, 1);
    assert.equal((await h.request('GET', `/v1/projects/${PROJECT}/documents?limit=50`, { token: member })).status, 200);
    assert.equal((await h.request('GET', `/v1/projects/${PROJECT}/documents?kind=incident&limit=5`, { token: member })).status, 200);
  });

  it('skills, invocations and their event stream; MCP and A2A', async () => {
    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/skills`, { token: member })).status, 200);
    // No worker yet: the invocation waits, so it can be cancelled.
    const waiting = await h.request('POST', `/v1/agents/${PROJECT}/skills/incident_rca`, {
      token: member,
      body: { incidentId: 'INC-2025-014', severity: 'SEV-1' },
    });
    assert.equal(waiting.status, 202, waiting.text);
    assert.equal((await h.request('POST', `/v1/agents/${PROJECT}/invocations/${waiting.body.id}/cancel`, { token: member })).status, 202);

    worker = await h.startWorker();
    const done = await h.request('POST', `/v1/agents/${PROJECT}/skills/release_notes_composer`, {
      token: member,
      body: { fromVersion: '1.2.1', toVersion: '2.0.0' },
      headers: { Prefer: 'wait=30' },
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.status, 'completed');
    invocationId = done.body.id;
    for (const skill of ['proposal_writer', 'incident_rca']) {
      const inputs =
        skill === 'proposal_writer'
          ? { customerName: 'Northwind', industry: 'Retail', format: 'one-pager' }
          : { incidentId: 'INC-2025-014', severity: 'SEV-1' };
      assert.equal(
        (await h.request('POST', `/v1/agents/${PROJECT}/skills/${skill}`, { token: member, body: inputs, headers: { Prefer: 'wait=30' } }))
          .body.status,
        'completed',
      );
    }
    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/invocations?limit=10`, { token: member })).status, 200);
    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/invocations/${invocationId}`, { token: member })).status, 200);
    const events = await h.request('GET', `/v1/agents/${PROJECT}/invocations/${invocationId}/events`, { token: member });
    assert.equal(events.status, 200);
    // The stream's `result` event carries the invocation as GET answers it: checked against the same schema.
    const result = /event: result\ndata: (.*)\n/.exec(events.text)?.[1];
    assert.ok(result, events.text);
    assert.deepEqual(
      validator.problems({
        method: 'GET',
        path: `/v1/agents/${PROJECT}/invocations/${invocationId}`,
        status: 200,
        contentType: 'application/json',
        body: JSON.parse(result),
        text: result,
      }),
      [],
    );

    const mcp = `/v1/agents/${PROJECT}/mcp`;
    const mcpHeaders = {
      Authorization: `Bearer ${member}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const init = await h.request('POST', mcp, {
      headers: mcpHeaders,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract-test', version: '1' } },
      },
    });
    assert.equal(init.status, 200, init.text);
    const session = { ...mcpHeaders, 'Mcp-Session-Id': init.headers.get('mcp-session-id')!, 'Mcp-Protocol-Version': '2025-06-18' };
    assert.equal(
      (await h.request('POST', mcp, { headers: session, body: { jsonrpc: '2.0', method: 'notifications/initialized' } })).status,
      202,
    );
    assert.equal((await h.request('POST', mcp, { headers: session, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } })).status, 200);
    assert.equal((await checkedStream(mcp, { ...session, Accept: 'text/event-stream' })).status, 200);
    assert.equal((await h.request('DELETE', mcp, { headers: session })).status, 200);

    assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/.well-known/agent-card.json`, { token: member })).status, 200);
    for (const headers of [{}, { 'A2A-Version': '1.0' }] as Record<string, string>[]) {
      assert.equal((await h.request('GET', `/v1/agents/${PROJECT}/.well-known/agent-card.json`, { token: member, headers })).status, 200);
      assert.equal((await h.request('GET', '/.well-known/agent-card.json', { headers })).status, 200);
    }
    const hostTask = await h.request('POST', '/a2a', {
      token: member,
      headers: { 'A2A-Version': '1.0' },
      body: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: invocationId } },
    });
    assert.equal(hostTask.status, 200, hostTask.text);
    assert.equal(hostTask.body.result.id, invocationId, hostTask.text);
    const task = await h.request('POST', `/v1/agents/${PROJECT}/a2a`, {
      token: member,
      body: { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: invocationId } },
    });
    assert.equal(task.status, 200, task.text);
    assert.ok(task.body.result, task.text);
  });

  it('apps, outbound endpoints and deliveries; the payloads match the webhooks section', async () => {
    const created = await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Contract' } });
    assert.equal(created.status, 201, created.text);
    appAuth = created.body.authorization;
    assert.equal((await h.request('GET', '/v1/apps', { token: admin })).status, 200);
    assert.equal((await h.request('GET', `/v1/apps/${APP}`, { token: admin })).status, 200);
    const rotated = await h.request('POST', `/v1/apps/${APP}/webhook-authorization/rotate`, { token: admin });
    assert.equal(rotated.status, 200);
    appAuth = rotated.body.authorization;
    const gone = `gone-${randomSuffix()}`;
    assert.equal((await h.request('POST', '/v1/apps', { token: admin, body: { slug: gone, name: 'Gone' } })).status, 201);
    assert.equal((await h.request('DELETE', `/v1/apps/${gone}`, { token: admin })).status, 204);

    const base = `/v1/apps/${APP}/webhook-endpoints`;
    assert.equal(
      (
        await h.request('PUT', `/v1/apps/${APP}/outbound-access`, {
          token: admin,
          body: { enabled: true, contactEmail: 'owner@acme.test' },
        })
      ).status,
      200,
    );
    const ep = await h.request('POST', base, { token: member, body: { url: receiver.url, description: 'contract' } });
    assert.equal(ep.status, 201, ep.text);
    const spare = await h.request('POST', base, { token: member, body: { url: receiver.url, eventTypes: ['RENEWAL'], disabled: true } });
    assert.equal(spare.status, 201, spare.text);
    assert.equal((await h.request('GET', base, { token: member })).status, 200);
    assert.equal((await h.request('GET', `${base}/${ep.body.id}`, { token: member })).status, 200);
    assert.equal((await h.request('PATCH', `${base}/${spare.body.id}`, { token: member, body: { description: 'spare' } })).status, 200);
    assert.equal((await h.request('POST', `${base}/${spare.body.id}/secret/rotate`, { token: member })).status, 200);
    assert.equal((await h.request('DELETE', `${base}/${spare.body.id}`, { token: member })).status, 204);
    const test = await h.request('POST', `${base}/${ep.body.id}/test`, { token: member });
    assert.equal(test.status, 202, test.text);
    await eventually(
      () => h.request('GET', `${base}/${ep.body.id}/deliveries`, { token: member }),
      (r) => r.body.deliveries[0]?.status === 'succeeded',
      { what: 'the test delivery to succeed' },
    );
    assert.equal(
      (await h.request('GET', `${base}/${ep.body.id}/deliveries/${test.body.deliveryId}`, { token: member })).body.attempts[0].responseBody,
      'ok',
    );
    // The delivery is recorded as succeeded a moment before its workflow closes; until then a redelivery is 409.
    await h.temporal.client.workflow.getHandle(outboundDeliveryContract.workflowId(APP, ep.body.id, test.body.deliveryId)).result();
    const redelivered = await h.request('POST', `${base}/${ep.body.id}/deliveries/${test.body.deliveryId}/redeliver`, { token: member });
    assert.equal(redelivered.status, 202, redelivered.text);
    assert.equal(
      (
        await h.request('POST', `${base}/${ep.body.id}/redeliver-failed`, {
          token: member,
          body: { since: new Date(Date.now() - DAY).toISOString() },
        })
      ).status,
      202,
    );
  });

  it('billing webhooks, the dashboard and console reads, dead letters', async () => {
    const now = Date.now();
    const hook = `/api/saas/iap/billingprovider/webhook?app=${APP}`;
    const deliver = async (event: ReturnType<typeof providerEvent>) => {
      const res = await h.request('POST', hook, { body: envelope(event), headers: { Authorization: appAuth } });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const purchase = providerEvent('INITIAL_PURCHASE', 'payer', { at: now - 2 * DAY, expiresAt: now + 28 * DAY });
    await deliver(purchase);
    assert.equal((await deliver(purchase)).duplicate, true);
    await deliver(providerEvent('BILLING_ISSUE', 'payer', { at: now - DAY, expiresAt: now + 28 * DAY }));
    await deliver(providerEvent('INITIAL_PURCHASE', 'leaver', { at: now - 2 * DAY, expiresAt: now + 2 * DAY }));
    await deliver(providerEvent('CANCELLATION', 'leaver', { at: now - DAY, expiresAt: now + 2 * DAY, cancel_reason: 'UNSUBSCRIBE' }));
    assert.equal((await deliver(providerEvent('TEST', 'payer', { at: now }))).ignored, true);
    const operator = await h.request('POST', '/api/billing/billingprovider/webhook', {
      body: envelope(providerEvent('INITIAL_PURCHASE', 'acme', { at: now - DAY })),
      headers: { Authorization: TEST_OPERATOR_AUTHORIZATION },
    });
    assert.equal(operator.status, 200, operator.text);

    const q = `app=${APP}`;
    await eventually(
      () => h.request('GET', `/v1/billing/customers/payer?${q}`, { token: member }),
      (r) => r.status === 200 && r.body.flags.length === 1,
      { what: 'payer flagged' },
    );
    await eventually(
      () => h.request('GET', `/v1/billing/downgrades?${q}&days=7`, { token: member }),
      (r) => r.body.customers.length === 1,
      { what: "leaver's downgrade listed" },
    );
    assert.equal((await h.request('GET', `/v1/billing/metrics?${q}`, { token: member })).status, 200);
    assert.equal((await h.request('GET', '/v1/billing/metrics', { token: admin })).status, 200);
    assert.equal((await h.request('GET', `/v1/billing/customers?${q}&limit=1`, { token: member })).body.customers.length, 1);
    assert.equal(
      (await h.request('GET', `/v1/billing/customers?${q}&q=pay&sort=-id&status=active`, { token: member })).body.exactMatch,
      null,
    );
    assert.equal(
      (await h.request('GET', `/v1/billing/customers?${q}&q=payer&store=APP_STORE&environment=PRODUCTION`, { token: member })).body
        .exactMatch.id,
      'payer',
    );
    assert.equal((await h.request('GET', `/v1/billing/customers?${q}&sort=-mrr&limit=1`, { token: member })).status, 200);
    assert.equal((await h.request('GET', `/v1/billing/customers/payer/timeline?${q}`, { token: member })).status, 200);
    assert.equal((await h.request('GET', `/v1/billing/customers/payer/timeline/${purchase.id}?${q}`, { token: member })).status, 200);
    // The event log: every delivery above, with the body of an accepted one.
    const logged = await eventually(
      () => h.request('GET', `/v1/billing/events?${q}&outcome=accepted&type=INITIAL_PURCHASE&subscriber=payer`, { token: member }),
      (r) => r.status === 200 && r.body.events.length === 1,
      { what: "the purchase's delivery in the event log" },
    );
    const entry = await h.request('GET', logged.body.events[0].links.self, { token: member });
    assert.equal(entry.status, 200);
    assert.equal(entry.body.body.id, purchase.id);
    assert.equal((await h.request('GET', `/v1/billing/trends?${q}&days=90`, { token: member })).status, 200);
    assert.equal((await h.request('GET', `/v1/billing/trends/events?${q}&days=30&environment=ALL`, { token: member })).status, 200);
    assert.equal((await h.request('GET', '/v1/console/scopes', { token: admin })).status, 200);
    assert.equal((await h.request('GET', '/v1/console/projects', { token: member })).status, 200);

    // The outbound deliveries of the applied events reached the endpoint: each body as the webhooks section says.
    await eventually(
      async () => receiver.bodies,
      (b) => b.some((x) => (x as { id?: string }).id === purchase.id),
      { what: "the purchase's outbound delivery" },
    );
    for (const body of receiver.bodies) assert.deepEqual(validator.webhookProblems('billingEvent', body), []);
    assert.ok(receiver.bodies.some((b) => (b as { type: string }).type === 'WEBHOOK_TEST'));

    const event = providerEvent('INITIAL_PURCHASE', 'parked-user', { at: now, expiresAt: now + 30 * DAY });
    // As the relay parks an event it gave up on.
    const id = await new DeadLetterRepository(h.db).park(
      {
        key: `app:${APP}|relay|${event.id}`,
        scope: `app:${APP}`,
        stage: 'relay',
        eventId: event.id,
        type: event.type,
        subscriberId: 'parked-user',
        workflowId: `billing/app:${APP}/parked-user`,
        reason: 'not relayed',
        payload: JSON.stringify(event),
      },
      new Date(),
    );
    assert.equal((await h.request('GET', `/v1/billing/dead-letters?${q}&status=all`, { token: member })).body.deadLetters.length, 1);
    assert.equal((await h.request('POST', `/v1/billing/dead-letters/${id}/retry`, { token: admin })).status, 202);
    // An intake conflict cannot be retried (the list says why) and is discarded with a reason.
    const conflict = await deliver({ ...purchase, type: 'RENEWAL' });
    assert.equal(conflict.conflict, true);
    const parked = (await h.request('GET', `/v1/billing/dead-letters?${q}`, { token: member })).body.deadLetters;
    const intake = parked.find((d: { stage: string }) => d.stage === 'intake');
    assert.equal(intake.retryable, false);
    assert.match(intake.notRetryableReason, /never applied/);
    assert.equal((await h.request('POST', `/v1/billing/dead-letters/${intake.id}/discard`, { token: admin, body: {} })).status, 400);
    assert.equal(
      (await h.request('POST', `/v1/billing/dead-letters/${intake.id}/discard`, { token: member, body: { reason: 'x' } })).status,
      403,
    );
    const discarded = await h.request('POST', `/v1/billing/dead-letters/${intake.id}/discard`, {
      token: admin,
      body: { reason: 'a test resend with another type; looked at' },
    });
    assert.equal(discarded.status, 200);
    assert.deepEqual(
      [discarded.body.status, discarded.body.discardReason, discarded.body.discardedBy],
      ['discarded', 'a test resend with another type; looked at', 'admin'],
    );
    assert.equal(
      (await h.request('POST', `/v1/billing/dead-letters/${intake.id}/discard`, { token: admin, body: { reason: 'again' } })).status,
      409,
    );
    assert.equal((await h.request('GET', `/v1/billing/dead-letters?${q}&status=discarded`, { token: member })).body.deadLetters.length, 1);
  });

  it('a client generated from the document (openapi-typescript, openapi-fetch) type-checks and reads real answers', async () => {
    // Compiling blocks this process for seconds: the worker has done its part, and would only report slow tasks.
    worker?.shutdown();
    const doc = (await h.request('GET', '/openapi.json')).body;
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const types = astToString(await openapiTS(doc as never));
    // Inside the repository, so the client's `import 'openapi-fetch'` resolves to this project's node_modules.
    const cache = join(repoRoot(), 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'openapi-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), types);
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      const options: ts.CompilerOptions = {
        strict: true,
        noEmit: true,
        types: [],
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.Node16,
        moduleResolution: ts.ModuleResolutionKind.Node16,
      };
      const program = ts.createProgram([join(dir, 'client.ts')], options);
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName.split('/').pop() ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      assert.deepEqual(diagnostics, []);

      const js = ts.transpileModule(CLIENT, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      writeFileSync(join(dir, 'client.js'), js);
      // Its answers go through the same check as the harness's.
      const checkingFetch = async (request: Request) => {
        const res = await fetch(request);
        const text = await res.clone().text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const url = new URL(request.url);
        assert.deepEqual(
          validator.problems({
            method: request.method,
            path: url.pathname + url.search,
            status: res.status,
            contentType: res.headers.get('content-type'),
            body,
            text,
          }),
          [],
        );
        return res;
      };
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the client compiled just now
      const { run } = require(join(dir, 'client.js')) as { run: (o: object) => Promise<Record<string, unknown>> };
      const out = await run({ baseUrl: h.baseUrl, token: admin, project: PROJECT, invocationId, app: APP, fetch: checkingFetch });
      assert.deepEqual(out.skills, ['release_notes_composer', 'proposal_writer', 'incident_rca']);
      assert.equal(out.status, 'completed');
      assert.ok((out.cited as string[]).length > 0);
      assert.equal(out.generator, 'deterministic');
      assert.equal(out.unknownCode, 'unknown_invocation');
      assert.equal(out.payerFlagged, true);
      assert.equal(typeof out.mrr, 'number');
      assert.equal(out.accepted, 'queued');
      assert.equal(out.notesStatus, 202, 'a release-notes body without tone is accepted');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no operation of the document went without a checked 2xx answer', () => {
    assert.deepEqual(validator.unchecked(), []);
  });
});

/** A small typed client: what a developer writes against the generated `paths` (checked by tsc above). */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Invocation = components['schemas']['Invocation'];
type SkillResult = components['schemas']['SkillResult'];

export async function run(o: { baseUrl: string; token: string; project: string; invocationId: string; app: string; fetch: (r: Request) => Promise<Response> }) {
  const client = createClient<paths>({ baseUrl: o.baseUrl, headers: { Authorization: 'Bearer ' + o.token }, fetch: o.fetch });
  const catalog = await client.GET('/v1/agents/{project}/skills', { params: { path: { project: o.project } } });
  if (!catalog.data) throw new Error('no catalog');
  const skills: string[] = catalog.data.skills.map((s) => s.name);

  const got = await client.GET('/v1/agents/{project}/invocations/{id}', { params: { path: { project: o.project, id: o.invocationId } } });
  if (!got.data) throw new Error(got.error?.detail);
  const invocation: Invocation = got.data;
  const result: SkillResult | null = invocation.result;
  const cited: string[] = result ? result.sections.flatMap((s) => s.citations) : [];
  const searched: number = result ? Object.values(result.retrieval.searched).reduce((a: number, n) => a + (n ?? 0), 0) : 0;

  const unknown = await client.GET('/v1/agents/{project}/invocations/{id}', { params: { path: { project: o.project, id: 'inv_unknown' } } });
  const unknownCode: string | undefined = unknown.error?.code;

  const invoked = await client.POST('/v1/agents/{project}/skills/{skill}', {
    params: { path: { project: o.project, skill: 'incident_rca' } },
    body: { incidentId: 'INC-2025-014', severity: 'SEV-2' },
  });
  const accepted: string | undefined = invoked.data?.status;
  // An input with a default (tone) may be left out, as the documentation's examples do.
  const notes = await client.POST('/v1/agents/{project}/skills/{skill}', {
    params: { path: { project: o.project, skill: 'release_notes_composer' } },
    body: { fromVersion: '1.2.1', toVersion: '2.0.0' },
  });
  const notesStatus: number = notes.response.status;
  if (invoked.data) {
    const self: string = invoked.data.links.self;
    if (!self.endsWith(invoked.data.id)) throw new Error(self);
  }

  const customer = await client.GET('/v1/billing/customers/{id}', { params: { path: { id: 'payer' }, query: { app: o.app } } });
  const payerFlagged: boolean = (customer.data?.flags.length ?? 0) > 0;
  const downgrade: string | undefined = customer.data?.scheduledDowngrade?.at;
  const metrics = await client.GET('/v1/billing/metrics', { params: { query: { app: o.app } } });
  const mrr: number | undefined = metrics.data?.mrr.amount;
  const letters = await client.GET('/v1/billing/dead-letters', { params: { query: { app: o.app, status: 'all' } } });
  const stages: ('intake' | 'relay' | 'apply' | 'effect')[] = letters.data?.deadLetters.map((d) => d.stage) ?? [];

  return { skills, status: invocation.status, cited, searched, generator: invocation.generator, unknownCode, accepted, notesStatus, payerFlagged, downgrade, mrr, stages };
}
`;
