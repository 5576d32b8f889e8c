/**
 * The words a document is found by in the people-facing listing (`GET …/documents?q=`): its title's and body's
 * words, lower-cased, each once, stored with the document and indexed, so a search reads the index instead of
 * scanning every title and body. A query matches documents that have each of its words ("checkout" finds
 * "Checkout-flow: retry", not "checkouts"). Pure; linear in the text (one pass of a character-class regex).
 */

/** Letters and digits in any script; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Shorter words are not worth an index entry; longer ones are cut (a hash or a minified line). */
const MIN_LENGTH = 2;
const MAX_LENGTH = 40;
/** A document's terms are bounded: a 100 KB body of distinct words keeps its first 2,000. */
export const MAX_TERMS_PER_DOCUMENT = 2000;
/** A query's words are bounded too. */
export const MAX_QUERY_TERMS = 8;

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length >= MIN_LENGTH).map((w) => w.slice(0, MAX_LENGTH));
}

export function searchTermsOf(doc: { title?: unknown; body?: unknown }): string[] {
  const terms = new Set<string>();
  for (const text of [doc.title, doc.body]) {
    if (typeof text !== 'string') continue;
    for (const w of words(text)) {
      if (terms.size >= MAX_TERMS_PER_DOCUMENT) break;
      terms.add(w);
    }
  }
  return [...terms];
}

/** The words of a query, each to be found among a document's words; empty: the query has none. */
export function queryTerms(q: string): string[] {
  return [...new Set(words(q))].slice(0, MAX_QUERY_TERMS);
}
