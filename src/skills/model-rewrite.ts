/**
 * A model rewrites a deterministic draft one section at a time, so that a small context window suffices
 * and one bad answer costs one section, not the document. For each section the model sees the section's text
 * (with its citation markers) and the skill's instructions, and answers {"markdown": string}. The answer is
 * shown only when it says what the draft says, claim by claim (rewrite-check/); otherwise the draft's section
 * stays and the result says why. Pure: the drafting activity does the calls and keeps the time.
 */
import { assembleResult, prepareDocuments } from './assemble';
import { checkResult } from './check-result';
import { citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import { extractCitationIds, startsBlockLine } from './markdown';
import type { DraftSection, ModelReport, ModelSectionReport, SkillResult } from './result';
import { checkSectionRewrite, describeViolation, type RewriteRule } from './rewrite-check/check-section';
import type { Renderer } from './skill';
import type { DocumentKind } from './types';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The JSON schema a section's answer must follow, for servers that constrain output to a schema. */
export const SECTION_ANSWER_SCHEMA = {
  type: 'object',
  properties: { markdown: { type: 'string' } },
  required: ['markdown'],
  additionalProperties: false,
} as const;

/** Answers longer than this are refused unread: no section is anywhere near it, and parsing costs time. */
export const MAX_ANSWER_CHARS = 200_000;

/**
 * What every section's request says besides the skill's instructions. A model is sent the section's text alone, not
 * the documents it cites: the draft already holds every fact it chose, and with the documents beside it a small
 * model (Qwen2.5-Coder 1.5B, bench/README.md) copied them into its answer (a lead came back with the entries under
 * it, an impact with the incident's whole body) on prompts three times as long. Plain text rather than a JSON
 * payload: asked with JSON, the same model invented entries under a one-line lead.
 */
const RULES = [
  'You are given one section of a document. Rewrite its text so that it reads well in the requested tone: short sentences (at most 20 words each) in the active voice; split a long sentence in two. Say exactly the same things: the same facts, numbers, versions, dates, names, code and links, and the same meaning in every sentence (keep each "not", "no", "no longer", "may", "likely" and "Hypothesis" where it is, and add none). Add nothing, drop nothing.',
  'Keep every citation marker such as [pr:12] or [incident:INC-1] exactly as written, right after the statement it supports, separated by spaces only; cite nothing else.',
  'Keep **bold** labels, bullets, numbered steps and table rows as they are: do not add, merge, split or drop any. Numbered steps and table rows keep their order.',
];
const LEAD_RULE =
  'The text is only the introduction of the section: the list under it is not shown and stays as it is. Answer with the introduction only: no list, no bullets.';
/**
 * Neither "HTML" nor angle brackets: said either way, the 0.5B model answered `<h2>…</h2>` and `<Bugs we fixed for
 * you:>` (a template's `<the rewritten text>` taken literally).
 */
const ANSWER_RULE =
  'Write Markdown, as the text is written; do not write the section heading. Answer with one JSON object and nothing else: {"markdown": "the rewritten text"}.';

/**
 * The most tokens a rewrite of `section` may take: about its own length (a token is some 3–4 characters of
 * English; JSON and markers cost more) with room to spare, never past what any answer needs.
 */
export function answerTokenBudget(section: { markdownWithCitations: string }): number {
  return Math.min(4_096, Math.ceil(rewritePart(section.markdownWithCitations).sent.length / 2) + 256);
}

/**
 * What of a section a model is sent: its prose. A lead before the section's entries (list items, numbered steps,
 * table rows) is sent alone and the entries follow it unchanged (`rest`): entries keep their authors' words and
 * their facts, so regenerating them costs a small model minutes and gains nothing. A section whose prose stands
 * between its entries is sent whole; one with entries only sends nothing (`sent` is empty).
 */
export function rewritePart(markdown: string): { sent: string; rest: string } {
  const lines = markdown.split('\n');
  const first = lines.findIndex((l) => startsBlockLine(l));
  if (first < 0) return { sent: markdown, rest: '' };
  const lead = lines.slice(0, first).join('\n').trim();
  // A paragraph after the entries: a line after a blank one that starts no block and is not indented (a list
  // item's continuation is).
  const proseAfter = lines.some(
    (l, i) => i > first && lines[i - 1]!.trim() === '' && l.trim() !== '' && !startsBlockLine(l) && !/^\s/.test(l),
  );
  if (proseAfter) return { sent: markdown, rest: '' };
  return { sent: lead, rest: lead ? lines.slice(first).join('\n').trim() : markdown };
}

/** The sections worth sending: those that state cited facts and have prose, less the skill's fixed ones. */
export function sectionsToRewrite(draft: SkillResult, fixed: readonly string[] = []): number[] {
  return draft.sections.flatMap((s, i) =>
    s.citations.length > 0 &&
    !fixed.includes(s.heading) &&
    extractCitationIds(s.markdownWithCitations).length > 0 &&
    rewritePart(s.markdownWithCitations).sent !== ''
      ? [i]
      : [],
  );
}

/** The messages asking for a rewrite of section `index` of `draft`: the skill's instructions, the rules, the text. */
export function sectionMessages(instructions: string, draft: SkillResult, index: number): ChatMessage[] {
  const section = draft.sections[index]!;
  const part = rewritePart(section.markdownWithCitations);
  const rules = [...RULES, ...(part.rest ? [LEAD_RULE] : []), ANSWER_RULE];
  return [
    { role: 'system', content: `${instructions}\n\n${rules.join('\n')}` },
    { role: 'user', content: `${SECTION_LABEL}${section.heading}\n${TEXT_LABEL}\n${part.sent}` },
  ];
}

/** How the user message names the section and its text (sectionMessages); a test's fake model reads them back. */
export const SECTION_LABEL = 'Section: ';
export const TEXT_LABEL = 'Text to rewrite:';

/**
 * The model's JSON, tolerating a code fence around it (```json … ```) and raw line breaks or tabs inside its
 * strings (a grammar-constrained small model writes them; JSON wants them escaped); undefined when it is not JSON.
 */
function parseAnswer(text: string): unknown {
  let t = text.trim();
  if (t.length >= 6 && t.startsWith('```') && t.endsWith('```')) {
    t = t.slice(3, -3);
    if (t.startsWith('json')) t = t.slice(4);
  }
  try {
    return JSON.parse(t);
  } catch {
    try {
      return JSON.parse(escapeControlsInStrings(t));
    } catch {
      return undefined;
    }
  }
}

/** JSON text with raw line breaks and tabs inside its strings escaped; one pass. */
function escapeControlsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString && c === '\\') {
      out += c + (text[i + 1] ?? '');
      i++;
    } else if (c === '"') {
      inString = !inString;
      out += c;
    } else if (inString && (c === '\n' || c === '\r' || c === '\t')) out += c === '\n' ? '\\n' : c === '\t' ? '\\t' : '';
    else out += c;
  }
  return out;
}

