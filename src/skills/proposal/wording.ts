/** Phrases built only from what an evidence document says: customer, industry, outcome, metrics, body. */
import type { EvidenceDocument } from '../documents';
import { escapeText, oneLine } from '../markdown';
import { asSentence, firstSentence } from '../text';
import { formatDate } from '../time';
import { termsOf } from './terms';

const KIND_LABEL = { case_study: 'case study', win: 'win', sales_note: 'sales note' } as const;

/** "Northwind Grocers (Retail)". */
export function customerLabel(doc: EvidenceDocument): string {
  return `${escapeText(doc.customer)} (${escapeText(doc.industry)})`;
}

/** The result in the document's own words: its outcome, else its title. */
export function outcomeText(doc: EvidenceDocument): string {
  return escapeText(oneLine(doc.outcome ?? doc.title));
}

export function metricsText(doc: EvidenceDocument): string {
  return (doc.metrics ?? []).map((m) => escapeText(oneLine(m))).join('; ');
}

/** "case study, 2024-11-10". */
export function provenance(doc: EvidenceDocument): string {
  return `${KIND_LABEL[doc.kind]}, ${formatDate(doc.date)}`;
}

function sentences(text: string): string[] {
  return (
    oneLine(text)
      .match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? []
  );
}

/**
 * The sentence of the document's body that says most about the pain point (most shared terms, earliest on a
 * tie), quoted as written: what we did, in the document's words, rather than a paraphrase we would invent.
 */
export function approachQuote(doc: EvidenceDocument, painPoint: string): string {
  const wanted = new Set(termsOf(painPoint));
  let best = '';
  let bestScore = 0;
  for (const s of sentences(doc.body)) {
    const score = termsOf(s).filter((t) => wanted.has(t)).length;
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return escapeText(asSentence(best || firstSentence(doc.body) || doc.title));
}

/** A pain point as it reads inside a sentence: first letter lowered unless it starts an acronym or a name-like word. */
export function inSentence(painPoint: string): string {
  return /^[A-Z][a-z]/.test(painPoint) ? painPoint.charAt(0).toLowerCase() + painPoint.slice(1) : painPoint;
}
