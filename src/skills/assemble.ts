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
 * return order never changes the output.
 */
export function prepareDocuments(docs: readonly ProjectDocument[]): ProjectDocument[] {
  const sorted = docs.map(withDefaults).sort(
    (a, b) => DOCUMENT_KINDS.indexOf(a.kind) - DOCUMENT_KINDS.indexOf(b.kind) || compareText(citationId(a), citationId(b)) || compareText(a.externalId, b.externalId),
  );
  const seen = new Set<string>();
  return sorted.filter((d) => {
    const id = citationId(d);
    return !seen.has(id) && seen.add(id);
  });
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
  const byId = new Map(input.documents.map((d) => [citationId(d), d]));
  const cited = [...new Set(input.sections.flatMap((s) => s.citations))];
  const citations = cited.map((id) => {
    const doc = byId.get(id);
    if (!doc) throw new Error(`section cites ${id}, which retrieval did not return`);
    // Only http(s) and mailto links reach a result, whatever a stored document says.
    return { id, kind: doc.kind, title: doc.title, url: safeUrl(doc.url) ?? null };
  });
  const citedSet = new Set(cited);
  const searched: Partial<Record<DocumentKind, number>> = {};
  for (const kind of input.searchedKinds) searched[kind] = 0;
  for (const doc of input.documents) searched[doc.kind] = (searched[doc.kind] ?? 0) + 1;
  const excluded = input.documents
    .map(citationId)
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
