/**
 * Tone changes wording, never facts: every tone gets the same entries, citations and counts.
 * casual: friendly, talks to "you"; neutral: plain; formal: complete sentences, no contractions, no "!".
 */
import type { Tone } from './definition';
import { asSentence, capitalize, trimEndOf } from '../text';
import type { Category } from './classify';
import { leadingVerb } from './verbs';

const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b/gi, 'cannot'],
  [/\bwon't\b/gi, 'will not'],
  [/\bshan't\b/gi, 'shall not'],
  [/\blet's\b/gi, 'let us'],
  [/\b(it|that|there|what|here|he|she)'s\b/gi, '$1 is'],
  [/\b(\w+)n't\b/gi, '$1 not'],
  [/\b(\w+)'re\b/gi, '$1 are'],
  [/\b(\w+)'ve\b/gi, '$1 have'],
  [/\b(\w+)'ll\b/gi, '$1 will'],
  [/\b(I)'m\b/g, '$1 am'],
  [/\b(\w+)'d\b/gi, '$1 would'],
];

/**
 * "!" runs that end a sentence (before whitespace or the end) become one "." ("Done!!" → "Done.", "done.!" →
 * "done."); a "!" inside a word or URL stays. One pass: a regex here would rescan each run from every "!".
 */
function withoutExclamations(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '!') {
      out += text[i];
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && text[end] === '!') end++;
    const endsSentence = end === text.length || /\s/.test(text[end]!);
    if (!endsSentence) out += text.slice(i, end);
    else if (i > 0 && !/\s/.test(text[i - 1]!) && text[i - 1] !== '.') out += '.';
    i = end;
  }
  return out;
}

/** Formal register for any text, including text quoted from documents: contractions spelt out, no "!". */
export function formalize(text: string): string {
  let t = text.replace(/[’]/g, "'");
  for (const [re, full] of CONTRACTIONS) t = t.replace(re, full);
  return withoutExclamations(t);
}

/** A tone's final pass over generated prose. */
export function inTone(tone: Tone, text: string): string {
  return tone === 'formal' ? formalize(text) : text;
}

/**
 * One change as a sentence, from its tidied title. `problem` marks a title that states the problem (a bug
 * ticket's, when no commit or pull request describes the change) rather than the change.
 */
export function entrySentence(tone: Tone, category: Category, title: string, problem: boolean): string {
  const lead = problem ? undefined : leadingVerb(title);
  if (lead) {
    const rest = lead.rest ? ` ${lead.rest}` : '';
    if (tone === 'formal') return formalize(asSentence(`This release ${lead.verb.third}${rest}`));
    if (tone === 'casual') return asSentence(`We've ${lead.verb.participle}${rest}`);
    return asSentence(`${capitalize(lead.verb.past)}${rest}`);
  }
  // A fix titled by its bug ("prefer-template autofix creates a tagged template call") must not read as the
  // bug: it is said to be fixed. Titles that already state the right behaviour ("Don't crash on …") stand.
  if (category === 'fix' && (problem || describesBug(title))) {
    if (tone === 'formal') return formalize(asSentence(`This release resolves the following issue: ${title}`));
    if (tone === 'casual') return asSentence(`We fixed an issue: ${title}`);
    return asSentence(`Fixed: ${title}`);
  }
  if (tone === 'formal') return formalize(asSentence(`This release includes the following change: ${title}`));
  return asSentence(title);
}

/**
 * First words of a fix title written as an instruction ("Escape commas in CSV exports", "Don't retry on 501"):
 * it states what the code now does, and reads right as it is.
 */
const IMPERATIVES = new Set(
  ("do don't dont never always no only ensure properly correctly use keep respect preserve accept ignore treat report return show skip " +
    'retry wait allow make match escape tidy apply avoid bump change check clamp clear close convert copy create default defer delay detect ' +
    'display emit encode decode exclude expose fall filter flush forward guard hide honor honour include infer inline limit load lock log ' +
    'mark merge normalize normalise omit parse pass pin prefer print propagate read recover reject reload render repair require reset reuse ' +
    'revert round run sanitize sanitise save send serialize set sort split strip throw trim truncate unescape unlock validate warn wrap write').split(' '),
);

/** Verbs that, right after the first word, show it was a noun and the title describes the bug ("Escape closes the dialog twice"). */
const BUG_VERBS = new Set(
  ("is are was were isn't aren't wasn't doesn't didn't can't cannot won't fails crashes throws breaks causes hangs freezes leaks loses creates " +
    'shows returns reports produces generates displays renders ignores skips misses duplicates overwrites triggers raises panics blocks ' +
    'truncates corrupts rejects accepts allows deletes removes resets closes opens').split(' '),
);

/** A fix title that names the bug ("prefer-template autofix creates a tagged template call") rather than the behaviour now in place. */
function describesBug(title: string): boolean {
  const [first = '', second = ''] = title.toLowerCase().replace(/’/g, "'").split(' ').map((w) => trimEndOf(w, '.,;:!?', false));
  return !IMPERATIVES.has(first) || BUG_VERBS.has(second);
}

type Phrases = Record<Tone, string>;

/** Fixed phrases by tone. */
export const PHRASES = {
  actionLabel: { casual: 'What you need to do:', neutral: 'Action required:', formal: 'Required action:' } as Phrases,
  /** Said once, for the breaking changes whose documents say nothing about migrating. */
  noMigration: {
    casual: (n: number, all: boolean) =>
      all ? (n === 1 ? "It doesn't say how to migrate, so check it before you upgrade." : "They don't say how to migrate, so check each one before you upgrade.")
        : `${n === 1 ? "One of them doesn't" : `${n} of them don't`} say how to migrate, so check ${n === 1 ? 'it' : 'those'} before you upgrade.`,
    neutral: (n: number, all: boolean) =>
      all ? (n === 1 ? 'It does not describe a migration; review it before upgrading.' : 'None of them describes a migration; review each before upgrading.')
        : `${n === 1 ? 'One of them does' : `${n} of them do`} not describe a migration; review ${n === 1 ? 'it' : 'those'} before upgrading.`,
    formal: (n: number, all: boolean) =>
      all ? (n === 1 ? 'It does not describe a migration. Review it before upgrading.' : 'None of them describes a migration. Review each before upgrading.')
        : `${n === 1 ? 'One of them does' : `${n} of them do`} not describe a migration. Review ${n === 1 ? 'it' : 'those'} before upgrading.`,
  } as Record<Tone, (withoutMigration: number, all: boolean) => string>,
  breakingIntro: {
    casual: 'Heads up: you need to act on these before you upgrade.',
    neutral: 'These changes need action before upgrading.',
    formal: 'The following changes require action before upgrading.',
  } as Phrases,
  featuresIntro: { casual: 'New things for you to try:', neutral: '', formal: '' } as Phrases,
  improvementsIntro: { casual: 'Things that got better for you:', neutral: '', formal: '' } as Phrases,
  fixesIntro: { casual: 'Bugs we fixed for you:', neutral: '', formal: '' } as Phrases,
  contributorsIntro: {
    casual: 'Thanks to everyone who pitched in!',
    neutral: 'Thanks to the people who contributed to this release.',
    formal: 'The following people contributed to this release.',
  } as Phrases,
};

const GROUP_NAMES: Record<Exclude<Category, 'breaking' | 'other'>, [string, string]> = {
  feature: ['new feature', 'new features'],
  improvement: ['improvement', 'improvements'],
  fix: ['fix', 'fixes'],
};

/** What an empty group says. */
export function emptyGroup(tone: Tone, category: Category): string {
  const what = category === 'breaking' ? 'breaking changes' : category === 'other' ? 'other changes' : GROUP_NAMES[category][1];
  if (tone === 'formal') return `This release contains no ${what}.`;
  if (tone === 'casual') return category === 'breaking' ? 'Nothing breaking this time.' : `No ${what} this time.`;
  return `No ${what}.`;
}

export function groupNoun(category: Exclude<Category, 'breaking' | 'other'>, n: number): string {
  return `${n} ${GROUP_NAMES[category][n === 1 ? 0 : 1]}`;
}
