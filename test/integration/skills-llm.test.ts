import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { chatAnswer, rewrite, sectionOf, startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { rewritePart } from '../../src/skills/model-rewrite';
import { repoRoot } from '../unit/skills/demo';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventually } from '../support/eventually';
import { events } from '../support/sse';
import { PROJECT, assertResultShape, invoke, loadDemo, localActivities } from './skills-helpers';

const EMAIL = {
  customerName: 'Harbor & Vine Market',
  industry: 'Retail',
  format: 'email',
  painPoints: ['Checkout pages slow down during seasonal peaks'],
};
const goldenMd = (skill: string, name: string) => readFileSync(join(repoRoot(), 'test', 'golden', skill, `${name}.md`), 'utf8');

describe('skills with a model (OpenAI-compatible endpoint on loopback, real Temporal, real store)', () => {
  let h: Harness;
  let llm: FakeLlm;
  const member = projectToken([PROJECT]);
  before(async () => {
    llm = await startFakeLlm();
    h = await startHarness({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-fake', LLM_TIMEOUT_MS: '1500' });
    await loadDemo(h);
    await h.startWorker();
  });
  after(async () => {
    await h?.close();
    await llm?.close();
  });

  /** The invocation once its final version is stored (polled with a deadline). */
  const finalVersion = (id: string) =>
    eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${id}`, { token: member }),
      (r) => r.status === 200 && r.body.status === 'completed' && r.body.revision?.final === true,
      { timeoutMs: 45_000, intervalMs: 100, what: `invocation ${id} to have its final version` },
    );

  /**
   * Runs one invocation to its end and returns its final result with the model requests it caused. `Prefer: wait`
   * answers with the deterministic draft (version 1) as soon as it is stored; the model's version follows.
   */
  async function run(skill: string, inputs: object) {
    const before = llm.requests.length;
    const res = await invoke(h, member, skill, inputs, { Prefer: 'wait=45' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'completed', JSON.stringify(res.body.error));
    assert.deepEqual(res.body.revision, { number: 1, final: false }, 'the draft first');
    assert.equal(res.body.result.generator, 'deterministic');
    assert.match(
      res.body.result.notes.at(-1),
      /^This is the deterministic draft; the model's rewrite of \d+ sections? follows as version 2 of this result\.$/,
    );
    const done = await finalVersion(res.body.id);
    assert.deepEqual(done.body.revision, { number: 2, final: true });
    assertResultShape(done.body.result);
    return { result: done.body.result, requests: llm.requests.slice(before), draft: res.body.result, id: res.body.id as string };
  }

  /** Headings of the sections sent, smallest first (as the service sends them), from a golden result. */
  const smallestFirst = (sections: { heading: string; markdownWithCitations: string }[], sent: string[]) =>
    sections
      .filter((s) => sent.includes(s.heading))
      .sort((a, b) => rewritePart(a.markdownWithCitations).sent.length - rewritePart(b.markdownWithCitations).sent.length)
      .map((s) => s.heading);

  it('good answers: each rewritten section is the model’s, checked for facts; generator llm:<model>', async () => {
    llm.handle((req) => rewrite(req));
    const { result, requests, id } = await run('release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' });
    // The run: retrieval, the draft and its store as local activities, then the rewrite as one remote activity
    // (it heartbeats) and the store of version 2.
    const handle = h.temporal.client.workflow.getHandle(`skill/${PROJECT}/${id}`);
    await handle.result();
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    assert.deepEqual(localActivities(events), [
      'retrieveSkillContext',
      'draftSkillDocumentLocally',
      'storeSkillResult',
      'storeSkillResult',
    ]);
    assert.deepEqual(
      events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : [])),
      ['rewriteSkillDraft'],
    );
    if (process.env.UPDATE_HISTORIES === '1')
      writeFileSync(
        join(repoRoot(), 'test', 'fixtures', 'histories', 'skill-invocation-model.json'),
        JSON.stringify({ workflowId: handle.workflowId, history: JSON.parse(historyToJSON(history)) }),
      );
    const golden = JSON.parse(
      readFileSync(join(repoRoot(), 'test', 'golden', 'release_notes_composer', 'neutral-1.2.1-2.0.0.json'), 'utf8'),
    );
    // The sections with prose; New features, Improvements and Fixes are entries only (kept in their authors' words),
    // and Highlights is a count that cites nothing.
    const sent = ['Breaking changes'];
    assert.equal(result.generator, 'llm:fake-model');
    assert.equal(result.notes, undefined);
    assert.deepEqual(
      result.model.sections.map((s: { heading: string; outcome: string }) => [s.heading, s.outcome]),
      golden.sections.map((s: { heading: string }) => [s.heading, sent.includes(s.heading) ? 'accepted' : 'kept']),
    );
    assert.deepEqual(
      result.sections.map((s: { generator: string }) => s.generator),
      golden.sections.map((s: { heading: string }) => (sent.includes(s.heading) ? 'llm:fake-model' : 'deterministic')),
    );
    assert.equal(result.markdown.match(/Here is what changed\./g)?.length, sent.length);
    assert.deepEqual(result.citations, golden.citations, 'the same documents, cited the same way');
    assert.doesNotMatch(result.markdown, /\[(pr|commit|ticket|release):/, 'the publishable form carries no markers');

    assert.deepEqual(
      requests.map((r) => sectionOf(r).heading),
      smallestFirst(golden.sections, sent),
      'one request per section, smallest first',
    );
    assert.ok(
      requests.every((r) => r.body.stream === true),
      'streamed, so a call given up on is closed on the server',
    );
    const [req] = requests;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, 'Bearer sk-fake');
    assert.equal(req.body.model, 'fake-model');
    assert.equal(req.body.temperature, 0);
    assert.deepEqual((req.body.response_format as { type: string }).type, 'json_schema', 'structured output first');
    const chars = sectionOf(req).markdown.length;
    const maxTokens = (req.body as { max_tokens?: number }).max_tokens!;
    assert.ok(maxTokens > chars / 4 && maxTokens <= 4096, `max_tokens ${maxTokens} bounds a section of ${chars} characters`);
  });

  it('a rewrite that changes a fact is refused for that section only, with a note naming the fact', async () => {
    llm.handle((req) =>
      rewrite(req, (m, heading) =>
        heading === 'Fixes' ? m.replace('Bugs we fixed', 'The 3 bugs we fixed') : `${m}\n\nHere is what changed.`,
      ),
    );
    const { result } = await run('release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'casual' });
    assert.equal(result.generator, 'llm:fake-model');
    const fixes = result.sections.find((s: { heading: string }) => s.heading === 'Fixes');
    assert.equal(fixes.generator, 'deterministic');
    assert.doesNotMatch(fixes.markdown, /The 3 bugs/);
    assert.equal(result.notes.length, 1);
    assert.match(
      result.notes[0],
      /^The model's rewrite of "Fixes" was not used: an uncited sentence states ‘3’ \(number\), which the draft does not \(rule: facts; sentence: “The 3 bugs we fixed for you:”\)\.$/,
    );
    assert.equal(result.model.sections.find((s: { heading: string }) => s.heading === 'Fixes').outcome, 'refused');
  });

  it('an answer citing what the section does not cite: that section stays as drafted, with a note', async () => {
    llm.handle((req, n) => rewrite(req, (m) => (n === 0 ? `${m} [pr:9999]` : m)));
    const { result, requests } = await run('proposal_writer', EMAIL);
    const refused = sectionOf(requests[0]!).heading;
    assert.equal(result.sections.find((s: { heading: string }) => s.heading === refused).generator, 'deterministic');
    assert.equal(result.notes[0], `The model's rewrite of "${refused}" was not used: it cites pr:9999, which the section does not.`);
    assert.doesNotMatch(result.markdown, /pr:9999/);
    assert.equal(requests.filter((r) => sectionOf(r).heading === refused).length, 1, 'a refused answer is not asked for again');
  });

  it('a server that refuses a JSON schema (HTTP 400) is asked again in JSON mode, and kept to it', async () => {
    llm.handle((req) =>
      (req.body.response_format as { type: string }).type === 'json_schema'
        ? { status: 400, body: { error: { message: 'unknown response_format' } } }
        : rewrite(req),
    );
    const { result, requests } = await run('proposal_writer', { ...EMAIL, customerName: 'Schema Market' });
    assert.equal(result.generator, 'llm:fake-model');
    assert.deepEqual(
      requests.map((r) => (r.body.response_format as { type: string }).type),
      ['json_schema', ...requests.slice(1).map(() => 'json_object')],
    );
  });

  it('429 with Retry-After: the activity retries after the server’s delay, from the section it was on', async () => {
    llm.handle((req, n) =>
      n === 0 ? { status: 429, headers: { 'Retry-After': '3' }, body: { error: { message: 'rate limited' } } } : rewrite(req),
    );
    const { result, requests } = await run('release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'formal' });
    assert.equal(result.generator, 'llm:fake-model');
    // One section has prose to rewrite (Highlights is a count that cites nothing): the retried attempt asks for it
    // again, after the server's delay.
    const formal = JSON.parse(
      readFileSync(join(repoRoot(), 'test', 'golden', 'release_notes_composer', 'formal-1.2.1-2.0.0.json'), 'utf8'),
    ) as { sections: { heading: string; markdownWithCitations: string }[] };
    const order = smallestFirst(formal.sections, ['Breaking changes']);
    assert.deepEqual(
      requests.map((r) => sectionOf(r).heading),
      [order[0], order[0]],
    );
    assert.equal(result.model.sections.filter((s: { outcome: string }) => s.outcome === 'accepted').length, 1);
    const gap = requests[1].at - requests[0].at;
    // The retry policy alone would come back after 2 s; Retry-After says 3.
    assert.ok(gap >= 2_900, `retried after ${gap} ms`);
  });

  it('an endpoint that keeps failing: retried up to maximumAttempts, then the draft with a note', async () => {
    llm.handle(() => ({ status: 503, headers: { 'Retry-After': '1' } }));
    const { result, requests } = await run('proposal_writer', EMAIL);
    assert.equal(result.generator, 'deterministic');
    assert.deepEqual(result.notes, [
      'The model endpoint kept failing (the model endpoint answered HTTP 503) after 4 attempts. This is the deterministic draft.',
    ]);
    assert.equal(requests.length, 4);
  });

  it('a model slower than LLM_TIMEOUT_MS: the draft with a note, and the request is closed', async () => {
    const abortedBefore = llm.aborted;
    llm.handle(() => ({ hang: true }));
    const started = Date.now();
    const { result, requests } = await run('incident_rca', { incidentId: 'INC-2025-022', severity: 'SEV-3' });
    assert.equal(result.generator, 'deterministic');
    const sev3 = JSON.parse(readFileSync(join(repoRoot(), 'test', 'golden', 'incident_rca', 'sev3-INC-2025-022.json'), 'utf8')) as {
      sections: { heading: string; markdownWithCitations: string; citations: string[] }[];
    };
    const sent = sev3.sections
      .filter((x) => x.citations.length > 0 && rewritePart(x.markdownWithCitations).sent !== '')
      .map((x) => x.heading);
    const first = smallestFirst(sev3.sections, sent)[0]!;
    // The note lists the sections not sent in the document's order.
    const rest = sent.filter((x) => x !== first);
    assert.deepEqual(result.notes, [
      `The model did not answer "${first}" within 1500 ms (LLM_TIMEOUT_MS, per section). Not sent: ${rest.map((x) => `"${x}"`).join(', ')}. This is the deterministic draft.`,
    ]);
    assert.equal(result.markdown, goldenMd('incident_rca', 'sev3-INC-2025-022'));
    assert.equal(requests.length, 1, 'a timeout is not retried');
    assert.ok(Date.now() - started < 15_000);
    assert.equal(llm.aborted, abortedBefore + 1);
    // The request was streamed: closing it stopped the generation.
    await eventually(
      async () => llm.pending,
      (n) => n === 0,
      { timeoutMs: 5_000, intervalMs: 50, what: 'the abandoned model call to close' },
    );
    const generated = llm.generated;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(llm.generated, generated, 'no token is generated after the service gave up');
  });

  it('Prefer: wait=5 answers 200 with the deterministic draft at once; the model’s rewrite follows as version 2 (SSE shows both)', async () => {
    // A slow model: each section's answer takes 1 s, so the rewrite of the release notes takes 5 s or more.
    llm.handle((req) => ({ ...rewrite(req), delayMs: 1_000 }));
    const started = Date.now();
    const res = await invoke(
      h,
      member,
      'release_notes_composer',
      { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'casual' },
      { Prefer: 'wait=5' },
    );
    const tookMs = Date.now() - started;
    assert.equal(res.status, 200, res.text);
    assert.ok(tookMs < 5_000, `answered in ${tookMs} ms`);
    assert.equal(res.headers.get('preference-applied'), 'wait=5');
    assert.equal(res.body.status, 'completed');
    assert.deepEqual(res.body.revision, { number: 1, final: false });
    assert.equal(res.body.result.generator, 'deterministic');
    assert.equal(res.body.result.markdown, goldenMd('release_notes_composer', 'casual-1.2.1-2.0.0'), 'the deterministic draft');
    assert.match(
      res.body.result.notes.at(-1),
      /^This is the deterministic draft; the model's rewrite of 4 sections follows as version 2 of this result\.$/,
    );

    const stream = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/invocations/${res.body.id}/events`, {
      headers: { Authorization: `Bearer ${member}` },
    });
    const results: { revision: { number: number; final: boolean }; result: { generator: string } }[] = [];
    for await (const e of events(stream)) if (e.event === 'result') results.push(e.data as (typeof results)[number]);
    assert.deepEqual(
      results.map((r) => [r.revision, r.result.generator]),
      [
        [{ number: 1, final: false }, 'deterministic'],
        [{ number: 2, final: true }, 'llm:fake-model'],
      ],
      'the draft, then the model’s version, and the stream ends',
    );
    const done = await finalVersion(res.body.id);
    assert.match(done.body.result.markdown, /Here is what changed\./);
    assert.equal(done.body.result.notes, undefined);
  });

  it('MCP progress and the A2A stream show the draft first, then the model’s version', async () => {
    llm.handle((req) => ({ ...rewrite(req), delayMs: 200 }));
    const mcp = new Client({ name: 'test-client', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/v1/agents/${PROJECT}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${member}` } },
      }),
    );
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const called = await mcp.callTool({ name: 'proposal_writer', arguments: { ...EMAIL, customerName: 'Progress Market' } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    await mcp.close();
    assert.notEqual(called.isError, true, JSON.stringify(called));
    assert.match((called.content as { text: string }[])[0]!.text, /Here is what changed\./, 'the answer is the model’s version');
    const draftAt = progress.findIndex((p) =>
      /the deterministic draft is ready \(version 1\); the model's rewrite follows/.test(p.message ?? ''),
    );
    assert.ok(draftAt >= 0, JSON.stringify(progress));
    assert.equal(progress.at(-1)!.message, 'completed: version 2 of the result');
    // The draft's notification and the final one each report more progress than any before them.
    assert.ok(progress[draftAt]!.progress > Math.max(...progress.slice(0, draftAt).map((p) => p.progress)), JSON.stringify(progress));
    assert.ok(progress.at(-1)!.progress > progress[draftAt]!.progress, JSON.stringify(progress));

    const res = await fetch(`${h.baseUrl}/v1/agents/${PROJECT}/a2a`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: {
          message: {
            kind: 'message',
            messageId: `m-${Date.now()}`,
            role: 'user',
            parts: [{ kind: 'data', data: { skill: 'proposal_writer', inputs: { ...EMAIL, customerName: 'Stream Market' } } }],
          },
        },
      }),
    });
    const text = await res.text();
    const updates = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map(
        (l) =>
          (
            JSON.parse(l.slice(6)) as {
              result: { kind: string; status?: { state: string }; final?: boolean; artifact?: { parts: { text?: string }[] } };
            }
          ).result,
      )
      .filter((u) => u.kind !== 'task')
      .map((u) =>
        u.kind === 'artifact-update'
          ? `artifact:${/Here is what changed\./.test(u.artifact!.parts[0]!.text ?? '') ? 'model' : 'draft'}`
          : `${u.status!.state}${u.final ? ':final' : ''}`,
      );
    const firstDraft = updates.indexOf('artifact:draft');
    assert.ok(firstDraft >= 0, updates.join(' '));
    assert.deepEqual(updates.slice(firstDraft), ['artifact:draft', 'working', 'artifact:model', 'completed:final']);
  });

  it('a 200 whose content is not the JSON asked for is not used either', async () => {
    llm.handle(() => chatAnswer('Sure! Here are your release notes.'));
    const { result } = await run('proposal_writer', { ...EMAIL, customerName: 'Other Market' });
    assert.equal(result.generator, 'deterministic');
    assert.match(result.notes[0], /was not used: the answer is not JSON\.$/);
    assert.equal(result.notes.at(-1), 'This is the deterministic draft.');
  });
});

