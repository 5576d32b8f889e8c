/** Small, locale-independent text helpers: same input, same bytes, on any machine. */

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
  const t = text.trim().replace(/:$/, '');
  return t === '' || /[.!?…]$/.test(t) ? t : `${t}.`;
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

/** Words as a reader counts them (citation markers and markdown punctuation are not words). */
export function countWords(markdown: string): number {
  return markdown
    .replace(/\[[a-z_]+:[^\]\s]+\](\([^)]*\))?/g, ' ')
    .split(/\s+/)
    .filter((w) => /[A-Za-z0-9]/.test(w)).length;
}

/** The first sentence of a paragraph of prose, or the whole text when it has no sentence end. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  return m ? m[1] : flat;
}

/** "12,480": thousands separated the same way on every machine (toLocaleString depends on the host's ICU). */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
