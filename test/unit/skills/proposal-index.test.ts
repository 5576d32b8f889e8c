/**
 * The proposal's ranking index (src/skills/proposal/library-index.ts) against the ranking it replaced: the
 * same BM25 scores as minisearch 7, bit for bit, the same gate, order and profile, on the demo library and on
 * synthetic libraries of 100 to 1,500 documents; rankTopEvidence cut to a proposal's room keeps exactly the first
 * entries of the reference's lists.
 */
import assert from 'node:assert/strict';
import MiniSearch from 'minisearch';
import { syntheticProject } from '../../../bench/lib/synthetic-docs';
import { citationId } from '../../../src/skills/citation-id';
import type { EvidenceDocument } from '../../../src/skills/documents';
import { MIN_COVERAGE, rankTopEvidence, type Profile } from '../../../src/skills/proposal/rank';
import { rankEvidence, type Ranking } from './full-ranking';
import { processTerm, termsOf, tokenize } from '../../../src/skills/proposal/terms';
import { compareText } from '../../../src/skills/text';
import { DAY_MS, toMillis } from '../../../src/skills/time';
import { RETAIL } from './cases';
import { DEMO_NOW, loadDemoDocuments } from './demo';

/** The ranking as it was written with minisearch (before the library index), kept here as the reference. */
function referenceRanking(docs: readonly EvidenceDocument[], profile: Profile, painPoints: readonly string[], now: string): Ranking {
  const fields = ['title', 'body', 'industry', 'outcome', 'customer', 'metrics'] as const;
  const fieldText = (doc: EvidenceDocument, field: (typeof fields)[number] | 'citationId'): string => {
    if (field === 'citationId') return citationId(doc);
    if (field === 'metrics') return (doc.metrics ?? []).join(' ; ');
    return String((doc as unknown as Record<string, unknown>)[field] ?? '');
  };
  const index = new MiniSearch<EvidenceDocument>({
    fields: [...fields],
    idField: 'citationId',
    extractField: (doc, field) => fieldText(doc, field as (typeof fields)[number] | 'citationId'),
    tokenize,
    processTerm,
    searchOptions: { boost: { title: 2, outcome: 2, metrics: 1.5 }, combineWith: 'OR', prefix: false, fuzzy: false },
  });
  index.addAll(docs);
  const df = new Map<string, number>();
  for (const doc of docs) {
    for (const t of termsOf([doc.title, doc.body, doc.industry, doc.outcome ?? '', doc.customer, ...(doc.metrics ?? [])].join('\n')))
      df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = docs.length;
  const byId = new Map(docs.map((d) => [citationId(d), d]));
  const idf = (term: string) => {
    const k = df.get(term) ?? 0;
    return Math.log(1 + (n - k + 0.5) / (k + 0.5));
  };
  const round = (x: number) => Math.round(x * 1e9) / 1e9;
  const byScore = (a: { doc: EvidenceDocument; score: number }, b: { doc: EvidenceDocument; score: number }) =>
    b.score - a.score || compareText(citationId(a.doc), citationId(b.doc));
  const wanted = new Set(profile.industry ? termsOf(profile.industry) : []);
  const isSameIndustry = (doc: EvidenceDocument) => !!profile.industry && termsOf(doc.industry).some((t) => wanted.has(t));
  const nowMs = toMillis(now);
  const weights = { case_study: 1, win: 0.9, sales_note: 0.7 } as const;
  const prior = (doc: EvidenceDocument) => {
    const ageDays = Math.max(0, (nowMs - toMillis(doc.date)) / DAY_MS);
    const recency = 0.5 + 0.5 * Math.pow(2, -ageDays / 365);
    return (isSameIndustry(doc) ? 1.5 : 1) * recency * weights[doc.kind];
  };
  const byPainPoint = painPoints.map((painPoint) => {
    const queryTerms = termsOf(painPoint);
    const total = queryTerms.reduce((sum, t) => sum + idf(t), 0);
    if (total === 0) return [];
    return index
      .search(painPoint)
      .map((r) => {
        const doc = byId.get(String(r.id))!;
        const matched = new Set(r.terms);
        const coverage = round(queryTerms.filter((t) => matched.has(t)).reduce((sum, t) => sum + idf(t), 0) / total);
        return { doc, coverage, score: round(r.score * prior(doc)) };
      })
      .filter((e) => e.coverage >= MIN_COVERAGE)
      .sort(byScore);
  });
  const customer = profile.customerName.trim().toLowerCase();
  const profileDocs = docs
    .filter((d) => isSameIndustry(d) || d.customer.trim().toLowerCase() === customer)
    .map((doc) => ({ doc, coverage: 0, score: round(prior(doc)) }))
    .sort(byScore)
    .map((e) => e.doc);
  return { byPainPoint, profile: profileDocs };
}

const isEvidence = (d: { kind: string }): d is EvidenceDocument => d.kind === 'win' || d.kind === 'case_study' || d.kind === 'sales_note';

/** A synthetic library as the proposal's plan reads it: each kind newest first, at most 500 of each. */
function syntheticLibrary(size: number, seed: number): EvidenceDocument[] {
  const docs = syntheticProject(size, seed).documents.filter(isEvidence);
  return (['case_study', 'win', 'sales_note'] as const).flatMap((kind) =>
    docs
      .filter((d) => d.kind === kind)
      .sort((a, b) => compareText(b.date, a.date))
      .slice(0, 500),
  );
}

const PAIN_POINTS = [
  ...RETAIL.painPoints,
  'checkout pages slow down at seasonal peaks',
  'inventory counts drift between systems',
  'compliance needs an audit trail of every change',
  'slow slow checkout, checkout!',
  'the and of it',
  'Checkout abandonment: 23% (peak season)',
  'quantum blockchain synergy',
];
const PROFILES: Profile[] = [
  { customerName: 'Harbor & Vine Market', industry: 'Retail' },
  { customerName: '  northwind grocers 3 ' },
  { customerName: 'Cedar Labs', industry: 'Healthcare services' },
  { customerName: 'Nobody', industry: 'Space' },
];

describe('skills: proposal ranking index', () => {
  const libraries: [string, EvidenceDocument[]][] = [
    ['demo', loadDemoDocuments().filter(isEvidence)],
    ['synthetic 100', syntheticLibrary(1_000, 42)],
    ['synthetic 1,000', syntheticLibrary(10_000, 7)],
    ['synthetic 1,500', syntheticLibrary(100_000, 42)],
  ];

  for (const [name, library] of libraries) {
    it(`ranks the ${name} library exactly as minisearch did (scores, gate, order, profile)`, () => {
      PROFILES.forEach((profile, p) => {
        for (const now of [DEMO_NOW, '2027-02-03T04:05:06.000Z']) {
          const painPoints = PAIN_POINTS.slice(p, p + 6);
          assert.deepEqual(
            rankEvidence(library, profile, painPoints, now),
            referenceRanking(library, profile, painPoints, now),
            `${profile.customerName} ${now}`,
          );
        }
      });
    });
  }

  it('keeps, per list, exactly the first entries of the reference ranking after the filter, and flags every ranked document', () => {
    const library = syntheticLibrary(10_000, 7);
    const keep = (d: EvidenceDocument) => d.kind !== 'sales_note';
    for (const profile of PROFILES) {
      for (const k of [0, 1, 2, 5]) {
        const full = referenceRanking(library, profile, PAIN_POINTS, DEMO_NOW);
        const top = rankTopEvidence(library, profile, PAIN_POINTS, DEMO_NOW, { perPainPoint: k, profile: k, keep });
        assert.deepEqual(
          top.byPainPoint,
          full.byPainPoint.map((list) => list.filter((e) => keep(e.doc)).slice(0, k)),
        );
        assert.deepEqual(top.profile, full.profile.filter(keep).slice(0, k));
        const ranked = new Set([...full.byPainPoint.flat().map((e) => e.doc), ...full.profile]);
        assert.deepEqual(
          [...top.relevant],
          library.map((d) => (ranked.has(d) ? 1 : 0)),
        );
      }
    }
  });

  it('indexes again when a document it was built from changes in place', () => {
    const library = syntheticLibrary(1_000, 3).map((d) => ({ ...d }));
    const profile = PROFILES[0]!;
    rankEvidence(library, profile, PAIN_POINTS, DEMO_NOW);
    library[5]!.body = 'Quantum blockchain synergy for every checkout.';
    library[9]!.metrics = ['quantum synergy: +40%'];
    library[11]!.date = '2025-05-30T00:00:00.000Z';
    assert.deepEqual(rankEvidence(library, profile, PAIN_POINTS, DEMO_NOW), referenceRanking(library, profile, PAIN_POINTS, DEMO_NOW));
  });

  it("answers with the caller's documents when an equal library (other objects) reuses the index", () => {
    const library = syntheticLibrary(1_000, 5);
    rankEvidence(library, PROFILES[0]!, PAIN_POINTS, DEMO_NOW);
    const copies = library.map((d) => ({ ...d, metrics: d.metrics ? [...d.metrics] : undefined }));
    const again = rankEvidence(copies, PROFILES[0]!, PAIN_POINTS, DEMO_NOW);
    const docs = new Set<EvidenceDocument>(copies);
    assert.ok(again.byPainPoint.flat().every((e) => docs.has(e.doc)) && again.profile.every((d) => docs.has(d)));
    assert.deepEqual(again, referenceRanking(copies, PROFILES[0]!, PAIN_POINTS, DEMO_NOW));
  });

  it('refuses a library with two documents of one citation id, as the index always did', () => {
    const [first] = syntheticLibrary(1_000, 42);
    assert.throws(() => rankEvidence([first!, { ...first! }], PROFILES[0]!, PAIN_POINTS, DEMO_NOW), /duplicate/i);
  });
});
