/**
 * Relevance of wins, case studies and sales notes to a prospect: BM25 (minisearch's scoring) per pain point,
 * boosted for the same industry and for recency, behind a relevance gate so that a document sharing one
 * common word with a pain point is not passed off as evidence.
 *
 * Per invocation the cost follows the pain points' postings, not the library: the index (library-index.ts)
 * is built once per library; each pain point adds up the postings of its terms, and a proposal keeps only
 * the few best documents it has room for (rankTopEvidence, a bounded insertion) and one relevance flag per
 * document, instead of sorting every relevant document.
 */
import type { EvidenceDocument } from '../documents';
import { DAY_MS, toMillis } from '../time';
import { libraryIndex, type LibraryIndex } from './library-index';
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

const round = (x: number) => Math.round(x * 1e9) / 1e9;

/** Per call: priors, the industry test and the per-pain-point scoring over one library index. */
class Scorer {
  private readonly priors: Float64Array;
  private readonly industrySame: Int8Array;
  private readonly wanted: Set<string> | null;
  private readonly nowMs: number;
  private readonly customer: string;
  // Scratch for one pain point at a time; only the entries a pain point touched are reset after it.
  private readonly sums: Float64Array;
  private readonly covered: Float64Array;
  private readonly quality: Int32Array;
  private readonly touched: Int32Array;
  private readonly mark: Uint8Array;
  /** The last pain point's relevant documents: ordinals, scores and gate values, `passed` of them. */
  readonly passedDoc: Int32Array;
  readonly passedScore: Float64Array;
  readonly passedCoverage: Float64Array;

  constructor(
    private readonly lib: LibraryIndex,
    private readonly docs: readonly EvidenceDocument[],
    profile: Profile,
    now: string,
  ) {
    this.nowMs = toMillis(now);
    this.wanted = profile.industry ? new Set(termsOf(profile.industry)) : null;
    this.industrySame = new Int8Array(lib.industries.length).fill(-1);
    this.priors = new Float64Array(lib.n).fill(Number.NaN);
    this.customer = profile.customerName.trim().toLowerCase();
    this.sums = new Float64Array(lib.n);
    this.covered = new Float64Array(lib.n);
    this.quality = new Int32Array(lib.n);
    this.touched = new Int32Array(lib.n);
    this.mark = new Uint8Array(lib.n);
    this.passedDoc = new Int32Array(lib.n);
    this.passedScore = new Float64Array(lib.n);
    this.passedCoverage = new Float64Array(lib.n);
  }

  /** Whether a document's industry shares a term with the prospect's; a library has few distinct industries. */
  sameIndustry(i: number): boolean {
    if (!this.wanted) return false;
    const c = this.lib.industryOf[i]!;
    let same = this.industrySame[c]!;
    if (same < 0) {
      const wanted = this.wanted;
      same = termsOf(this.lib.industries[c] as string).some((t) => wanted.has(t)) ? 1 : 0;
      this.industrySame[c] = same;
    }
    return same === 1;
  }

  /** Industry × recency × kind, once per document and call. */
  prior(i: number): number {
    let value = this.priors[i]!;
    if (Number.isNaN(value)) {
      const ageDays = Math.max(0, (this.nowMs - this.lib.dateMs(i)) / DAY_MS);
      const recency = 0.5 + 0.5 * Math.pow(2, -ageDays / RECENCY_HALF_LIFE_DAYS);
      value = (this.sameIndustry(i) ? SAME_INDUSTRY_BOOST : 1) * recency * KIND_WEIGHT[this.docs[i]!.kind];
      this.priors[i] = value;
    }
    return value;
  }

  /** Same industry or same customer as the prospect. */
  isProfile(i: number): boolean {
    if (this.sameIndustry(i)) return true;
    const key = this.lib.customerKeys[i];
    return key === null ? this.docs[i]!.customer.trim().toLowerCase() === this.customer : key === this.customer;
  }

  private idf(term: string): number {
    const k = this.lib.df.get(term) ?? 0;
    return Math.log(1 + (this.lib.n - k + 0.5) / (k + 0.5));
  }

