import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatAnswer, draftOf, rewrite, startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { repoRoot } from '../unit/skills/demo';
import { PROJECT, assertResultShape, invoke, loadDemo } from './skills-helpers';

const EMAIL = { customerName: 'Harbor & Vine Market', industry: 'Retail', format: 'email', painPoints: ['Checkout pages slow down during seasonal peaks'] };
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

  /** Runs one invocation to its end (Prefer: wait) and returns it with the model requests it caused. */
  async function run(skill: string, inputs: object) {
    const before = llm.requests.length;
    const res = await invoke(h, member, skill, inputs, { Prefer: 'wait=45' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'completed', JSON.stringify(res.body.error));
    assertResultShape(res.body.result);
    return { result: res.body.result, requests: llm.requests.slice(before) };
  }

  it('a good answer: the model’s prose, checked citations, generator llm:<model>', async () => {
    llm.handle((req) => rewrite(req));
    const { result, requests } = await run('release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' });
    assert.equal(result.generator, 'llm:fake-model');
    assert.equal(result.notes, undefined);
    assert.match(result.markdown, /^# Release notes: 2\.0\.0 \(rewritten\)\n/);
    assert.equal(result.markdown.match(/Rewritten for readers\./g)?.length, result.sections.length);
    const golden = JSON.parse(readFileSync(join(repoRoot(), 'test', 'golden', 'release_notes_composer', 'neutral-1.2.1-2.0.0.json'), 'utf8'));
    assert.deepEqual(result.citations, golden.citations, 'the same documents, cited the same way');

    assert.equal(requests.length, 1);
    const [req] = requests;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, 'Bearer sk-fake');
    assert.equal(req.body.model, 'fake-model');
    assert.equal(req.body.temperature, 0);
    assert.deepEqual(req.body.response_format, { type: 'json_object' });
    assert.match(req.body.messages![0].content, /You may cite only these ids: \[/);
    assert.deepEqual(draftOf(req).sections.map((s) => s.heading), golden.sections.map((s: { heading: string }) => s.heading));
  });

  it('an answer citing what retrieval never returned: the deterministic draft, with a note', async () => {
    llm.handle((req) => rewrite(req, (s, i) => (i === 0 ? { ...s, markdown: `${s.markdown} [pr:9999]`, citations: [...s.citations, 'pr:9999'] } : s)));
    const { result, requests } = await run('proposal_writer', EMAIL);
    assert.equal(result.generator, 'deterministic');
    assert.equal(result.notes.length, 1);
    assert.match(result.notes[0], /^The model's answer was not used: pr:9999 was not retrieved.* This is the deterministic draft\.$/);
    assert.doesNotMatch(result.markdown, /pr:9999|Rewritten/);
    assert.equal(requests.length, 1, 'a rejected answer is not asked for again');
  });

  it('429 with Retry-After: the activity retries after the server’s delay, then uses the answer', async () => {
    llm.handle((req, n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '3' }, body: { error: { message: 'rate limited' } } } : rewrite(req)));
    const { result, requests } = await run('proposal_writer', EMAIL);
    assert.equal(result.generator, 'llm:fake-model');
    assert.equal(requests.length, 2);
    const gap = requests[1].at - requests[0].at;
    // The retry policy alone would come back after 2 s; Retry-After says 3.
    assert.ok(gap >= 2_900, `retried after ${gap} ms`);
  });

  it('an endpoint that keeps failing: retried up to maximumAttempts, then the draft with a note', async () => {
    llm.handle(() => ({ status: 503, headers: { 'Retry-After': '1' } }));
    const { result, requests } = await run('proposal_writer', EMAIL);
    assert.equal(result.generator, 'deterministic');
    assert.match(result.notes[0], /^The model endpoint kept failing \(the model endpoint answered HTTP 503\) after 4 attempts\./);
    assert.equal(requests.length, 4);
  });

  it('a model slower than LLM_TIMEOUT_MS: the draft with a note, and the request is closed', async () => {
    const abortedBefore = llm.aborted;
    llm.handle(() => ({ hang: true }));
    const started = Date.now();
    const { result, requests } = await run('incident_rca', { incidentId: 'INC-2025-022', severity: 'SEV-3' });
    assert.equal(result.generator, 'deterministic');
    assert.deepEqual(result.notes, ['The model did not answer within 1500 ms. This is the deterministic draft.']);
    assert.equal(result.markdown, goldenMd('incident_rca', 'sev3-INC-2025-022'));
    assert.equal(requests.length, 1, 'a timeout is not retried');
    assert.ok(Date.now() - started < 15_000);
    assert.equal(llm.aborted, abortedBefore + 1);
  });

  it('a 200 whose content is not the JSON asked for is not used either', async () => {
    llm.handle(() => chatAnswer('Sure! Here are your release notes.'));
    const { result } = await run('proposal_writer', { ...EMAIL, customerName: 'Other Market' });
    assert.equal(result.generator, 'deterministic');
    assert.match(result.notes[0], /the answer is not JSON/);
  });
});
