/**
 * Verb forms for turning a title that describes a change to the product ("Add dark mode") into release-note
 * prose ("Added dark mode", "This release adds dark mode"). Only verbs that name a change are listed: a
 * title such as "Export orders to CSV" names what users can now do, and "Exported orders to CSV" would say
 * something else, so such titles are left as written.
 */

export interface VerbForms {
  base: string;
  past: string;
  participle: string;
  third: string;
}

/** base: [past, participle] for the irregular and consonant-doubling verbs; the rest follow the rules. */
const IRREGULAR: Record<string, [string, string]> = {
  drop: ['dropped', 'dropped'],
  make: ['made', 'made'],
  rewrite: ['rewrote', 'rewritten'],
  speed: ['sped', 'sped'],
  stop: ['stopped', 'stopped'],
};

const REGULAR = [
  'add', 'allow', 'avoid', 'clarify', 'clean', 'correct', 'deprecate', 'disable', 'enable', 'extend', 'fix',
  'handle', 'harden', 'improve', 'increase', 'introduce', 'lower', 'migrate', 'move', 'optimize', 'optimise',
  'polish', 'prevent', 'redesign', 'reduce', 'remove', 'rename', 'reorder', 'replace', 'resolve', 'restore',
  'rework', 'shorten', 'simplify', 'support', 'tweak', 'update', 'upgrade',
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
  const t = title.trim();
  const space = t.search(/\s/);
  const verb = FORMS.get((space < 0 ? t : t.slice(0, space)).toLowerCase());
  return verb ? { verb, rest: space < 0 ? '' : t.slice(space).trim() } : undefined;
}
