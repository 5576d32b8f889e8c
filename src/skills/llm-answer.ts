/**
 * Accepting a model's rewrite: parse its JSON, rebuild a full result around its sections (citations,
 * retrieval report, markdown rendered for the format), and check it. A rejected answer comes back with its
 * violations so the caller can fall back to the deterministic draft and say why.
 */
import { assembleResult, prepareDocuments } from './assemble';
import { checkResult, type Violation } from './check-result';
import { citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import { extractCitationIds } from './markdown';
import type { ResultSection, SkillResult } from './result';
import type { DocumentKind } from './types';

export type LlmVerdict = { ok: true; result: SkillResult } | { ok: false; violations: Violation[] };

/** Answers longer than this are refused unread: no draft is anywhere near it, and parsing costs time. */
export const MAX_ANSWER_CHARS = 1_000_000;
/** A result has a handful of sections; an answer with more is not a rewrite of the draft. */
const MAX_SECTIONS = 100;

/** The model's JSON, tolerating a code fence around it (```json … ```); undefined when it is not JSON. */
function parseAnswer(text: string): unknown {
  let t = text.trim();
  if (t.length >= 6 && t.startsWith('```') && t.endsWith('```')) {
    t = t.slice(3, -3);
    if (t.startsWith('json')) t = t.slice(4);
  }
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function answerSections(answer: unknown): ResultSection[] | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const sections = (answer as { sections?: unknown }).sections;
  if (!Array.isArray(sections) || sections.length > MAX_SECTIONS) return undefined;
  const out: ResultSection[] = [];
  for (const s of sections) {
    const { heading, markdown, citations } = (s ?? {}) as Record<string, unknown>;
    if (typeof heading !== 'string' || typeof markdown !== 'string' || !Array.isArray(citations) || !citations.every((c) => typeof c === 'string')) return undefined;
    // The ids a section cites are its inline markers plus any it lists: bookkeeping slips are not worth a fallback.
    const body = markdown.trim();
    out.push({ heading, markdown: body, citations: [...new Set([...extractCitationIds(body), ...(citations as string[])])] });
  }
  return out;
}

export interface LlmAnswerContext {
  draft: SkillResult;
  retrievedDocs: readonly ProjectDocument[];
  searchedKinds: readonly DocumentKind[];
  render: (title: string, sections: readonly ResultSection[]) => string;
  model: string;
}

export function acceptLlmAnswer(answerText: string, ctx: LlmAnswerContext): LlmVerdict {
  if (answerText.length > MAX_ANSWER_CHARS) return { ok: false, violations: [{ path: '', message: `the answer is longer than ${MAX_ANSWER_CHARS} characters` }] };
  const answer = parseAnswer(answerText);
  if (answer === undefined) return { ok: false, violations: [{ path: '', message: 'the answer is not JSON' }] };
  const sections = answerSections(answer);
  const title = (answer as { title?: unknown }).title;
  if (!sections || typeof title !== 'string' || title.trim() === '') {
    return { ok: false, violations: [{ path: '', message: 'the answer must be {"title": string, "sections": [{"heading", "markdown", "citations": [string]}]}' }] };
  }

  const documents = prepareDocuments(ctx.retrievedDocs);
  const retrievedIds = documents.map(citationId);
  const known = new Set(retrievedIds);
  const unknown = sections.flatMap((s, i) => s.citations.filter((id) => !known.has(id)).map((id) => ({ path: `/sections/${i}/citations`, message: `${id} was not retrieved` })));
  if (unknown.length > 0) return { ok: false, violations: unknown };

  const reasons = new Map(ctx.draft.retrieval.excluded.map((e) => [e.id, e.reason]));
  const result = assembleResult({
    title: title.trim(),
    sections,
    render: ctx.render,
    documents,
    searchedKinds: ctx.searchedKinds,
    reasons,
    generator: `llm:${ctx.model}`,
  });
  const violations = checkResult(result, retrievedIds, ctx.draft.sections.map((s) => s.heading));
  return violations.length > 0 ? { ok: false, violations } : { ok: true, result };
}
