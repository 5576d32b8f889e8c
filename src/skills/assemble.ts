/**
 * Turns drafted sections into a SkillResult: the citation list, and the retrieval report in which every
 * retrieved document is either used (cited) or excluded with a reason. Shared by the deterministic drafters
 * and by the acceptance of a model's answer, so both report the same way.
 */
import { citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import { linkDefinitions, safeUrl } from './markdown';
import { footnoteDefinitions, newFootnotes, publishMarkdown } from './publish';
import type { DraftSection, ModelReport, ReleaseStatus, ResultCitation, ResultSection, SkillResult } from './result';
import { compareText } from './text';
import { DOCUMENT_KINDS, type DocumentKind } from './types';

/** Fields the drafters read that a stored document may lack: a sales note need not name its customer. */
function withDefaults(doc: ProjectDocument): ProjectDocument {
  return doc.kind === 'sales_note' && typeof doc.customer !== 'string' ? { ...doc, customer: '' } : doc;
}

/**
 * Retrieved documents in a canonical order (kind, then citation id) without repeats, so that the store's
 * return order never changes the output. Each document's kind rank and citation id (with its lower-cased
 * form, as compareText reads it) are computed once, not in every comparison, and the documents are sorted by
 * position: a proposal sorts up to 1,500 documents.
 */
export function prepareDocuments(docs: readonly ProjectDocument[]): ProjectDocument[] {
  const prepared = docs.map(withDefaults);
  const n = prepared.length;
  const kinds = new Array<number>(n);
  const ids = new Array<string>(n);
  const lower = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const doc = prepared[i]!;
    const id = citationId(doc) as string | undefined;
    kinds[i] = DOCUMENT_KINDS.indexOf(doc.kind);
    if (kinds[i]! < 0 || typeof id !== 'string') return prepareAnyDocuments(prepared);
    ids[i] = id;
    lower[i] = id.toLowerCase();
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort(
    (a, b) =>
      kinds[a]! - kinds[b]! ||
      // compareText(ids[a], ids[b]) with the lower-cased forms computed once.
      (lower[a] !== lower[b] ? (lower[a]! < lower[b]! ? -1 : 1) : ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0) ||
      compareText(prepared[a]!.externalId, prepared[b]!.externalId),
  );
  // A citation id starts with its kind's label, so equal ids are neighbours now: the first of each run stays.
  const out: ProjectDocument[] = [];
  let previous: string | undefined;
  for (const i of order) {
    if (ids[i] === previous) continue;
    previous = ids[i];
    out.push(prepared[i]!);
  }
  return out;
}

/** The same order for documents of a kind the catalog does not know (no citation id): compared as they come. */
function prepareAnyDocuments(prepared: ProjectDocument[]): ProjectDocument[] {
  const sorted = prepared.sort(
    (a, b) =>
      DOCUMENT_KINDS.indexOf(a.kind) - DOCUMENT_KINDS.indexOf(b.kind) ||
      compareText(citationId(a), citationId(b)) ||
      compareText(a.externalId, b.externalId),
  );
  const seen = new Set<string>();
  return sorted.filter((d) => {
    const id = citationId(d);
    return !seen.has(id) && seen.add(id);
  });
}

export interface AssembleInput {
  title: string;
  /** Sections as drafted, with inline citation markers. */
  sections: DraftSection[];
  /** Renders the whole markdown document from title and sections (it differs per format); link definitions or footnotes are appended. */
  render: (title: string, sections: readonly Pick<DraftSection, 'heading' | 'markdown'>[]) => string;
  /** What retrieval returned, as prepared by prepareDocuments. */
  documents: readonly ProjectDocument[];
  /** Kinds the plan searched, reported even when nothing was found. */
  searchedKinds: readonly DocumentKind[];
  /** Why a retrieved document was left out, by citation id. */
  reasons: ReadonlyMap<string, string>;
  generator: string;
  model?: ModelReport;
  /** Remarks for the reader (result.notes). */
  notes?: readonly string[];
  /** Release notes: the version's status (result.release). */
  release?: ReleaseStatus;
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
  const excluded: { id: string; reason: string }[] = [];
  for (const id of ids) if (!citedSet.has(id)) excluded.push({ id, reason: input.reasons.get(id) ?? NOT_CITED });
  const published = publish(input.sections, citations);
  return {
    format: 'markdown',
    title: input.title,
    markdown: input.render(input.title, published.bodies) + (published.footnotes ? `\n${published.footnotes}\n` : ''),
    markdownWithCitations: input.render(input.title, input.sections) + linkDefinitions(citations),
    sections: published.sections,
    citations,
    generator: input.generator,
    ...(input.model ? { model: input.model } : {}),
    retrieval: { searched, used: citations.length, excluded },
    ...(input.notes?.length ? { notes: [...input.notes] } : {}),
    ...(input.release ? { release: input.release } : {}),
  };
}

/**
 * Each section in publishable form (its footnotes defined at its end, so it stands alone), the bodies without
 * those definitions for the whole document, and the document's footnote definitions, numbered across sections.
 */
function publish(drafted: readonly DraftSection[], citations: readonly ResultCitation[]) {
  const byId = new Map(citations.map((c) => [c.id, c]));
  const notes = newFootnotes();
  const bodies = drafted.map((s) => ({ heading: s.heading, markdown: publishMarkdown(s.markdown, byId, notes) }));
  const sections = drafted.map((s, i): ResultSection => {
    const own = footnoteDefinitions(
      s.citations.filter((id) => bodies[i]!.markdown.includes(`[^${notes.numbers.get(id)}]`)),
      byId,
      notes,
    );
    return {
      heading: s.heading,
      markdown: own ? `${bodies[i]!.markdown}\n\n${own}` : bodies[i]!.markdown,
      markdownWithCitations: s.markdown,
      citations: s.citations,
      ...(s.generator ? { generator: s.generator } : {}),
    };
  });
  return { bodies, sections, footnotes: footnoteDefinitions(notes.numbers.keys(), byId, notes) };
}
