/**
 * Turns drafted sections into a SkillResult: the citation list, and the retrieval report in which every
 * retrieved document is either used (cited) or excluded with a reason. Shared by the deterministic drafters
 * and by the acceptance of a model's answer, so both report the same way.
 */
import { citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import { linkDefinitions, safeUrl } from './markdown';
import type { ResultSection, SkillResult } from './result';
import { compareText } from './text';
import { DOCUMENT_KINDS, type DocumentKind } from './types';

/** Fields the drafters read that a stored document may lack: a sales note need not name its customer. */
function withDefaults(doc: ProjectDocument): ProjectDocument {
  return doc.kind === 'sales_note' && typeof doc.customer !== 'string' ? { ...doc, customer: '' } : doc;
}

/**
 * Retrieved documents in a canonical order (kind, then citation id) without repeats, so that the store's
 * return order never changes the output. Each document's kind rank and citation id (as compareText reads
 * it) are computed once, not in every comparison: a proposal sorts up to 1,500 documents.
 */
export function prepareDocuments(docs: readonly ProjectDocument[]): ProjectDocument[] {
  const keyed = docs.map((d) => {
    const doc = withDefaults(d);
    const id = citationId(doc);
    return { doc, kind: DOCUMENT_KINDS.indexOf(doc.kind), id, lower: id.toLowerCase() };
  });
  keyed.sort(
    (a, b) =>
      a.kind - b.kind ||
      // compareText(a.id, b.id), its lower-cased forms computed once.
      (a.lower !== b.lower ? (a.lower < b.lower ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
      compareText(a.doc.externalId, b.doc.externalId),
  );
  const seen = new Set<string>();
  const out: ProjectDocument[] = [];
  for (const k of keyed) {
    if (seen.has(k.id)) continue;
    seen.add(k.id);
    out.push(k.doc);
  }
  return out;
}

export interface AssembleInput {
  title: string;
  sections: ResultSection[];
  /** Renders the whole markdown document from title and sections (it differs per format); link definitions are appended. */
  render: (title: string, sections: readonly ResultSection[]) => string;
  /** What retrieval returned, as prepared by prepareDocuments. */
  documents: readonly ProjectDocument[];
  /** Kinds the plan searched, reported even when nothing was found. */
  searchedKinds: readonly DocumentKind[];
  /** Why a retrieved document was left out, by citation id. */
  reasons: ReadonlyMap<string, string>;
  generator: string;
}

/** Reason given to a retrieved document that the selection kept but the text does not cite. */
const NOT_CITED = 'not cited in the result';

export function assembleResult(input: AssembleInput): SkillResult {
  const ids = input.documents.map(citationId);
  const cited = [...new Set(input.sections.flatMap((s) => s.citations))];
  const citedSet = new Set(cited);
  // The cited documents only (the last of an id, as a map of all would give): a proposal retrieves 1,500.
  const byId = new Map<string, ProjectDocument>();
  ids.forEach((id, i) => {
    if (citedSet.has(id)) byId.set(id, input.documents[i]!);
  });
  const citations = cited.map((id) => {
    const doc = byId.get(id);
    if (!doc) throw new Error(`section cites ${id}, which retrieval did not return`);
    // Only http(s) and mailto links reach a result, whatever a stored document says.
    return { id, kind: doc.kind, title: doc.title, url: safeUrl(doc.url) ?? null };
  });
  const searched: Partial<Record<DocumentKind, number>> = {};
  for (const kind of input.searchedKinds) searched[kind] = 0;
  for (const doc of input.documents) searched[doc.kind] = (searched[doc.kind] ?? 0) + 1;
  const excluded = ids
    .filter((id) => !citedSet.has(id))
    .map((id) => ({ id, reason: input.reasons.get(id) ?? NOT_CITED }));
  return {
    format: 'markdown',
    title: input.title,
    markdown: input.render(input.title, input.sections) + linkDefinitions(citations),
    sections: input.sections,
    citations,
    generator: input.generator,
    retrieval: { searched, used: citations.length, excluded },
  };
}
