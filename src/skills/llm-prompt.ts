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
    'Cite inline with the same markers as the draft, e.g. [pr:12] or [pr:12](url), right after the statement they support; every bullet or paragraph that states a fact cites.',
    "List in each section's citations exactly the ids its markdown cites.",
    `You may cite only these ids: ${JSON.stringify(ids)}.`,
  ].join('\n');

/** A document as the model needs it: id, kind and fields, with the body trimmed to a fair share of the budget. */
function documentForPrompt(doc: ProjectDocument, bodyChars: number): Record<string, unknown> {
  const { body, createdAt: _createdAt, externalId: _externalId, ...fields } = doc;
  return { id: citationId(doc), ...fields, body: body.length > bodyChars ? `${body.slice(0, bodyChars)}…` : body };
}

export function buildPromptMessages(instructions: string, inputs: object, draft: SkillResult, retrievedDocs: readonly ProjectDocument[]): ChatMessage[] {
  const ids = draft.citations.map((c) => c.id);
  const allowed = new Set(ids);
  const docs = retrievedDocs.filter((d) => allowed.has(citationId(d)));
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
