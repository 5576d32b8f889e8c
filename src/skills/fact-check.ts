/**
 * Whether a model's rewrite of a section states the same facts as the deterministic draft of it. The draft
 * is the reference: every fact it states was taken from the documents it cites. A section is read as blocks
 * (list items, paragraphs, table rows, headings), each identified by the citations it carries; the rewrite
 * must have the same blocks (no entry added, dropped, duplicated or moved to another section), each keeping
 * every version, number, date, identifier, name and link of its draft block, adding none that neither the
 * draft nor the block's sources state, and saying nothing factual without a citation that the draft did not
 * say uncited. Every pattern here is a single pass without nested repetition: model text is untrusted.
 */
import { citationMarkers, startsBlockLine } from './markdown';

export type FactType = 'link' | 'code' | 'date' | 'version' | 'reference' | 'identifier' | 'number' | 'name';

export interface Fact {
  type: FactType;
  text: string;
}

export interface SectionFactCheck {
  /** Each names the fact and where it was lost or added; empty when the rewrite may be shown. */
  violations: string[];
  /** Facts of the draft section, and how many the rewrite kept where they were. */
  facts: { total: number; kept: number };
}

interface Block {
  /** The citation ids the block carries, sorted: how a block of the rewrite is matched with the draft's. */
  signature: string;
  /** The block's text without its citation markers. */
  text: string;
}

function blocksOf(markdown: string): Block[] {
  const raw: string[] = [];
  let current: string[] = [];
  // A table row or a heading is a block of one line.
  let single = false;
  const flush = () => {
    if (current.length) raw.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.trim() === '') flush();
    else {
      if (startsBlockLine(line) || single) flush();
      const t = line.trimStart();
      single = t.startsWith('|') || t.startsWith('#');
      current.push(line);
    }
  }
  flush();
  return raw.map((text) => {
    const markers = citationMarkers(text);
    let plain = '';
    let at = 0;
    for (const m of markers) {
      plain += text.slice(at, m.start);
      at = m.end;
    }
    plain += text.slice(at);
    return { signature: [...new Set(markers.map((m) => m.id))].sort().join(' '), text: plain };
  });
}

// One alternation, tried left to right at each position; no alternative repeats a group that could match the
// same text two ways, so the scan is linear in the text's length.
const FACT_PATTERN =
  /(\]\([^()\s]{1,2000}\))|(https?:\/\/[^\s<>()[\]]{1,2000})|(`[^`\n]{1,200}`)|(\b\d{4}-\d{2}-\d{2}\b)|(\bv?\d+(?:\.\d+)+(?:-[0-9A-Za-z.]{1,40})?)|(#\d+)|(\b[A-Z][A-Z0-9]+-\d+\b)|(\b(?=[0-9a-f]{0,40}\d)(?=[0-9a-f]{0,40}[a-f])[0-9a-f]{7,40}\b)|(\b\d+(?:,\d{3})*(?:\.\d+)?%?)|(@[A-Za-z0-9][A-Za-z0-9-]{0,38})|(\b[A-Z][A-Za-z0-9]*(?:[-'’][A-Za-z0-9]+)*)/g;

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
    const key = `${type}:${type === 'name' ? value.toLowerCase() : value}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ type, text: value });
    }
  }
  return out;
}

/** How facts are compared: names in any case, every other fact as written. */
const keyOf = (f: Fact) => (f.type === 'name' ? `name:${f.text.toLowerCase()}` : f.text);

/**
 * Whether `text` (with `keys`, the keys of its facts) states `fact`: as a fact of its own (so "2" is not found
 * in "#12"), or, for a name, anywhere in any case ("Checkout" may open a sentence as "checkout" does not).
 */
function states(keys: ReadonlySet<string>, lowerText: string, fact: Fact): boolean {
  return fact.type === 'name' ? lowerText.includes(fact.text.toLowerCase()) : keys.has(keyOf(fact));
}

/** Facts a rewrite must not add unless the draft or the sources state them: names are left to the author. */
const CHECKED_WHEN_ADDED = new Set<FactType>(['link', 'code', 'date', 'version', 'reference', 'identifier', 'number']);

const where = (signature: string) => (signature ? `the entry citing ${signature.split(' ').join(', ')}` : 'the uncited text');

/**
 * Compares a rewrite with the draft of the same section. `sources` gives, per citation id, the text of the
 * document (title, body and fields) a fact may also come from.
 */
export function checkSectionFacts(draft: string, rewrite: string, sources: ReadonlyMap<string, string>): SectionFactCheck {
  const group = (blocks: Block[]) => {
    const map = new Map<string, string[]>();
    for (const b of blocks) {
      const list = map.get(b.signature) ?? [];
      // Uncited blocks are compared as one text: framing may be split or joined freely.
      if (b.signature === '' && list.length) list[0] = `${list[0]}\n${b.text}`;
      else list.push(b.text);
      map.set(b.signature, list);
    }
    return map;
  };
  const drafted = group(blocksOf(draft));
  const rewritten = group(blocksOf(rewrite));
  const violations: string[] = [];
  let total = 0;
  let kept = 0;

  for (const [signature, texts] of drafted) {
    const theirs = rewritten.get(signature) ?? [];
    texts.forEach((text, i) => {
      const facts = factsOf(text);
      total += facts.length;
      const other = theirs[i];
      if (other === undefined) {
        if (signature) violations.push(`${where(signature)} is missing`);
        else if (facts.length) violations.push(`‘${facts[0]!.text}’ (${facts[0]!.type}) is missing from the uncited text`);
        return;
      }
      const lower = other.toLowerCase();
      const keys = new Set(factsOf(other).map(keyOf));
      for (const f of facts) {
        if (states(keys, lower, f)) kept++;
        else violations.push(`‘${f.text}’ (${f.type}) is missing from ${where(signature)}`);
      }
    });
  }

  for (const [signature, texts] of rewritten) {
    const ours = drafted.get(signature) ?? [];
    if (signature && texts.length > ours.length) {
      violations.push(
        ours.length
          ? `${where(signature)} appears ${texts.length} times (the draft has ${ours.length})`
          : `an entry citing ${signature.split(' ').join(', ')} was added`,
      );
    }
    const reference = new Set(factsOf([ours.join('\n'), ...signature.split(' ').map((id) => sources.get(id) ?? '')].join('\n')).map(keyOf));
    for (const text of texts) {
      for (const f of factsOf(text)) {
        if (!CHECKED_WHEN_ADDED.has(f.type) || reference.has(keyOf(f))) continue;
        violations.push(
          signature
            ? `‘${f.text}’ (${f.type}) in ${where(signature)} is in neither the draft nor its sources`
            : `an uncited paragraph states ‘${f.text}’ (${f.type})`,
        );
      }
    }
  }
  return { violations, facts: { total, kept } };
}
