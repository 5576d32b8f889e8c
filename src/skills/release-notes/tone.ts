/**
 * Tone changes wording, never facts: every tone gets the same entries, citations and counts.
 * casual: friendly, talks to "you"; neutral: plain; formal: complete sentences, no contractions, no "!".
 */
import type { Tone } from '../inputs';
import { asSentence, capitalize } from '../text';
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

/** Formal register for any text, including text quoted from documents: contractions spelt out, no "!". */
export function formalize(text: string): string {
  let t = text.replace(/[’]/g, "'");
  for (const [re, full] of CONTRACTIONS) t = t.replace(re, full);
  return t.replace(/(\S?)!+(?=\s|$)/g, (_m, before: string) => (before === '.' || before === '' ? before : `${before}.`));
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
  if (problem && category === 'fix') {
    if (tone === 'formal') return formalize(asSentence(`This release resolves the following issue: ${title}`));
    if (tone === 'casual') return asSentence(`We fixed an issue: ${title}`);
    return asSentence(`Fixed: ${title}`);
  }
  if (tone === 'formal') return formalize(asSentence(`This release includes the following change: ${title}`));
  return asSentence(title);
}

type Phrases = Record<Tone, string>;

/** Fixed phrases by tone. */
export const PHRASES = {
  actionLabel: { casual: 'What you need to do:', neutral: 'Action required:', formal: 'Required action:' } as Phrases,
  noMigration: {
    casual: "the change doesn't say, so check it before you upgrade.",
    neutral: 'the change does not describe a migration; review it before upgrading.',
    formal: 'The change does not describe a migration. Review it before upgrading.',
  } as Phrases,
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
