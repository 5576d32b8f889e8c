/**
 * Words, sentences and numbers of a section's text, as the rewrite checks compare them: content words reduced to
 * a crude stem (so "captured" and "captures" meet), number words read as digits ("two" = 2), sentences split at
 * their ends outside code spans. Every pattern is a single pass without nested repetition: model text is
 * untrusted, and each function is linear in its input's length.
 */

/** Function words: they carry no claim, so they neither back a sentence nor tell two sentences apart. */
const STOP = new Set(
  (
    'a an the and or but if then so as of to in on at by for from with into onto over under about after before ' +
    "between during through than that this these those there here it its it’s it's is are was were be been being " +
    'has have had do does did done will would shall should can could may might must we you they he she i our your ' +
    'their his her them us me my mine yours ours who whom whose which what when where why how all any each every ' +
    'both either some such own same other others more most much many few very also just only still yet already up ' +
    'down out off again further once per via while until because since though although whether not no nor never ' +
    "none one ones let lets let's s t"
  ).split(' '),
);

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const TEENS = ['thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...UNITS.map((w, i) => [w, i] as const),
  ...TEENS.map((w, i) => [w, 13 + i] as const),
  ...TENS.map((w, i) => [w, 20 + i * 10] as const),
]);

// A number word, optionally a tens word joined to a unit word ("fifty-one"): literal alternatives, no nesting.
const NUMBER_WORD_PATTERN = new RegExp(
  `\\b(${[...TENS, ...TEENS, ...UNITS].join('|')})(?:[- ](${UNITS.slice(1, 10).join('|')}))?\\b`,
  'gi',
);

/**
 * The text with number words written as digits ("two new features" → "2 new features", "fifty-one" → "51") and
 * "N percent" as "N%": the draft writes digits, a rewrite may spell them out, and both say the same.
 */
export function numbersAsDigits(text: string): string {
  return percentAsSign(
    text.replace(NUMBER_WORD_PATTERN, (_m, first: string, second: string | undefined) => {
      const a = NUMBER_WORDS.get(first.toLowerCase())!;
      if (second === undefined) return String(a);
      const b = NUMBER_WORDS.get(second.toLowerCase())!;
      // "twenty-one" is 21; "one two" is two numbers.
      return a >= 20 && a % 10 === 0 ? String(a + b) : `${a} ${b}`;
    }),
  );
}

/** "N percent" as "N%". */
export const percentAsSign = (text: string) => text.replace(/(\d) ?(?:percent|per cent)\b/gi, '$1%');

const URLS = /\]\([^()\s]{0,2000}\)|https?:\/\/[^\s<>()]{1,2000}/g;
const WORD = /[a-z0-9]+(?:['’][a-z]+)?/g;

/** Lower-case word tokens, links' targets left out. */
export function tokens(text: string): string[] {
  return numbersAsDigits(text.toLowerCase().replace(URLS, ' ')).match(WORD) ?? [];
}

/** A crude stem: a possessive, then one common suffix off, then at most five letters ("reporting", "reports" → "repor"). */
export function stem(word: string): string {
  let w = word.replace(/['’]s$/, '');
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.slice(0, 5);
}

/** The stems of a text's content words. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokens(text)) if (!STOP.has(t) && !t.endsWith("n't") && !t.endsWith('n’t')) out.add(stem(t));
  return out;
}

/** Characters that open a new sentence after its predecessor's full stop (and a space). */
const OPENS = /[A-Z0-9*“"`[(_]/;

/**
 * The sentences of a text: split after ".", "!" or "?" followed by a space and a capital (or an opening mark),
 * and at line breaks; never inside a code span, so "capture.ts in" and "2.1.0" stay whole.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') inCode = !inCode;
    else if (c === '\n') {
      out.push(text.slice(start, i));
      start = i + 1;
      inCode = false;
    } else if (!inCode && (c === '.' || c === '!' || c === '?' || c === ':') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
      let j = i + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
      // After a colon only a capitalised clause starts a sentence ("…for you: You've improved…"), not a list
      // ("Fixed: a, b") or a quotation.
      if (j < text.length && (c === ':' ? /[A-Z]/.test(text[j]!) && /[a-z]/.test(text[j + 1] ?? '') : OPENS.test(text[j]!))) {
        out.push(text.slice(start, i + 1));
        start = j;
        i = j - 1;
      }
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '' && contentStems(s).size + tokens(s).length > 0);
}

/** How much of `of` (a set of stems) `by` holds: 1 when `of` is empty. */
export function coverage(of: ReadonlySet<string>, by: ReadonlySet<string>): number {
  if (of.size === 0) return 1;
  let n = 0;
  for (const w of of) if (by.has(w)) n++;
  return n / of.size;
}

export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n;
}

/** A sentence as a refusal quotes it: one line, at most 120 characters. */
export function excerpt(text: string): string {
  const one = text
    .replace(/\]\([^()\s]{0,2000}\)/g, ']')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > 120 ? `${one.slice(0, 117)}…` : one;
}
