import type { ReleaseNotesInputs } from './definition';

const TONE_RULES = {
  casual: 'casual: friendly, talk to the reader as "you"; short sentences.',
  neutral: 'neutral: plain, factual, no marketing words.',
  formal: 'formal: complete sentences, no contractions, no exclamation marks.',
};

/** What the model must do for release notes, beyond the rules every skill shares. */
export function releaseNotesInstructions(inputs: ReleaseNotesInputs): string {
  return [
    `You are writing user-facing release notes for the changes after ${inputs.fromVersion} up to and including ${inputs.toVersion}.`,
    `Tone, ${TONE_RULES[inputs.tone ?? 'neutral']} Tone changes wording only: every entry, count, version and citation stays.`,
    'Keep one entry per change. Do not add, merge, split, move or drop entries.',
    "An entry's words are its author's: keep them as written. Rewrite only the framing sentences around the entries.",
    'Keep each entry\'s references in parentheses at its end exactly as in the draft, links included, e.g. "([#650](https://…), WEB-7)".',
    'Each breaking change keeps what users must do, word for word. "Other changes" stays a count.',
  ].join('\n');
}
