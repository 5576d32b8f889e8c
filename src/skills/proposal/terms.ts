/**
 * Terms for relevance: lower case, no stop words, no bare numbers, and a light suffix stemmer so that
 * "logins"/"login" and "slowed"/"slow" meet. Used both for the index and for queries.
 */

const STOP_WORDS = new Set(
  (
    'a about above across after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his how i if in into is ' +
    'it its itself just me more most my no nor not now of off on once only or other our ours out over own same she should so some such ' +
    'than that the their theirs them then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom why will with would you your yours get gets got lot lots many much need needs want wants still like'
  ).split(' '),
);

/** Crude but consistent: what matters is that a word's forms meet, not that the stem is a real word. */
function stem(word: string): string {
  const w = stripSuffix(word);
  // "share", "shared" and "sharing" all end up as "shar".
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

function stripSuffix(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return undouble(word.slice(0, -3));
  if (word.length > 4 && word.endsWith('ed')) return undouble(word.slice(0, -2));
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** "stopped" → "stopp" → "stop". */
function undouble(word: string): string {
  return /([^aeiouls])\1$/.test(word) ? word.slice(0, -1) : word;
}

/** A normalised term, or null to drop it (minisearch's processTerm contract). */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase().replace(/['’]s$/, '');
  if (t.length < 2 || STOP_WORDS.has(t) || /^\d+([.,]\d+)?%?$/.test(t)) return null;
  return stem(t);
}

/** Same split as minisearch's default tokenizer: spaces and punctuation. */
export function tokenize(text: string): string[] {
  return text.split(/[\n\r\p{Z}\p{P}]+/u).filter(Boolean);
}

/** The distinct terms of a text. */
export function termsOf(text: string): string[] {
  return [
    ...new Set(
      tokenize(text)
        .map(processTerm)
        .filter((t): t is string => t !== null),
    ),
  ];
}
