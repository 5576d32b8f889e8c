/**
 * Markdown building blocks shared by the drafters. A fact cites its sources inline with markers such as
 * [pr:12] or [ticket:WEB-7]; a section's `citations` are read back from its markers, so the list can never
 * disagree with the prose. The whole document ends with link reference definitions ([pr:12]: https://...),
 * which turn the markers into links without cluttering the prose; a section shown alone keeps plain markers.
 */
import { CITATION_PREFIXES, citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import type { DraftSection, ResultCitation, ResultSection } from './result';

const PREFIXES: ReadonlySet<string> = new Set(CITATION_PREFIXES);
const LONGEST_PREFIX = Math.max(...CITATION_PREFIXES.map((p) => p.length));
const isSpaceChar = (c: string) => /\s/.test(c);

/** The inline citation marker of a document. */
export function cite(doc: ProjectDocument): string {
  return `[${citationId(doc)}]`;
}

/** Link reference definitions for the cited documents that have a URL, to end the whole document with. */
export function linkDefinitions(citations: readonly ResultCitation[]): string {
  const lines = citations.flatMap((c) => {
    const url = safeUrl(c.url);
    return url ? [`[${c.id}]: <${url.replace(/[<>]/g, encodeURIComponent)}>`] : [];
  });
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

/**
 * Citation markers in `markdown` ("[pr:12]": a known prefix, a colon, then no space up to "]"), in order, with
 * their positions. One pass over the text, however the brackets fall.
 */
export function citationMarkers(markdown: string): { id: string; start: number; end: number }[] {
  const out: { id: string; start: number; end: number }[] = [];
  let i = markdown.indexOf('[');
  while (i >= 0) {
    let colon = -1;
    for (let j = i + 1; j <= i + 1 + LONGEST_PREFIX && j < markdown.length && colon < 0; j++) if (markdown[j] === ':') colon = j;
    if (colon < 0 || !PREFIXES.has(markdown.slice(i + 1, colon))) {
      i = markdown.indexOf('[', i + 1);
      continue;
    }
    let k = colon + 1;
    while (k < markdown.length && markdown[k] !== ']' && !isSpaceChar(markdown[k]!)) k++;
    if (k < markdown.length && markdown[k] === ']' && k > colon + 1) out.push({ id: markdown.slice(i + 1, k), start: i, end: k + 1 });
    // Any "[" between i and k ends its candidate at the same k: none of them needs a look of its own.
    i = markdown.indexOf('[', Math.max(k, i + 1));
  }
  return out;
}

/** Citation ids marked in `markdown`, in order of first appearance. */
export function extractCitationIds(markdown: string): string[] {
  return [...new Set(citationMarkers(markdown).map((m) => m.id))];
}

/** Schemes a link in a result may use: web pages and mail; anything else (javascript:, data:) is never linked. */
const SAFE_SCHEMES = ['https://', 'http://', 'mailto:'];
const URL_MAX = 2000;

/** The URL when it is an http(s) or mailto link without whitespace or control characters, else undefined. */
export function safeUrl(url: string | undefined | null): string | undefined {
  if (!url || url.length > URL_MAX) return undefined;
  const lower = url.slice(0, 8).toLowerCase();
  if (!SAFE_SCHEMES.some((s) => lower.startsWith(s)) || url.length <= 8) return undefined;
  for (let i = 0; i < url.length; i++) if (url.charCodeAt(i) <= 0x20 || url.charCodeAt(i) === 0x7f) return undefined;
  return url;
}

/** A section whose citations are exactly the markers in its prose. */
export function section(heading: string, markdown: string): DraftSection {
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
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/([\\*[\]<>])/g, '\\$1').replace(/(^|\s)_|_(\s|$)/g, (m) => m.replace('_', '\\_')),
    )
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
export function renderDocument(title: string, sections: readonly Pick<ResultSection, 'heading' | 'markdown'>[]): string {
  return `# ${title}\n\n${sections.map((s) => `## ${s.heading}\n\n${s.markdown}\n`).join('\n')}`;
}

/** Lines that start a block of their own: list items, headings, table rows. */
export function startsBlockLine(line: string): boolean {
  const t = line.trimStart();
  if (t.startsWith('- ') || t.startsWith('* ') || t.startsWith('+ ') || t.startsWith('#') || t.startsWith('|')) return true;
  let i = 0;
  while (i < t.length && i < 4 && t[i]! >= '0' && t[i]! <= '9') i++;
  return i > 0 && (t[i] === '.' || t[i] === ')') && t[i + 1] === ' ';
}

export function bulletList(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}
