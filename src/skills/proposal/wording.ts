/** Phrases built only from what an evidence document says: customer, industry, outcome, metrics, body. */
import type { EvidenceDocument } from '../documents';
import { escapeText, oneLine } from '../markdown';
import { asSentence, firstSentence, sentencesOf, trimEndOf } from '../text';
import { formatDate } from '../time';
import { processTerm, termsOf, tokenize } from './terms';

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

/** Sentences that say what was done, not what the problem was. */
const DONE_RE = /\b(we|switched|moved|replaced|added|introduced|exposed|migrated|automated|went live|rolled out|retired|load-tested)\b/i;

const overlap = (text: string, wanted: Set<string>) => termsOf(text).filter((t) => wanted.has(t)).length;

/**
 * What was done, quoted from the document's body as written rather than paraphrased: the sentence saying
 * what was done that shares most terms with the pain point (earliest on a tie), else the best-matching
 * sentence, else the first.
 */
export function approachQuote(doc: EvidenceDocument, painPoint: string): string {
  const wanted = new Set(termsOf(painPoint));
  const all = sentencesOf(doc.body);
  const best = (candidates: string[]) =>
    candidates.reduce<{ s: string; score: number }>(
      (acc, s) => {
        const score = overlap(s, wanted);
        return score > acc.score ? { s, score } : acc;
      },
      { s: '', score: 0 },
    ).s;
  const chosen = best(all.filter((s) => DONE_RE.test(s))) || best(all) || firstSentence(doc.body) || doc.title;
  return escapeText(asSentence(chosen));
}

/**
 * The outcome or metric that speaks most directly to the pain point; the outcome when none does. A shared
 * term counts less the more the document's body repeats it, so "Weekly reporting time: 10 hours saved"
 * beats "Pilot: 12 stores" for "store managers build reports by hand" in a story full of stores.
 */
export function bestFact(doc: EvidenceDocument, painPoint: string): string {
  const wanted = new Set(termsOf(painPoint));
  const inBody = new Map<string, number>();
  for (const t of tokenize(doc.body).map(processTerm)) if (t) inBody.set(t, (inBody.get(t) ?? 0) + 1);
  const weight = (fact: string) =>
    termsOf(fact)
      .filter((t) => wanted.has(t))
      .reduce((sum, t) => sum + 1 / (1 + (inBody.get(t) ?? 0)), 0);
  const facts = [doc.outcome ?? doc.title, ...(doc.metrics ?? [])];
  let [best, bestScore] = [facts[0], 0];
  for (const f of facts) {
    const score = weight(f);
    if (score > bestScore) [best, bestScore] = [f, score];
  }
  return trimEndOf(escapeText(oneLine(best)), '.;', false);
}

/** A pain point as it reads inside a sentence: first letter lowered unless it starts an acronym or a name-like word. */
export function inSentence(painPoint: string): string {
  return /^[A-Z][a-z]/.test(painPoint) ? painPoint.charAt(0).toLowerCase() + painPoint.slice(1) : painPoint;
}