  /**
   * Scores one pain point; returns how many documents pass the gate, found (in no particular order) in
   * passedDoc / passedScore / passedCoverage. The score is minisearch's OR query: each query term's postings
   * added in query order (a repeated term counts again), times the number of distinct query terms matched;
   * then times the prior.
   */
  scorePainPoint(painPoint: string): number {
    const queryTerms = termsOf(painPoint);
    const total = queryTerms.reduce((sum, t) => sum + this.idf(t), 0);
    if (total === 0) return 0;
    const { sums, covered, quality, touched, mark } = this;
    const { postings } = this.lib;
    let count = 0;
    for (const token of tokenize(painPoint)) {
      const term = processTerm(token);
      const list = term ? postings.get(term) : undefined;
      if (!list) continue;
      const { docs, scores } = list;
      for (let j = 0; j < docs.length; j++) {
        const i = docs[j]!;
        if (mark[i] === 0) {
          mark[i] = 1;
          touched[count++] = i;
        }
        sums[i] += scores[j]!;
      }
    }
    // The gate: the IDF-weighted share of the pain point's distinct terms that the document contains.
    for (const term of queryTerms) {
      const list = postings.get(term);
      if (!list) continue;
      const weight = this.idf(term);
      for (const i of list.docs) {
        quality[i]++;
        covered[i] += weight;
      }
    }
    let passed = 0;
    for (let j = 0; j < count; j++) {
      const i = touched[j]!;
      const coverage = round(covered[i]! / total);
      const score = round(sums[i]! * quality[i]! * this.prior(i));
      sums[i] = 0;
      covered[i] = 0;
      quality[i] = 0;
      mark[i] = 0;
      if (coverage >= MIN_COVERAGE) {
        this.passedDoc[passed] = i;
        this.passedScore[passed] = score;
        this.passedCoverage[passed] = coverage;
        passed++;
      }
    }
    return passed;
  }
}

interface Entry {
  i: number;
  score: number;
  coverage: number;
}

/** Whether (score a, document a) comes before (score b, document b): higher score, then citation id order. */
const before = (lib: LibraryIndex, aScore: number, a: number, bScore: number, b: number) =>
  (bScore - aScore || lib.idOrder[a]! - lib.idOrder[b]!) < 0;

/** Keeps the `k` best entries of those offered, best first: a bounded insertion, k is a handful. */
class Bounded {
  readonly best: Entry[] = [];
  constructor(
    private readonly lib: LibraryIndex,
    private readonly k: number,
  ) {}

  offer(i: number, score: number, coverage: number): void {
    const { best, k, lib } = this;
    if (k <= 0) return;
    if (best.length === k) {
      const last = best[k - 1]!;
      if (!before(lib, score, i, last.score, last.i)) return;
    }
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && before(lib, score, i, best[at - 1]!.score, best[at - 1]!.i)) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = { i, score, coverage };
  }
}

export interface TopRanking {
  /** Per pain point (same order as the input), the best `perPainPoint` relevant documents that `keep` accepts. */
  byPainPoint: ScoredEvidence[][];
  /** The best `profile` profile documents that `keep` accepts. */
  profile: EvidenceDocument[];
  /** Per document (same order as `docs`): 1 when it is relevant to a pain point or related to the prospect. */
  relevant: Uint8Array;
  /** Per document (same order as `docs`): its citation id. */
  ids: readonly string[];
}

/**
 * The ranking, limited to what a proposal uses: per pain point its relevant documents and the profile
 * documents, each list best first (higher score, then citation id order), filtered with `keep` and cut to its
 * room; and which documents appear in any list.
 */
export function rankTopEvidence(
  docs: readonly EvidenceDocument[],
  profile: Profile,
  painPoints: readonly string[],
  now: string,
  top: { perPainPoint: number; profile: number; keep: (doc: EvidenceDocument) => boolean },
): TopRanking {
  const lib = libraryIndex(docs);
  const scorer = new Scorer(lib, docs, profile, now);
  const relevant = new Uint8Array(lib.n);
  const toScored = (e: Entry): ScoredEvidence => ({ doc: docs[e.i]!, coverage: e.coverage, score: e.score });
  const byPainPoint = painPoints.map((painPoint) => {
    const best = new Bounded(lib, top.perPainPoint);
    const passed = scorer.scorePainPoint(painPoint);
    for (let j = 0; j < passed; j++) {
      const i = scorer.passedDoc[j]!;
      relevant[i] = 1;
      if (top.keep(docs[i]!)) best.offer(i, scorer.passedScore[j]!, scorer.passedCoverage[j]!);
    }
    return best.best.map(toScored);
  });
  const best = new Bounded(lib, top.profile);
  for (let i = 0; i < lib.n; i++) {
    if (!scorer.isProfile(i)) continue;
    relevant[i] = 1;
    const score = round(scorer.prior(i));
    if (top.keep(docs[i]!)) best.offer(i, score, 0);
  }
  return { byPainPoint, profile: best.best.map((e) => docs[e.i]!), relevant, ids: lib.ids };
}
