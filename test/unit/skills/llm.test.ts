import assert from 'node:assert/strict';
import { acceptLlmAnswer, buildLlmMessages } from '../../../src/skills/run';
import { CASES, retrievedFor, runCase, type DemoCase } from './cases';

const c = CASES.find((x) => x.name === 'one-pager-retail') as DemoCase<'proposal_writer'>;
const docs = retrievedFor(c);
const draft = runCase(c, docs);
const rewrite = (edit: (s: { heading: string; markdown: string; citations: string[] }[]) => unknown[] = (s) => s) =>
  JSON.stringify({ title: 'A proposal for Harbor & Vine Market', sections: edit(draft.sections.map((s) => ({ ...s, markdown: s.markdown.replace(/\bwe\b/g, 'our team') }))) });

describe('skills: LLM prompt and answer check', () => {
  it('builds a system and a user message with the rules, the headings, the allowed ids and only cited documents', () => {
    const [system, user] = buildLlmMessages('proposal_writer', c.inputs, draft, docs);
    assert.equal(system.role, 'system');
    assert.match(system.content, /Answer each pain point by name/);
    assert.match(system.content, /\["Summary","Your challenges","Our approach","Proof","Next steps"\]/);
    assert.match(system.content, /You may cite only these ids: \["case_study:cs-1","win:win-1","win:win-2"\]/);
    const payload = JSON.parse(user.content) as { documents: { id: string }[]; draft: { sections: unknown[] } };
    assert.deepEqual(payload.documents.map((d) => d.id), ['case_study:cs-1', 'win:win-1', 'win:win-2']);
    assert.equal(payload.draft.sections.length, 5);
  });

  it('builds tone and severity rules into the other skills’ prompts', () => {
    const rn = CASES.find((x) => x.name === 'formal-1.2.1-2.0.0')!;
    assert.match(buildLlmMessages(rn.skill, rn.inputs, runCase(rn), [])[0].content, /no contractions, no exclamation marks/);
    const rca = CASES.find((x) => x.name === 'sev1-INC-2025-014')!;
    assert.match(buildLlmMessages(rca.skill, rca.inputs, runCase(rca), [])[0].content, /Customer-facing summary/);
  });

  it('accepts a faithful rewrite, rebuilt as a full result by the model', () => {
    const verdict = acceptLlmAnswer('proposal_writer', c.inputs, `\`\`\`json\n${rewrite()}\n\`\`\``, draft, docs, 'gpt-test');
    assert.ok(verdict.ok, JSON.stringify(!verdict.ok && verdict.violations));
    assert.equal(verdict.result.generator, 'llm:gpt-test');
    assert.equal(verdict.result.title, 'A proposal for Harbor & Vine Market');
    assert.deepEqual(verdict.result.citations, draft.citations);
    assert.deepEqual(verdict.result.retrieval, draft.retrieval);
    assert.match(verdict.result.markdown, /^# A proposal for Harbor & Vine Market\n\n## Summary\n/);
  });

  it('rejects an answer that is not JSON, cites what was not retrieved, or loses a section', () => {
    const bad = (text: string) => {
      const v = acceptLlmAnswer('proposal_writer', c.inputs, text, draft, docs, 'm');
      assert.equal(v.ok, false);
      return v.ok ? [] : v.violations.map((x) => x.message);
    };
    assert.deepEqual(bad('Sure! Here is your proposal.'), ['the answer is not JSON']);
    assert.deepEqual(bad(rewrite((s) => s.map((x, i) => (i === 0 ? { ...x, citations: [...x.citations, 'case_study:cs-99'] } : x)))), ['case_study:cs-99 was not retrieved']);
    assert.deepEqual(bad(rewrite((s) => s.map((x, i) => (i === 1 ? { ...x, markdown: `${x.markdown} [pr:1]` } : x)))), ['pr:1 was not retrieved'], 'an inline marker counts as a citation');
    assert.match(bad(rewrite((s) => s.slice(0, 4)))[0], /^headings must be, in order/);
    assert.match(bad(JSON.stringify({ title: 'x', sections: [{ heading: 'Summary' }] }))[0], /^the answer must be/);
  });

  it('reports documents the model stopped citing as excluded', () => {
    const v = acceptLlmAnswer(
      'proposal_writer',
      c.inputs,
      rewrite((s) => s.map((x) => ({ ...x, markdown: x.markdown.replace(/\[win:win-2\]/g, ''), citations: x.citations.filter((id) => id !== 'win:win-2') }))),
      draft,
      docs,
      'm',
    );
    assert.ok(v.ok);
    assert.equal(v.result.retrieval.used, 2);
    assert.deepEqual(v.result.retrieval.excluded.find((e) => e.id === 'win:win-2'), { id: 'win:win-2', reason: 'not cited in the result' });
  });
});
