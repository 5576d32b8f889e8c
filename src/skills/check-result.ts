/**
 * Checks a result (the deterministic draft, or a model's rewrite of it) against the rules every result
 * obeys: the result shape, section headings of the format in order, citations that resolve and were
 * retrieved, every used document cited, every left-out document given a reason, inline citation markers
 * (in the marker form) that the section lists, and publishable markdown free of markers. An empty list
 * means the result may be shown.
 */
import { extractCitationIds } from './markdown';

export interface Violation {
  /** JSON pointer into the result. */
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function shapeViolations(r: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const need = (ok: boolean, path: string, message: string) => ok || out.push({ path, message });
  need(r.format === 'markdown', '/format', 'must be "markdown"');
  need(typeof r.title === 'string' && r.title.trim() !== '', '/title', 'must be a non-empty string');
  need(typeof r.markdown === 'string' && r.markdown.trim() !== '', '/markdown', 'must be a non-empty string');
  need(
    typeof r.markdownWithCitations === 'string' && r.markdownWithCitations.trim() !== '',
    '/markdownWithCitations',
    'must be a non-empty string',
  );
  need(typeof r.generator === 'string' && r.generator !== '', '/generator', 'must be a non-empty string');
  if (!Array.isArray(r.sections)) need(false, '/sections', 'must be an array');
  else
    r.sections.forEach((s, i) =>
      need(
        isObject(s) &&
          typeof s.heading === 'string' &&
          typeof s.markdown === 'string' &&
          typeof s.markdownWithCitations === 'string' &&
          isStringArray(s.citations),
        `/sections/${i}`,
        'must be { heading, markdown, markdownWithCitations, citations: string[] }',
      ),
    );
  if (!Array.isArray(r.citations)) need(false, '/citations', 'must be an array');
  else
    r.citations.forEach((c, i) =>
      need(
        isObject(c) &&
          typeof c.id === 'string' &&
          typeof c.kind === 'string' &&
          typeof c.title === 'string' &&
          (c.url === null || typeof c.url === 'string'),
        `/citations/${i}`,
        'must be { id, kind, title, url }',
      ),
    );
  const ret = r.retrieval;
  need(
    isObject(ret) && isObject(ret.searched) && typeof ret.used === 'number' && Array.isArray(ret.excluded),
    '/retrieval',
    'must be { searched, used, excluded[] }',
  );
  return out;
}

export function checkResult(result: unknown, retrievedIds: Iterable<string>, expectedHeadings: readonly string[]): Violation[] {
  if (!isObject(result)) return [{ path: '', message: 'must be an object' }];
  const shape = shapeViolations(result);
  if (shape.length > 0) return shape;

  const out: Violation[] = [];
  const retrieved = new Set(retrievedIds);
  const sections = result.sections as { heading: string; markdown: string; markdownWithCitations: string; citations: string[] }[];
  const citations = result.citations as { id: string }[];
  const retrieval = result.retrieval as { used: number; excluded: unknown[] };

  const headings = sections.map((s) => s.heading);
  if (headings.length !== expectedHeadings.length || headings.some((h, i) => h !== expectedHeadings[i])) {
    out.push({ path: '/sections', message: `headings must be, in order: ${expectedHeadings.join(' | ')} (got: ${headings.join(' | ')})` });
  }

  const listed = new Set<string>();
  citations.forEach((c, i) => {
    if (listed.has(c.id)) out.push({ path: `/citations/${i}/id`, message: `${c.id} is listed twice` });
    listed.add(c.id);
    if (!retrieved.has(c.id)) out.push({ path: `/citations/${i}/id`, message: `${c.id} was not retrieved` });
  });

  const cited = new Set<string>();
  sections.forEach((s, i) => {
    s.citations.forEach((id, j) => {
      cited.add(id);
      if (!listed.has(id)) out.push({ path: `/sections/${i}/citations/${j}`, message: `${id} is not in result.citations` });
    });
    for (const id of extractCitationIds(s.markdownWithCitations)) {
      if (!s.citations.includes(id))
        out.push({ path: `/sections/${i}/markdownWithCitations`, message: `cites ${id} inline but not in the section's citations` });
    }
    const left = extractCitationIds(s.markdown);
    if (left.length > 0)
      out.push({ path: `/sections/${i}/markdown`, message: `the publishable form still carries the marker [${left[0]}]` });
  });
  citations.forEach((c, i) => {
    if (!cited.has(c.id)) out.push({ path: `/citations/${i}/id`, message: `${c.id} is listed but no section cites it` });
  });
  if (retrieval.used !== listed.size)
    out.push({ path: '/retrieval/used', message: `must equal the number of cited documents (${listed.size})` });

  retrieval.excluded.forEach((e, i) => {
    if (!isObject(e) || typeof e.id !== 'string') return out.push({ path: `/retrieval/excluded/${i}`, message: 'must be { id, reason }' });
    if (typeof e.reason !== 'string' || e.reason.trim() === '')
      out.push({ path: `/retrieval/excluded/${i}/reason`, message: 'must give a reason' });
    if (listed.has(e.id)) out.push({ path: `/retrieval/excluded/${i}/id`, message: `${e.id} is both cited and excluded` });
    if (!retrieved.has(e.id)) out.push({ path: `/retrieval/excluded/${i}/id`, message: `${e.id} was not retrieved` });
  });
  return out;
}
