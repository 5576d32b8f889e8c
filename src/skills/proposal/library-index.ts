/**
 * The ranking index of an evidence library (wins, case studies, sales notes: up to 1,500 documents), built
 * once per distinct library and reused while an equal library comes back: the worker's cache of whole-kind
 * reads hands back the same rows until the next upload, so most proposals find it here.
 *
 * The index holds what does not depend on the invocation: for every term, its BM25 impact per document
 * (the fields' scores already boosted and summed), the gate's document frequencies, and per document its
 * citation id, the rank of that id in citation order, its industry and its normalised customer. A query then
 * reads only the postings of its own terms. Per invocation the library costs one comparison of its values
 * (to find its index) and the profile test per document; nothing copies, maps, scores or sorts all of it.
 *
 * The scores are minisearch 7's, bit for bit (test/unit/skills/proposal-index.test.ts compares them): the
 * same tokenizer and term processing, field lengths in distinct raw tokens, average field lengths kept as a
 * running mean in document order, BM25 with k = 1.2, b = 0.7, d = 0.5 and the per-field document frequency,
 * field scores summed in field order.
 */
import { citationId } from '../citation-id';
import type { EvidenceDocument } from '../documents';
import { compareText } from '../text';
import { toMillis } from '../time';
import { processTerm, tokenize } from './terms';

export const INDEXED_FIELDS = ['title', 'body', 'industry', 'outcome', 'customer', 'metrics'] as const;
type IndexedField = (typeof INDEXED_FIELDS)[number];

/** Per field of INDEXED_FIELDS: a title or an outcome counts double, metrics 1.5 times. */
const FIELD_BOOST: readonly number[] = [2, 1, 1, 2, 1, 1.5];
/** minisearch's BM25 parameters (its defaults). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** The libraries kept, most recently used first: a worker serves few projects at a time. */
const MEMO_SIZE = 4;

export function fieldText(doc: EvidenceDocument, field: IndexedField): string {
  if (field === 'metrics') return (doc.metrics ?? []).join(' ; ');
  return String((doc as unknown as Record<string, unknown>)[field] ?? '');
}

/** One term's documents (ascending ordinals) and its BM25 score in each. */
export interface Postings {
  docs: Int32Array;
  scores: Float64Array;
}

export interface LibraryIndex {
  /** Number of documents; ordinals are positions in the library as given. */
  n: number;
  ids: readonly string[];
  /** Each document's position in compareText order of citation ids: ties in score break on it. */
  idOrder: Int32Array;
  postings: ReadonlyMap<string, Postings>;
  /** Document frequencies for the relevance gate, over all indexed fields together. */
  df: ReadonlyMap<string, number>;
  /** The distinct industry values, and each document's index into them. */
  industries: readonly unknown[];
  industryOf: Int32Array;
  /** `customer.trim().toLowerCase()`, or null when the customer is not a string. */
  customerKeys: readonly (string | null)[];
  /** The document's date in ms (toMillis, so an invalid date throws when it is first needed, as before). */
  dateMs: (i: number) => number;
}

/** minisearch's calcBM25Score, the same expression. */
function bm25(termFreq: number, matchingCount: number, totalCount: number, fieldLength: number, avgFieldLength: number): number {
  const { k, b, d } = BM25;
  const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
  return invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
}