/** The text of each document a section may draw facts from, by citation id. */
function sourcesOf(documents: readonly ProjectDocument[]): Map<string, string> {
  return new Map(
    documents.map((d) => [
      citationId(d),
      Object.values(d)
        .filter((v) => typeof v === 'string' || typeof v === 'number')
        .join('\n'),
    ]),
  );
}

/**
 * What Markdown renders as raw HTML: a tag (`<p>`, `</li>`), or anything that reads as one — a small model wrote
 * `<Bugs we fixed for you:>` and `<hypothesis>…`, which a renderer takes for tags and does not show. Code spans and
 * autolinks (`<https://…>`) are text. Bounded, so linear.
 */
const CODE_SPAN = /`[^`\n]{0,2000}`/g;
const TAG_LIKE = /<\/?[A-Za-z][^<>\n]{0,200}>/g;
const AUTOLINK = /^<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>$|^<[^\s<>@]+@[^\s<>@]+>$/;

/** The first tag-like text of `answer` (outside code spans, not an autolink) that `sent` does not have. */
function htmlIn(answer: string, sent: string): string | undefined {
  for (const m of answer.replace(CODE_SPAN, '').matchAll(TAG_LIKE)) if (!AUTOLINK.test(m[0]) && !sent.includes(m[0])) return m[0];
  return undefined;
}

/**
 * The answer without the section's heading in front of it, where the draft's text has none: a first line that is
 * only the heading (`## Fix`, `**Fix**`, `Fix:`) or a `Fix:` before the first sentence. The document prints the
 * heading already, so the model's copy is dropped rather than the whole answer refused; the rest is checked as
 * any answer is.
 */