describe('skills with a model asked for JSON mode (LLM_RESPONSE_FORMAT=json_object, as llama.cpp’s Python server wants)', () => {
  let h: Harness;
  let llm: FakeLlm;
  const member = projectToken([PROJECT]);
  before(async () => {
    llm = await startFakeLlm();
    h = await startHarness({
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '1500',
      LLM_RESPONSE_FORMAT: 'json_object',
    });
    await loadDemo(h);
    await h.startWorker();
  });
  after(async () => {
    await h?.close();
    await llm?.close();
  });

  it('sends JSON mode with the section schema beside it, and uses the answers', async () => {
    llm.handle((req) => rewrite(req));
    const res = await invoke(h, member, 'incident_rca', { incidentId: 'INC-2025-022', severity: 'SEV-3' }, { Prefer: 'wait=45' });
    assert.equal(res.status, 200, res.text);
    const done = await eventually(
      () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${res.body.id}`, { token: member }),
      (r) => r.status === 200 && r.body.revision?.final === true,
      { timeoutMs: 45_000, intervalMs: 100, what: 'the final version' },
    );
    assert.equal(done.body.result.generator, 'llm:fake-model');
    assert.ok(llm.requests.length > 0);
    for (const r of llm.requests) {
      assert.deepEqual(r.body.response_format, {
        type: 'json_object',
        schema: { type: 'object', properties: { markdown: { type: 'string' } }, required: ['markdown'], additionalProperties: false },
      });
    }
  });
});
