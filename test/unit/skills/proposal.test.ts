import assert from 'node:assert/strict';
import type { EvidenceDocument } from '../../../src/skills/documents';
import { MIN_COVERAGE } from '../../../src/skills/proposal/rank';
import { rankEvidence } from './full-ranking';
import type { SkillResult } from '../../../src/skills/result';
import { selectAndDraft } from '../../../src/skills/run';
import { countWords } from '../../../src/skills/text';
import { CASES, runCase, type DemoCase } from './cases';
import { DEMO_NOW, loadDemoDocuments } from './demo';

const result = (name: string) => runCase(CASES.find((c) => c.skill === 'proposal_writer' && c.name === name) as DemoCase);
const sectionOf = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)!;
const reasonOf = (r: SkillResult, id: string) => r.retrieval.excluded.find((e) => e.id === id)?.reason;
const PAIN_POINTS = (CASES.find((c) => c.name === 'one-pager-retail')!.inputs as { painPoints: string[] }).painPoints;

const evidence = (over: Partial<EvidenceDocument>): EvidenceDocument => ({
  kind: 'case_study',
  externalId: 'x',
  title: 'Study',
  body: '',
  createdAt: '2024-01-01T00:00:00Z',
  customer: 'Someone',
  industry: 'Retail',
  date: '2024-01-01T00:00:00Z',
  ...over,
});

