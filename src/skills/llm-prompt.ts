/**
 * Messages for an OpenAI-compatible chat model that rewrites a deterministic draft's prose. The model sees
 * the draft and the documents the draft cites, and must answer JSON that acceptLlmAnswer can check; it may
 * cite only the ids it is given.
 */
import { citationId } from './citation-id';
import type { ProjectDocument } from './documents';
import type { SkillResult } from './result';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** Keeps the prompt well inside common context windows however many documents the draft cites. */
const BODY_BUDGET_CHARS = 24_000;
const BODY_MIN_CHARS = 300;
const BODY_MAX_CHARS = 2_000;

const SHARED_RULES = (headings: string[], ids: string[]) =>
  [
    'Rewrite the prose of the draft you are given so that it reads well. Facts come only from the documents given; invent nothing.',
    'Answer with one JSON object and nothing else (no code fence): {"title": string, "sections": [{"heading": string, "markdown": string, "citations": [string]}]}.',
    `Keep exactly these section headings, in this order: ${JSON.stringify(headings)}.`,
    'A section\'s markdown must not start with its heading; the service adds headings.',
    'Cite inline with the same markers as the draft, e.g. [pr:12] or [ticket:WEB-7], right after the statement they support; every bullet or paragraph that states a fact cites.',
    "List in each section's citations exactly the ids its markdown cites.",
    `You may cite only these ids: ${JSON.stringify(ids)}.`,
  ].join('\n');

/** Bookkeeping fields that tell a model nothing about the content. */
const OMITTED_FIELDS = new Set(['externalId', 'createdAt', 'body']);

/** A document as the model needs it: id, kind and fields, with the body trimmed to a fair share of the budget. */
function documentForPrompt(doc: ProjectDocument, bodyChars: number): Record<string, unknown> {
  const fields = Object.entries(doc).filter(([k]) => !OMITTED_FIELDS.has(k));
  const body = doc.body.length > bodyChars ? `${doc.body.slice(0, bodyChars)}…` : doc.body;
  return { id: citationId(doc), ...Object.fromEntries(fields), body };
}

export function buildPromptMessages(instructions: string, inputs: object, draft: SkillResult, retrievedDocs: readonly ProjectDocument[]): ChatMessage[] {
  const ids = draft.citations.map((c) => c.id);
  // In the draft's citation order, once each: the prompt is the same whatever order retrieval returned.
  const byId = new Map(retrievedDocs.map((d) => [citationId(d), d]));
  const docs = ids.map((id) => byId.get(id)).filter((d): d is ProjectDocument => d !== undefined);
  const bodyChars = Math.max(BODY_MIN_CHARS, Math.min(BODY_MAX_CHARS, Math.floor(BODY_BUDGET_CHARS / Math.max(1, docs.length))));
  const user = {
    inputs,
    draft: { title: draft.title, sections: draft.sections },
    documents: docs.map((d) => documentForPrompt(d, bodyChars)),
  };
  return [
    { role: 'system', content: `${instructions}\n\n${SHARED_RULES(draft.sections.map((s) => s.heading), ids)}` },
    { role: 'user', content: JSON.stringify(user) },
  ];
}