function buildLibraryIndex(docs: readonly EvidenceDocument[]): LibraryIndex {
  const n = docs.length;
  const ids = docs.map(citationId);
  const known = new Set<string>();
  for (const id of ids) {
    if (known.has(id)) throw new Error(`duplicate evidence document ${id}`);
    known.add(id);
  }

  // Per term and field: the documents containing it (ascending) and how often. Field lengths count distinct
  // raw tokens, their means run in document order (minisearch's bookkeeping). The gate's document frequencies
  // come from the same terms: a document's terms over all its fields.
  const fields = INDEXED_FIELDS.length;
  const lengths = INDEXED_FIELDS.map(() => new Float64Array(n));
  const averages = new Array<number>(fields).fill(0);
  const occurrences = new Map<string, ({ docs: number[]; tfs: number[] } | undefined)[]>();
  const df = new Map<string, number>();
  // processTerm is pure and a library repeats its words: each distinct token is processed once per build.
  const termOf = new Map<string, string | null>();
  for (let i = 0; i < n; i++) {
    const docTerms = new Set<string>();
    for (let f = 0; f < fields; f++) {
      const tokens = tokenize(fieldText(docs[i]!, INDEXED_FIELDS[f]!));
      const length = new Set(tokens).size;
      lengths[f]![i] = length;
      averages[f] = (averages[f]! * i + length) / (i + 1);
      for (const token of tokens) {
        let term = termOf.get(token);
        if (term === undefined) termOf.set(token, (term = processTerm(token)));
        if (!term) continue;
        docTerms.add(term);
        let byField = occurrences.get(term);
        if (!byField) occurrences.set(term, (byField = new Array<{ docs: number[]; tfs: number[] } | undefined>(fields)));
        const list = (byField[f] ??= { docs: [], tfs: [] });
        const last = list.docs.length - 1;
        if (list.docs[last] === i) list.tfs[last]!++;
        else {
          list.docs.push(i);
          list.tfs.push(1);
        }
      }
    }
    for (const t of docTerms) df.set(t, (df.get(t) ?? 0) + 1);
  }

  // Impact postings: per term and document, the fields' boosted scores summed in field order.
  const postings = new Map<string, Postings>();
  const sum = new Float64Array(n);
  const seen = new Uint8Array(n);
  for (const [term, byField] of occurrences) {
    const touched: number[] = [];
    for (let f = 0; f < fields; f++) {
      const list = byField[f];
      if (!list) continue;
      const matching = list.docs.length;
      for (let j = 0; j < matching; j++) {
        const i = list.docs[j]!;
        const weighted = FIELD_BOOST[f]! * bm25(list.tfs[j]!, matching, n, lengths[f]![i]!, averages[f]!);
        if (seen[i]) sum[i] += weighted;
        else {
          seen[i] = 1;
          sum[i] = weighted;
          touched.push(i);
        }
      }
    }
    touched.sort((a, b) => a - b);
    postings.set(term, { docs: Int32Array.from(touched), scores: Float64Array.from(touched, (i) => sum[i]!) });
    for (const i of touched) seen[i] = 0;
  }

  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => compareText(ids[a]!, ids[b]!));
  const idOrder = new Int32Array(n);
  order.forEach((i, rank) => (idOrder[i] = rank));

  const industries: unknown[] = [];
  const industryIndex = new Map<unknown, number>();
  const industryOf = new Int32Array(n);
  docs.forEach((doc, i) => {
    let c = industryIndex.get(doc.industry);
    if (c === undefined) {
      c = industries.push(doc.industry) - 1;
      industryIndex.set(doc.industry, c);
    }
    industryOf[i] = c;
  });
  const customerKeys = docs.map((doc) => (typeof doc.customer === 'string' ? doc.customer.trim().toLowerCase() : null));

  // Read from the values the index was built from (never from the objects, which a caller may change later).
  const dateValues = docs.map((doc) => doc.date);
  const dates = new Float64Array(n).fill(Number.NaN);
  const dateMs = (i: number) => {
    let ms = dates[i]!;
    if (Number.isNaN(ms)) dates[i] = ms = toMillis(dateValues[i]!);
    return ms;
  };

  return { n, ids, idOrder, postings, df, industries, industryOf, customerKeys, dateMs };
}

/**
 * What the index was built from: each document's kind, external id (its citation id), date and indexed
 * fields, as values. A library matches when every value is the same (===: the same strings, usually the very
 * same objects, since the worker's cache shares its rows); a value that is an object is never taken as the
 * same, so such a library is simply indexed again.
 */
interface Snapshot {
  values: unknown[];
  metrics: (readonly unknown[] | undefined)[];
}

const VALUES_PER_DOC = 8;

function snapshotOf(docs: readonly EvidenceDocument[]): Snapshot | null {
  const values: unknown[] = [];
  const metrics: (readonly unknown[] | undefined)[] = [];
  for (const doc of docs) {
    values.push(doc.kind, doc.externalId, doc.date, doc.title, doc.body, doc.industry, doc.outcome, doc.customer);
    const m: unknown = doc.metrics;
    if (m !== undefined && !Array.isArray(m)) return null;
    metrics.push(m === undefined ? undefined : [...(m as unknown[])]);
  }
  if (values.some(isObject) || metrics.some((m) => m?.some(isObject))) return null;
  return { values, metrics };
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null;

function matches(snapshot: Snapshot, docs: readonly EvidenceDocument[]): boolean {
  const { values: v, metrics } = snapshot;
  if (v.length !== docs.length * VALUES_PER_DOC) return false;
  for (let i = 0, j = 0; i < docs.length; i++, j += VALUES_PER_DOC) {
    const doc = docs[i]!;
    if (
      doc.kind !== v[j] ||
      doc.externalId !== v[j + 1] ||
      doc.date !== v[j + 2] ||
      doc.title !== v[j + 3] ||
      doc.body !== v[j + 4] ||
      doc.industry !== v[j + 5] ||
      doc.outcome !== v[j + 6] ||
      doc.customer !== v[j + 7]
    ) {
      return false;
    }
    const m: unknown = doc.metrics;
    const was = metrics[i];
    if (m === undefined || was === undefined) {
      if (m !== was) return false;
      continue;
    }
    if (!Array.isArray(m) || m.length !== was.length) return false;
    for (let k = 0; k < m.length; k++) if (m[k] !== was[k]) return false;
  }
  return true;
}

const MEMO: { snapshot: Snapshot; index: LibraryIndex }[] = [];

/** The index of this library: reused when an equal library was indexed recently, else built (and kept). */
export function libraryIndex(docs: readonly EvidenceDocument[]): LibraryIndex {
  const at = MEMO.findIndex((m) => matches(m.snapshot, docs));
  if (at >= 0) {
    const [hit] = MEMO.splice(at, 1);
    MEMO.unshift(hit!);
    return hit!.index;
  }
  const index = buildLibraryIndex(docs);
  const snapshot = snapshotOf(docs);
  if (snapshot) {
    MEMO.unshift({ snapshot, index });
    if (MEMO.length > MEMO_SIZE) MEMO.pop();
  }
  return index;
}
