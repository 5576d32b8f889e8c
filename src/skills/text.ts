/**
 * Small, locale-independent text helpers: same input, same bytes, on any machine. Every helper runs in time
 * linear in its input (no backtracking regular expressions), so text from documents or a model can be of any
 * allowed size.
 */

/** Orders strings by code units, case-insensitively first so "alice" and "Bob" interleave as people expect. */
export function compareText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Ends a sentence with a period unless it already ends with one (a trailing colon becomes a period). */
export function asSentence(text: string): string {
  let t = text.trim();
  if (t.endsWith(':')) t = t.slice(0, -1);
  return t === '' || '.!?…'.includes(t.charAt(t.length - 1)) ? t : `${t}.`;
}

const isSpace = (c: string) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0' || c === '\u2028' || c === '\u2029';

/** `text` without the characters of `chars` (and whitespace, when `spaces`) at its start. */
export function trimStartOf(text: string, chars: string, spaces = true): string {
  let i = 0;
  while (i < text.length && (chars.includes(text[i]!) || (spaces && isSpace(text[i]!)))) i++;
  return text.slice(i);
}

/** `text` without the characters of `chars` (and whitespace, when `spaces`) at its end. */
export function trimEndOf(text: string, chars: string, spaces = true): string {
  let i = text.length;
  while (i > 0 && (chars.includes(text[i - 1]!) || (spaces && isSpace(text[i - 1]!)))) i--;
  return text.slice(0, i);
}

/** Whitespace runs as one space, trimmed. */
export function oneSpaced(text: string): string {
  return text.split(/\s+/).filter(Boolean).join(' ');
}

/** Cuts text to at most `max` characters at a word boundary, with an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${trimEndOf(space > max / 2 ? cut.slice(0, space) : cut, ',;:-')}…`;
}

/** "a", "a and b", "a, b and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "1 fix", "3 fixes". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** A citation marker word such as "[pr:12]" or "[commit:ab12cd3](https://…)": not a word a reader counts. */
function isCitationWord(word: string): boolean {
  if (!word.startsWith('[')) return false;
  const colon = word.indexOf(':');
  const close = word.indexOf(']');
  if (colon < 2 || close < colon + 2) return false;
  for (let i = 1; i < colon; i++) if (!/[a-z_]/.test(word[i]!)) return false;
  return close === word.length - 1 || word[close + 1] === '(';
}

/** Words as a reader counts them (citation markers and markdown punctuation are not words). */
export function countWords(markdown: string): number {
  return markdown.split(/\s+/).filter((w) => !isCitationWord(w) && /[A-Za-z0-9]/.test(w)).length;
}

/** The first sentence of a paragraph of prose, or the whole text when it has no sentence end. */
export function firstSentence(text: string): string {
  const flat = oneSpaced(text);
  for (let i = 0; i < flat.length; i++) {
    if ('.!?'.includes(flat[i]!) && i > 0 && (i === flat.length - 1 || flat[i + 1] === ' ')) return flat.slice(0, i + 1);
  }
  return flat;
}

/** Sentences of a paragraph: runs ending in . ! or ? before a space or the end; a last run without an end counts too. */
export function sentencesOf(text: string): string[] {
  const flat = oneSpaced(text);
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < flat.length; i++) {
    if (!'.!?'.includes(flat[i]!)) continue;
    let end = i;
    while (end + 1 < flat.length && '.!?'.includes(flat[end + 1]!)) end++;
    if (end + 1 === flat.length || flat[end + 1] === ' ') {
      const s = flat.slice(start, end + 1).trim();
      if (s) out.push(s);
      start = end + 1;
    }
    i = end;
  }
  const rest = flat.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** "12,480": thousands separated the same way on every machine (toLocaleString depends on the host's ICU). */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
