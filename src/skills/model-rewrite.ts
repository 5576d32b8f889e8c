/**
 * A model rewrites a deterministic draft one section at a time, so that a small context window suffices
 * and one bad answer costs one section, not the document. For each section the model sees the section (with
 * its citation markers) and only the documents it cites, and answers {"markdown": string}. The answer is
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

/** Keeps a section's prompt inside small context windows (4k tokens) however many documents it cites. */
const BODY_BUDGET_CHARS = 3_000;
const BODY_MIN_CHARS = 200;
const BODY_MAX_CHARS = 800;

const RULES = [
  'Rewrite the one section of a document you are given so that it reads well. Facts come only from the section and the documents given; invent nothing.',
  'Answer with one JSON object and nothing else: {"markdown": string}. The markdown must not start with the section heading.',
  'Keep every citation marker such as [pr:12] or [ticket:WEB-7] right after the statement it supports, separated by spaces only; cite nothing else.',
  'Keep one bullet per bullet of the section, in any order; do not add, merge, split or drop bullets or table rows. Numbered steps and table rows keep their order.',
  'Keep every version, number, date, identifier, name and link exactly as written.',
  'Keep the meaning of every sentence: keep each "not", "no", "no longer", "may", "likely" and "Hypothesis" where it is, and add none. Drop no sentence and add no claim of your own.',
].join('\n');

/** Bookkeeping fields that tell a model nothing about the content. */
const OMITTED_FIELDS = new Set(['externalId', 'createdAt', 'body']);

function documentForPrompt(doc: ProjectDocument, bodyChars: number): Record<string, unknown> {
  const fields = Object.entries(doc).filter(([k]) => !OMITTED_FIELDS.has(k));
  const body = doc.body.length > bodyChars ? `${doc.body.slice(0, bodyChars)}…` : doc.body;
  return { id: citationId(doc), ...Object.fromEntries(fields), body };
}

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

/** The messages asking for a rewrite of section `index` of `draft`. */
export function sectionMessages(
  instructions: string,
  inputs: object,
  draft: SkillResult,
  index: number,
  documents: readonly ProjectDocument[],
): ChatMessage[] {
  const section = draft.sections[index]!;
  const byId = new Map(documents.map((d) => [citationId(d), d]));
  const docs = section.citations.map((id) => byId.get(id)).filter((d): d is ProjectDocument => d !== undefined);
  const bodyChars = Math.max(BODY_MIN_CHARS, Math.min(BODY_MAX_CHARS, Math.floor(BODY_BUDGET_CHARS / Math.max(1, docs.length))));
  const part = rewritePart(section.markdownWithCitations);
  const user = {
    inputs,
    document: draft.title,
    section: { heading: section.heading, markdown: part.sent },
    ...(part.rest ? { followedBy: 'the section’s entries, which stay as they are: rewrite only this text' } : {}),
    documents: docs.map((d) => documentForPrompt(d, bodyChars)),
  };
  return [
    { role: 'system', content: `${instructions}\n\n${RULES}` },
    { role: 'user', content: JSON.stringify(user) },
  ];
}

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
  // The answer replaces the part that was sent (rewritePart): the section's entries, when not sent, follow it.
  const text = opts.rest ? `${markdown.trim()}\n\n${opts.rest}` : markdown.trim();
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
