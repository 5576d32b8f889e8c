/**
 * Tone changes the framing (title, counts, section lead-ins, thanks), never an entry: every entry keeps its
 * author's words in every tone. casual: friendly, talks to "you"; neutral: plain; formal: complete
 * sentences, no contractions, no "!".
 */
import type { Tone } from './definition';
import type { Category } from './classify';

type Phrases = Record<Tone, string>;

/** Fixed phrases by tone. */
export const PHRASES = {
  actionLabel: { casual: 'What you need to do:', neutral: 'Action required:', formal: 'Required action:' } as Phrases,
  /** Said once, for the breaking changes whose documents say nothing about migrating. */
  noMigration: {
    casual: (n: number, all: boolean) =>
      all
        ? n === 1
          ? "It doesn't say how to migrate, so check it before you upgrade."
          : "They don't say how to migrate, so check each one before you upgrade."
        : `${n === 1 ? "One of them doesn't" : `${n} of them don't`} say how to migrate, so check ${n === 1 ? 'it' : 'those'} before you upgrade.`,
    neutral: (n: number, all: boolean) =>
      all
        ? n === 1
          ? 'It does not describe a migration; review it before upgrading.'
          : 'None of them describes a migration; review each before upgrading.'
        : `${n === 1 ? 'One of them does' : `${n} of them do`} not describe a migration; review ${n === 1 ? 'it' : 'those'} before upgrading.`,
    formal: (n: number, all: boolean) =>
      all
        ? n === 1
          ? 'It does not describe a migration. Review it before upgrading.'
          : 'None of them describes a migration. Review each before upgrading.'
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
  revertsIntro: { casual: 'Things we took back:', neutral: '', formal: '' } as Phrases,
  otherIntro: { casual: 'And a few more things:', neutral: '', formal: '' } as Phrases,
  docsLine: {
    casual: (n: number) => `Plus ${n === 1 ? 'a documentation update' : `${n} documentation updates`}.`,
    neutral: (n: number) => `Documentation: ${n === 1 ? '1 change' : `${n} changes`}.`,
    formal: (n: number) => `This release also contains ${n === 1 ? 'one documentation change' : `${n} documentation changes`}.`,
  } as Record<Tone, (n: number) => string>,
  contributorsIntro: {
    casual: 'Thanks to everyone who pitched in:',
    neutral: 'Thanks to the people who contributed to this release:',
    formal: 'The following people contributed to this release:',
  } as Phrases,
  newContributorsIntro: {
    casual: 'A warm welcome to our new contributors:',
    neutral: 'New contributors:',
    formal: 'The following people contributed for the first time:',
  } as Phrases,
};

const GROUP_NAMES: Record<Exclude<Category, 'breaking' | 'revert' | 'other' | 'docs'>, [string, string]> = {
  feature: ['new feature', 'new features'],
  improvement: ['improvement', 'improvements'],
  fix: ['fix', 'fixes'],
};

/** What an empty breaking group says when the range holds a major release, which semver lets break anything. */
export function noneMarkedBreaking(tone: Tone, majorVersion: string): string {
  if (tone === 'formal')
    return `No change is marked as breaking. Version ${majorVersion} is a major release; review the changes below before upgrading.`;
  if (tone === 'casual')
    return `Nothing's marked as breaking, but ${majorVersion} is a major release, so look over the changes below before you upgrade.`;
  return `None are marked as breaking, but ${majorVersion} is a major release: review the changes below before upgrading.`;
}

export function groupNoun(category: Exclude<Category, 'breaking' | 'revert' | 'other' | 'docs'>, n: number): string {
  return `${n} ${GROUP_NAMES[category][n === 1 ? 0 : 1]}`;
}
