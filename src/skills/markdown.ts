/**
 * Markdown building blocks shared by the drafters. A fact cites its sources inline with markers such as
 * [pr:12] or [ticket:WEB-7]; a section's `citations` are read back from its markers, so the list can never
 * disagree with the prose. The whole document ends with link reference definitions ([pr:12]: https://...),
 * which turn the markers into links without cluttering the prose; a section shown alone keeps plain markers.
 */
import { CITATION_PREFIXES, citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import type { ResultCitation, ResultSection } from './result';

const MARKER_RE = new RegExp(`\\[((?:${CITATION_PREFIXES.join('|')}):[^\\]\\s]+)\\]`, 'g');

/** The inline citation marker of a document. */
export function cite(doc: ProjectDocument): string {
  return `[${citationId(doc)}]`;
}

/** Link reference definitions for the cited documents that have a URL, to end the whole document with. */
export function linkDefinitions(citations: readonly ResultCitation[]): string {
  const lines = citations.filter((c) => c.url).map((c) => `[${c.id}]: <${c.url!.replace(/[<>\s]/g, encodeURIComponent)}>`);
  return lines.length ? `\n${lines.join('\n')}\n` : '';
}

/** Markers of several documents, space-separated, without repeats. */
export function citeAll(docs: readonly ProjectDocument[]): string {
  const seen = new Set<string>();
  return docs
    .filter((d) => {
      const id = citationId(d);
      return !seen.has(id) && seen.add(id);
    })
    .map(cite)
    .join(' ');
}

/** Citation ids marked in `markdown`, in order of first appearance. */
export function extractCitationIds(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(MARKER_RE)].map((m) => m[1]))];
}

/** A section whose citations are exactly the markers in its prose. */
export function section(heading: string, markdown: string): ResultSection {
  const body = markdown.trim();
  return { heading, markdown: body, citations: extractCitationIds(body) };
}

/**
 * Escapes text taken from documents so it renders as written: emphasis, link and HTML characters are
 * escaped outside `code spans`, which stay as authors wrote them.
 */
export function escapeText(text: string): string {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\*[\]<>])/g, '\\$1').replace(/(^|\s)_|_(\s|$)/g, (m) => m.replace('_', '\\_'))))
    .join('`');
}

/** Text for a table cell: escaped, one line, pipes escaped. */
export function cellText(text: string): string {
  return escapeText(oneLine(text)).replace(/\|/g, '\\|');
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The standard document layout: an H1 title, then an H2 per section, in order. */
export function renderDocument(title: string, sections: readonly ResultSection[]): string {
  return `# ${title}\n\n${sections.map((s) => `## ${s.heading}\n\n${s.markdown}\n`).join('\n')}`;
}

export function bulletList(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}
