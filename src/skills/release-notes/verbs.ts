/**
 * Verb forms for turning imperative titles ("Add dark mode") into release-note prose ("Added dark mode",
 * "This release adds dark mode"). Only verbs listed here are conjugated; any other first word is left
 * alone rather than guessed at.
 */

export interface VerbForms {
  base: string;
  past: string;
  participle: string;
  third: string;
}

/** base: [past, participle] for the irregular and consonant-doubling verbs; the rest follow the rules. */
const IRREGULAR: Record<string, [string, string]> = {
  build: ['built', 'built'],
  drop: ['dropped', 'dropped'],
  hide: ['hid', 'hidden'],
  keep: ['kept', 'kept'],
  let: ['let', 'let'],
  log: ['logged', 'logged'],
  make: ['made', 'made'],
  map: ['mapped', 'mapped'],
  pin: ['pinned', 'pinned'],
  plan: ['planned', 'planned'],
  rerun: ['reran', 'rerun'],
  run: ['ran', 'run'],
  send: ['sent', 'sent'],
  set: ['set', 'set'],
  ship: ['shipped', 'shipped'],
  show: ['showed', 'shown'],
  skip: ['skipped', 'skipped'],
  speed: ['sped', 'sped'],
  split: ['split', 'split'],
  stop: ['stopped', 'stopped'],
  strip: ['stripped', 'stripped'],
  tag: ['tagged', 'tagged'],
  wrap: ['wrapped', 'wrapped'],
  write: ['wrote', 'written'],
};

const REGULAR = [
  'accept', 'add', 'adjust', 'align', 'allow', 'avoid', 'block', 'cache', 'change', 'check', 'clarify', 'clean',
  'close', 'correct', 'create', 'deprecate', 'disable', 'display', 'document', 'enable', 'escape', 'expose',
  'export', 'extend', 'filter', 'fix', 'handle', 'ignore', 'import', 'improve', 'include', 'increase', 'index',
  'introduce', 'limit', 'link', 'load', 'lock', 'lower', 'match', 'migrate', 'move', 'open', 'optimize',
  'optimise', 'prevent', 'raise', 'redesign', 'reduce', 'refresh', 'reject', 'remove', 'rename', 'reorder',
  'replace', 'require', 'resolve', 'respect', 'restore', 'retry', 'return', 'save', 'sign', 'simplify', 'sort',
  'store', 'support', 'switch', 'sync', 'track', 'translate', 'unlock', 'update', 'upgrade', 'use', 'validate',
  'warn',
];

function regularPast(base: string): string {
  if (base.endsWith('e')) return `${base}d`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ied`;
  return `${base}ed`;
}

function thirdPerson(base: string): string {
  if (/(s|x|z|ch|sh)$/.test(base)) return `${base}es`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`;
  return `${base}s`;
}

const FORMS = new Map<string, VerbForms>();
for (const base of [...REGULAR, ...Object.keys(IRREGULAR)]) {
  const [past, participle] = IRREGULAR[base] ?? [regularPast(base), regularPast(base)];
  const forms = { base, past, participle, third: thirdPerson(base) };
  // A title may already be in past or third-person form ("Fixed", "Adds"); all lead to the same verb.
  for (const word of [base, past, forms.third]) if (!FORMS.has(word)) FORMS.set(word, forms);
}

/** The verb a title starts with, and the rest of the title; undefined when the first word is not a known verb. */
export function leadingVerb(title: string): { verb: VerbForms; rest: string } | undefined {
  const m = /^(\S+)\s*(.*)$/.exec(title.trim());
  const verb = m && FORMS.get(m[1].toLowerCase());
  return verb ? { verb, rest: m[2] } : undefined;
}