function withoutHeading(answer: string, heading: string, sent: string): string {
  const lower = heading.toLowerCase();
  const firstLine = answer.split('\n', 1)[0]!;
  const bare = firstLine
    .replace(/^#{1,6}\s+/, '')
    .replace(/^\*\*(.*)\*\*$/, '$1')
    .replace(/:\s*$/, '')
    .trim();
  if (bare.toLowerCase() === lower && !sent.startsWith(firstLine)) return answer.slice(firstLine.length).trim();
  const prefix = `${heading}:`;
  if (answer.toLowerCase().startsWith(prefix.toLowerCase()) && !sent.toLowerCase().startsWith(prefix.toLowerCase()))
    return answer.slice(prefix.length).trim();
  return answer;
}

export type SectionVerdict =
  | { ok: true; markdown: string; facts: { total: number; kept: number }; unchanged: boolean }
  | { ok: false; reason: string; rule: RewriteRule | 'answer'; facts?: { total: number; kept: number } };

/** Whitespace runs as one space: a rewrite that differs from the draft only in spacing changed nothing. */
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Whether the model's answer for `section` may replace it (rewrite-check/check-section.ts). A refusal's reason
 * names the rule and the sentence (the caller names the section); `anchors` are the phrases that must stay with
 * the claims that answer them (a proposal's pain points). `rest`: the part of the section the model was not sent
 * (rewritePart), which follows its answer. `unchanged`: the answer is the draft's text.
 */
export function acceptSectionAnswer(
  answerText: string,
  section: Pick<DraftSection, 'heading' | 'citations'> & { markdownWithCitations: string },
  documents: readonly ProjectDocument[],
  anchors: readonly string[] = [],
  opts: { rest?: string } = {},
): SectionVerdict {
  const refuse = (reason: string): SectionVerdict => ({ ok: false, reason, rule: 'answer' });
  if (answerText.length > MAX_ANSWER_CHARS) return refuse(`the answer is longer than ${MAX_ANSWER_CHARS} characters`);
  const answer = parseAnswer(answerText);
  const markdown = (answer as { markdown?: unknown } | undefined)?.markdown;
  if (answer === undefined) return refuse('the answer is not JSON');
  if (typeof markdown !== 'string' || markdown.trim() === '') return refuse('the answer must be {"markdown": string}');
  const sent = opts.rest ? rewritePart(section.markdownWithCitations).sent : section.markdownWithCitations;
  const own = withoutHeading(markdown.trim(), section.heading, sent);
  const html = htmlIn(own, sent);
  if (html) return refuse(`the answer has ${html.length > 40 ? `${html.slice(0, 40)}…` : html}, which Markdown shows as HTML, not text`);
  // The answer replaces the part that was sent (rewritePart): the section's entries, when not sent, follow it.
  if (own === '') return refuse('the answer is only the section heading');
  const text = opts.rest ? `${own}\n\n${opts.rest}` : own;
  if (text.startsWith('#') && text.slice(0, 200).toLowerCase().includes(section.heading.toLowerCase()))
    return refuse('the answer repeats the section heading');
  const unknown = extractCitationIds(text).filter((id) => !section.citations.includes(id));
  if (unknown.length > 0)
    return { ok: false, reason: `it cites ${unknown.slice(0, 3).join(', ')}, which the section does not`, rule: 'citations' };
  const check = checkSectionRewrite(section.markdownWithCitations, text, sourcesOf(documents), anchors);
  if (check.violations.length > 0) {
    const shown = check.violations.slice(0, 3).map(describeViolation).join('; ');
    const more = check.violations.length > 3 ? ` (and ${check.violations.length - 3} more)` : '';
    return { ok: false, reason: `${shown}${more}`, rule: check.violations[0]!.rule, facts: check.facts };
  }
  return { ok: true, markdown: text, facts: check.facts, unchanged: squeeze(text) === squeeze(section.markdownWithCitations) };
}

/**
 * How far a model's rewrite of one invocation got: the sections answered so far (accepted ones with their
 * text). Kept in the store beside the retrieved documents, so a retried attempt (after a rate limit or a 5xx,
 * or on another worker) goes on from the next section instead of asking again for the answered ones.
 */
export interface RewriteProgress {
  accepted: Record<number, string>;
  sections: (ModelSectionReport & { index: number })[];
  /** JSON mode once the server refused a JSON schema. */
  jsonMode: boolean;
}

export const noRewriteProgress = (): RewriteProgress => ({ accepted: {}, sections: [], jsonMode: false });

export interface RewriteContext {
  draft: SkillResult;
  retrievedDocs: readonly ProjectDocument[];
  searchedKinds: readonly DocumentKind[];
  render: Renderer;
  model: string;
}

/**
 * The result with the accepted sections' prose (by index), every section saying who wrote it, the model's
 * report and a note per section that kept the draft. The whole result is checked again as any result is; if
 * that fails (it cannot, as each section was checked), the draft is returned with a note.
 */
export function composeRewrite(
  ctx: RewriteContext,
  accepted: ReadonlyMap<number, string>,
  sections: ModelSectionReport[],
  notes: readonly string[],
): SkillResult {
  const documents = prepareDocuments(ctx.retrievedDocs);
  const report: ModelReport = { name: ctx.model, sections };
  const generator = `llm:${ctx.model}`;
  const drafted: DraftSection[] = ctx.draft.sections.map((s, i) => {
    const text = accepted.get(i);
    return {
      heading: s.heading,
      markdown: text ?? s.markdownWithCitations,
      citations: text ? extractCitationIds(text) : s.citations,
      generator: text ? generator : 'deterministic',
    };
  });
  const result = assembleResult({
    title: ctx.draft.title,
    sections: drafted,
    render: ctx.render,
    documents,
    searchedKinds: ctx.searchedKinds,
    reasons: new Map(ctx.draft.retrieval.excluded.map((e) => [e.id, e.reason])),
    generator: accepted.size > 0 ? generator : 'deterministic',
    model: report,
  });
  const withNotes = (r: SkillResult, extra: readonly string[]) => (extra.length ? { ...r, notes: [...(r.notes ?? []), ...extra] } : r);
  const violations = checkResult(
    result,
    documents.map(citationId),
    ctx.draft.sections.map((s) => s.heading),
  );
  if (violations.length === 0) return withNotes(result, notes);
  return withNotes({ ...ctx.draft, model: report }, [
    `The model's rewrite was not used: ${violations[0]!.message}. This is the deterministic draft.`,
  ]);
}
