/**
 * Relevance of wins, case studies and sales notes to a prospect: BM25 (minisearch) per pain point,
 * boosted for the same industry and for recency, behind a relevance gate so that a document sharing one
 * common word with a pain point is not passed off as evidence.
 */
import MiniSearch from 'minisearch';
import { citationId } from '../citation-id';
import type { EvidenceDocument } from '../documents';
import { compareText } from '../text';
import { DAY_MS, toMillis } from '../time';
import { processTerm, termsOf, tokenize } from './terms';

/**
 * The gate: the share of a pain point's information (IDF-weighted terms, words the library never uses
 * included) that a document matches. Below it the document is "not relevant" to that pain point. 0.4 keeps
 * a case study that matches "checkout", "slow" and "peak" for "checkout pages slow down during seasonal
 * peaks", and drops one that only shares "data" and "system" with "loyalty program data lives in a
 * separate system".
 */
export const MIN_COVERAGE = 0.4;

const SAME_INDUSTRY_BOOST = 1.5;
/** Evidence loses half its recency weight per year of age, down to half its score. */
const RECENCY_HALF_LIFE_DAYS = 365;
/** Outcomes with metrics prove more than a win, a win more than a sales team's notes. */
const KIND_WEIGHT = { case_study: 1, win: 0.9, sales_note: 0.7 } as const;

export interface ScoredEvidence {
  doc: EvidenceDocument;
  /** BM25 × industry × recency × kind; orders the relevant documents. */
  score: number;
  /** The gate value, 0..1. */
  coverage: number;
}

export interface Profile {
  customerName: string;
  industry?: string;
}

export interface Ranking {
  /** Relevant documents per pain point, best first (same order as the input pain points). */
  byPainPoint: ScoredEvidence[][];
  /** Documents related to the prospect itself (same industry or same customer), best first. */
  profile: EvidenceDocument[];
}

const round = (x: number) => Math.round(x * 1e9) / 1e9;

function byScore(a: ScoredEvidence, b: ScoredEvidence): number {
  return b.score - a.score || compareText(citationId(a.doc), citationId(b.doc));
}

/** Whether a document's industry shares a term with the prospect's; a library has few distinct industries. */
function sameIndustryTest(industry: string | undefined): (doc: EvidenceDocument) => boolean {
  if (!industry) return () => false;
  const wanted = new Set(termsOf(industry));
  const known = new Map<string, boolean>();
  return (doc) => {
    let same = known.get(doc.industry);
    if (same === undefined) {
      same = termsOf(doc.industry).some((t) => wanted.has(t));
      known.set(doc.industry, same);
    }
    return same;
  };
}

/** What ranking needs from a library, built once per distinct library (see evidenceIndex). */
interface EvidenceIndex {
  index: MiniSearch<EvidenceDocument>;
  /** Document frequencies for the gate, over the same fields and terms as the index. */
  df: Map<string, number>;
  n: number;
}

const INDEXED_FIELDS = ['title', 'body', 'industry', 'outcome', 'customer', 'metrics'] as const;

const fieldText = (doc: EvidenceDocument, field: (typeof INDEXED_FIELDS)[number] | 'citationId'): string => {
  if (field === 'citationId') return citationId(doc);
  if (field === 'metrics') return (doc.metrics ?? []).join(' ; ');
  return String((doc as unknown as Record<string, unknown>)[field] ?? '');
};

function buildEvidenceIndex(docs: readonly EvidenceDocument[]): EvidenceIndex {
  const index = new MiniSearch<EvidenceDocument>({
    fields: [...INDEXED_FIELDS],
    idField: 'citationId',
    extractField: (doc, field) => fieldText(doc, field as (typeof INDEXED_FIELDS)[number] | 'citationId'),
    tokenize,
    processTerm,
    searchOptions: { boost: { title: 2, outcome: 2, metrics: 1.5 }, combineWith: 'OR', prefix: false, fuzzy: false },
  });
  index.addAll(docs);
  const df = new Map<string, number>();
  for (const doc of docs) {
    for (const t of termsOf([doc.title, doc.body, doc.industry, doc.outcome ?? '', doc.customer, ...(doc.metrics ?? [])].join('\n'))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { index, df, n: docs.length };
}

/**
 * Two FNV-1a hashes (64 bits together) of everything the index reads, in order. Equal fingerprints mean the
 * same library, so a built index can be reused: the result is the same as building it again.
 */
function fingerprint(docs: readonly EvidenceDocument[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ docs.length;
  const mix = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    a = Math.imul(a ^ 0x1f, 0x01000193);
    b = Math.imul(b ^ 0x1f, 0x5bd1e995);
  };
  for (const doc of docs) {
    mix(citationId(doc));
    mix(doc.date);
    for (const field of INDEXED_FIELDS) mix(fieldText(doc, field));
  }
  return `${docs.length}:${(a >>> 0).toString(16)}:${(b >>> 0).toString(16)}`;
}

/**
 * The few most recent libraries' indexes. Building one over a large library (1,500 documents) is most of a
 * proposal's cost, and a library changes far less often than proposals are written.
 */
const INDEX_MEMO = new Map<string, EvidenceIndex>();
const INDEX_MEMO_SIZE = 4;

function evidenceIndex(docs: readonly EvidenceDocument[]): EvidenceIndex {
  const key = fingerprint(docs);
  const hit = INDEX_MEMO.get(key);
  if (hit) {
    INDEX_MEMO.delete(key);
    INDEX_MEMO.set(key, hit);
    return hit;
  }
  const built = buildEvidenceIndex(docs);
  INDEX_MEMO.set(key, built);
  if (INDEX_MEMO.size > INDEX_MEMO_SIZE) INDEX_MEMO.delete(INDEX_MEMO.keys().next().value!);
  return built;
}

export function rankEvidence(docs: readonly EvidenceDocument[], profile: Profile, painPoints: readonly string[], now: string): Ranking {
  const { index, df, n } = evidenceIndex(docs);
  // Search hits map back to this call's documents (a reused index may have been built from equal copies).
  const byId = new Map(docs.map((d) => [citationId(d), d]));
  const idf = (term: string) => {
    const k = df.get(term) ?? 0;
    return Math.log(1 + (n - k + 0.5) / (k + 0.5));
  };

  const nowMs = toMillis(now);
  const isSameIndustry = sameIndustryTest(profile.industry);
  // Once per document: each pain point's search scores most of a large library again.
  const priors = new Map<EvidenceDocument, number>();
  const prior = (doc: EvidenceDocument) => {
    let value = priors.get(doc);
    if (value === undefined) {
      const ageDays = Math.max(0, (nowMs - toMillis(doc.date)) / DAY_MS);
      const recency = 0.5 + 0.5 * Math.pow(2, -ageDays / RECENCY_HALF_LIFE_DAYS);
      value = (isSameIndustry(doc) ? SAME_INDUSTRY_BOOST : 1) * recency * KIND_WEIGHT[doc.kind];
      priors.set(doc, value);
    }
    return value;
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