describe('skills: proposal', () => {
  it('never uses a document unrelated to the prospect: excluded as "not relevant"', () => {
    const r = result('one-pager-retail');
    for (const id of ['sales_note:sn-1', 'sales_note:sn-3', 'win:win-3', 'case_study:cs-2', 'case_study:cs-3'])
      assert.equal(reasonOf(r, id), 'not relevant', id);
    assert.deepEqual(r.citations.map((c) => c.id).sort(), ['case_study:cs-1', 'win:win-1', 'win:win-2']);
  });

  it('answers each pain point by name, with evidence or marked plainly as not backed', () => {
    const challenges = sectionOf(result('one-pager-retail'), 'Your challenges').markdownWithCitations.split('\n');
    assert.equal(challenges.length, PAIN_POINTS.length);
    PAIN_POINTS.forEach((p, i) => assert.ok(challenges[i].startsWith(`- **${p}**: `), p));
    assert.match(challenges[0], /Northwind Grocers \(Retail\): checkout page load at peak: 3\.1 s to 1\.2 s \[case_study:cs-1\]$/);
    assert.match(challenges[3], /: not yet backed by evidence$/);
    assert.match(
      sectionOf(result('one-pager-retail'), 'Our approach').markdownWithCitations,
      /\*\*Loyalty program data lives in a separate system\.\*\* Not yet backed by evidence/,
    );
  });

  it('keeps sales notes internal: relevant ones are ranked but never shown to a prospect', () => {
    const r = result('one-pager-retail');
    assert.equal(reasonOf(r, 'sales_note:sn-2'), 'relevant, but sales notes are internal and not shown to prospects');
    for (const name of ['email-retail', 'one-pager-retail', 'full-deck-retail'])
      assert.ok(!result(name).citations.some((c) => c.kind === 'sales_note'));
  });

  it('writes an email with a subject line, under 200 words, and one call to action', () => {
    const r = result('email-retail');
    assert.deepEqual(
      r.sections.map((s) => s.heading),
      ['Subject', 'Body'],
    );
    assert.ok(r.markdown.startsWith(`**Subject:** ${r.title}\n\n`));
    const body = sectionOf(r, 'Body').markdownWithCitations;
    assert.ok(countWords(r.title) + countWords(body) < 200, `${countWords(body)} words`);
    assert.equal((body.match(/\?/g) ?? []).length, 1, 'exactly one question: the call to action');
    for (const p of PAIN_POINTS) assert.ok(body.includes(p), p);
  });

  it('keeps a long email short by naming the rest of the pain points in one sentence', () => {
    const painPoints = [
      ...PAIN_POINTS,
      ...Array.from({ length: 12 }, (_, i) => `Integration number ${i + 1} with the warehouse management platform is unreliable`),
    ];
    const r = selectAndDraft(
      'proposal_writer',
      { customerName: 'Harbor & Vine Market', industry: 'Retail', format: 'email', painPoints },
      loadDemoDocuments(),
      DEMO_NOW,
    );
    assert.ok(countWords(sectionOf(r, 'Body').markdownWithCitations) <= 200);
  });

  it('lays out a one-pager in the fixed order', () => {
    assert.deepEqual(
      result('one-pager-retail').sections.map((s) => s.heading),
      ['Summary', 'Your challenges', 'Our approach', 'Proof', 'Next steps'],
    );
  });

  it('lays out a full deck as slides separated by ---, one slide per proof point', () => {
    const r = result('full-deck-retail');
    assert.deepEqual(
      r.sections.map((s) => s.heading),
      [
        'Title',
        'Agenda',
        'Challenges',
        'Approach',
        'Proof: Northwind Grocers',
        'Proof: Fernhill Outfitters',
        'Proof: Keystone Health Partners',
        'Plan and timeline',
        'Next steps',
      ],
    );
    assert.equal(r.markdown.split('\n\n---\n\n').length, r.sections.length);
    assert.ok(r.markdown.startsWith('# Proposal for Harbor & Vine Market\n'));
  });

  it('uses the prospect’s industry as evidence when no pain points are given', () => {
    const r = result('one-pager-healthcare-no-pain-points');
    assert.deepEqual(
      r.citations.map((c) => c.id),
      ['win:win-2', 'case_study:cs-2'],
    );
    assert.equal(sectionOf(r, 'Your challenges').citations.length, 0);
  });

  it('invents no pricing and no superlatives', () => {
    for (const name of ['email-retail', 'one-pager-retail', 'full-deck-retail']) {
      assert.doesNotMatch(
        result(name).markdown,
        /[$€£]\s?\d|\bprice|\bdiscount|\b(best|leading|fastest|unmatched|world-class|guarantee)\b(?! regards)/i,
        name,
      );
    }
  });

  it('ranks by relevance, then prefers the same industry and recent evidence', () => {
    const docs = [
      evidence({ externalId: 'old', body: 'We sped up slow checkout pages.', date: '2024-06-01T00:00:00Z' }),
      evidence({ externalId: 'new', body: 'We sped up slow checkout pages.', date: '2025-01-01T00:00:00Z' }),
      evidence({
        externalId: 'other-industry',
        body: 'We sped up slow checkout pages.',
        industry: 'Logistics',
        date: '2025-01-01T00:00:00Z',
      }),
      evidence({ externalId: 'unrelated', body: 'Procurement asked about payment terms.' }),
    ];
    const ranked = rankEvidence(docs, { customerName: 'P', industry: 'Retail' }, ['Slow checkout pages'], DEMO_NOW);
    assert.deepEqual(
      ranked.byPainPoint[0].map((e) => e.doc.externalId),
      ['new', 'old', 'other-industry'],
    );
    assert.ok(ranked.byPainPoint[0].every((e) => e.coverage >= MIN_COVERAGE));
  });

  it('does not pass off a document sharing a common word as evidence', () => {
    const docs = loadDemoDocuments().filter(
      (d): d is EvidenceDocument => d.kind === 'case_study' || d.kind === 'win' || d.kind === 'sales_note',
    );
    const ranked = rankEvidence(
      docs,
      { customerName: 'P' },
      ['Loyalty program data lives in a separate system', 'Order reports'],
      DEMO_NOW,
    );
    assert.deepEqual(ranked.byPainPoint[0], [], 'cs-2 shares "data" and "system" only');
    assert.ok(ranked.byPainPoint[1].length > 0);
  });

  it('reuses the index of an equal library but answers with the documents it was given', () => {
    const library = () => [
      evidence({ externalId: 'a', body: 'We sped up slow checkout pages.' }),
      evidence({ externalId: 'b', body: 'Procurement asked about payment terms.' }),
    ];
    const first = rankEvidence(library(), { customerName: 'P' }, ['Slow checkout pages'], DEMO_NOW);
    const copies = library();
    const again = rankEvidence(copies, { customerName: 'P' }, ['Slow checkout pages'], DEMO_NOW);
    assert.deepEqual(again.byPainPoint, first.byPainPoint);
    assert.equal(again.byPainPoint[0]![0]!.doc, copies[0], "hits are the caller's own document objects");
  });

  it('builds a new index when any indexed text of the library changes', () => {
    const before = rankEvidence(
      [evidence({ externalId: 'a', body: 'Procurement asked about payment terms.' })],
      { customerName: 'P' },
      ['Slow checkout pages'],
      DEMO_NOW,
    );
    assert.deepEqual(before.byPainPoint[0], []);
    const after = rankEvidence(
      [evidence({ externalId: 'a', body: 'We sped up slow checkout pages.' })],
      { customerName: 'P' },
      ['Slow checkout pages'],
      DEMO_NOW,
    );
    assert.deepEqual(
      after.byPainPoint[0]!.map((e) => e.doc.externalId),
      ['a'],
    );
  });
});
