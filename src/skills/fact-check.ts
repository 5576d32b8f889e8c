/**
 * The facts a text states (versions, numbers with their units, dates, identifiers, references, names, links),
 * as the rewrite checks (rewrite-check/) compare a model's rewrite with the draft. Every pattern here is a single
 * pass without nested repetition: model text is untrusted.
 */

export type FactType = 'link' | 'code' | 'date' | 'version' | 'reference' | 'identifier' | 'number' | 'name';

export interface Fact {
  type: FactType;
  text: string;
}

// One alternation, tried left to right at each position; no alternative repeats a group that could match the
// same text two ways, so the scan is linear in the text's length.
const FACT_PATTERN =
  /(\]\([^()\s]{1,2000}\))|(https?:\/\/[^\s<>()[\]]{1,2000})|(`[^`\n]{1,200}`)|(\b\d{4}-\d{2}-\d{2}\b)|(\bv?\d+(?:\.\d+)+(?:-[0-9A-Za-z.]{1,40})?)|(#\d+)|(\b[A-Z][A-Z0-9]+-\d+\b)|(\b(?=[0-9a-f]{0,40}\d)(?=[0-9a-f]{0,40}[a-f])[0-9a-f]{7,40}\b)|(\b\d+(?:,\d{3})*(?:\.\d+)?%?(?:[ -]?(?:ms|milliseconds?|secs?|seconds?|s|mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b)?)|(@[A-Za-z0-9][A-Za-z0-9-]{0,38})|(\b[A-Z][A-Za-z0-9]*(?:[-'’][A-Za-z0-9]+)*)/g;

const TYPES: FactType[] = ['link', 'link', 'code', 'date', 'version', 'reference', 'reference', 'identifier', 'number', 'name', 'name'];

/** Characters that may stand between a sentence's start and its first word. */
const LEADING = new Set([' ', '\t', '*', '_', '(', '[', '"', "'", '“', '‘', '>', '`']);

/** True when the word at `at` opens a sentence, a line or a list item: its capital says nothing. */
function opensSentence(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && LEADING.has(text[i]!)) i--;
  if (i < 0 || text[i] === '\n') return true;
  const c = text[i]!;
  if (c === '.' || c === '!' || c === '?' || c === ':' || c === ';' || c === '—') return true;
  if (c === '-' || c === '+') {
    let j = i - 1;
    while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
    return j < 0 || text[j] === '\n';
  }
  return false;
}

/** A word in Title case only ("Added"), as opposed to an acronym or a name with inner capitals ("SAML", "GitHub"). */
const titleCaseOnly = (w: string) => w.slice(1) === w.slice(1).toLowerCase();

/** How often each number (by value and unit) occurs in a text: "2 breaking changes, 2 new features" has 2 twice. */
export function numberCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(FACT_PATTERN)) {
    if (m[9] === undefined) continue;
    const key = factKey({ type: 'number', text: m[0] });
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The facts a text states, in order, without repeats. */
export function factsOf(text: string): Fact[] {
  const out: Fact[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(FACT_PATTERN)) {
    const group = m.slice(1).findIndex((g) => g !== undefined);
    const type = TYPES[group]!;
    let value = m[0];
    if (group === 0) value = value.slice(2, -1);
    if (type === 'name' && group === 10 && titleCaseOnly(value) && opensSentence(text, m.index!)) continue;
    if (type === 'name' && value.length < 2) continue;
    const key = factKey({ type, text: value });
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ type, text: value });
    }
  }
  return out;
}

const UNIT_OF: Record<string, string> = {
  ms: 'ms',
  millisecond: 'ms',
  milliseconds: 'ms',
  s: 's',
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
};
for (const u of ['min', 'mins', 'minute', 'minutes']) UNIT_OF[u] = 'min';
for (const u of ['h', 'hr', 'hrs', 'hour', 'hours']) UNIT_OF[u] = 'h';
for (const u of ['day', 'days']) UNIT_OF[u] = 'd';
for (const u of ['week', 'weeks']) UNIT_OF[u] = 'w';

/** A number as compared: digits without thousands separators, and its unit in one spelling ("2-second" = "2 s"). */
function numberKey(text: string): string {
  let i = 0;
  while (i < text.length && ((text[i]! >= '0' && text[i]! <= '9') || text[i] === ',' || text[i] === '.' || text[i] === '%')) i++;
  const digits = text.slice(0, i).replace(/,/g, '');
  const unit = text.slice(i).replace(/^[ -]/, '').toLowerCase();
  return unit ? `${digits} ${UNIT_OF[unit] ?? unit}` : digits;
}

/** How facts are compared: names in any case, numbers by value and unit, every other fact as written. */
export const factKey = (f: Fact) =>
  f.type === 'name' ? `name:${f.text.toLowerCase()}` : f.type === 'number' ? `number:${numberKey(f.text)}` : f.text;

/**
 * Whether `text` (with `keys`, the keys of its facts) states `fact`: as a fact of its own (so "2" is not found
 * in "#12"), or, for a name, anywhere in any case ("Checkout" may open a sentence as "checkout" does not).
 */
export function statesFact(keys: ReadonlySet<string>, lowerText: string, fact: Fact): boolean {
  return fact.type === 'name' ? lowerText.includes(fact.text.toLowerCase()) : keys.has(factKey(fact));
}

/** Facts a rewrite must not add unless the draft or the sources state them: names are left to the author. */
export const CHECKED_WHEN_ADDED = new Set<FactType>(['link', 'code', 'date', 'version', 'reference', 'identifier', 'number']);
