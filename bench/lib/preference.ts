/**
 * A blind preference check of a model's accepted sections against the deterministic draft (the model benchmark,
 * issue #35): a rubric scored by this script, not by a person or a model. Each pair is shown to the scorer as A
 * and B in an order drawn from a seeded generator, scored without knowing which is which, then unblinded.
 *
 * The rubric, each part 0–1, on the text without citation markers and link targets:
 * - readability (0.4): mean sentence length (full marks up to 20 words, none at 40) and the share of sentences
 *   without a passive construction ("was retried", "are removed");
 * - tone (0.4), per requested tone: casual — sentences that speak to "you" or use a contraction; formal — no
 *   contractions, no exclamation marks, no second-person chat; neutral (and proposals and RCAs, which take no
 *   tone) — no marketing words or exclamation marks;
 * - facts kept (0.2): the share of the draft's facts the text keeps (the draft keeps all of its own).
 * A difference under 0.02 is no preference. Pure: unit-tested in test/unit/bench/preference.test.ts.
 */

import { seeded } from './random';

export type Tone = 'casual' | 'neutral' | 'formal';

export interface RubricScore {
  readability: number;
  tone: number;
  facts: number;
  total: number;
}

const MARKERS = /\[(?:pr|commit|ticket|release|win|case_study|sales_note|incident|error_issue|runbook):[^\]\s]{1,200}\]/g;
const LINK_TARGETS = /\]\([^()\s]{0,2000}\)/g;
const MARKETING = new Set([
  'amazing',
  'awesome',
  'exciting',
  'excited',
  'great',
  'powerful',
  'seamless',
  'seamlessly',
  'revolutionary',
  'best',
  'incredible',
  'fantastic',
  'love',
  'thrilled',
  'delighted',
  'game-changing',
  'cutting-edge',
]);
const BE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being']);

function plain(markdown: string): string {
  return markdown
    .replace(MARKERS, '')
    .replace(LINK_TARGETS, ']')
    .replace(/[*_`|#>]/g, ' ');
}

/** Sentences: split at ., ! or ? before a space, and at line breaks (a bullet or table row is one). */
function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let start = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if ((c === '.' || c === '!' || c === '?') && line[i + 1] === ' ') {
        out.push(line.slice(start, i + 1));
        start = i + 2;
      }
    }
    out.push(line.slice(start));
  }
  return out.map((s) => s.trim()).filter((s) => /[A-Za-z]/.test(s));
}

const wordsOf = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+(?:['’][a-z]+)?/g) ?? [];
const isContraction = (w: string) => /['’](?:s|t|re|ve|ll|d|m)$/.test(w) && !w.endsWith("'s") && !w.endsWith('’s');

function passive(words: string[]): boolean {
  for (let i = 0; i + 1 < words.length; i++) {
    const next = words[i + 1]!;
    if (BE.has(words[i]!) && next.length > 3 && (next.endsWith('ed') || next.endsWith('en'))) return true;
  }
  return false;
}

export function scoreText(markdown: string, tone: Tone, factsKept: number): RubricScore {
  const sentences = sentencesOf(plain(markdown));
  const n = Math.max(1, sentences.length);
  const words = sentences.map(wordsOf);
  const meanLength = words.reduce((a, w) => a + w.length, 0) / n;
  const lengthScore = meanLength <= 20 ? 1 : Math.max(0, 1 - (meanLength - 20) / 20);
  const activeShare = 1 - words.filter(passive).length / n;
  const readability = (lengthScore + activeShare) / 2;
  const exclamations = sentences.filter((s) => s.endsWith('!')).length;
  let toneScore: number;
  if (tone === 'casual') {
    const friendly = words.filter((w) => w.includes('you') || w.includes('your') || w.some(isContraction)).length;
    toneScore = Math.min(1, friendly / Math.max(1, Math.ceil(n / 3)));
  } else if (tone === 'formal') {
    const informal = words.filter((w) => w.some(isContraction) || w.includes('you')).length + exclamations;
    toneScore = Math.max(0, 1 - informal / n);
  } else {
    const hype = words.filter((w) => w.some((x) => MARKETING.has(x))).length + exclamations;
    toneScore = Math.max(0, 1 - hype / n);
  }
  const facts = Math.max(0, Math.min(1, factsKept));
  return { readability, tone: toneScore, facts, total: 0.4 * readability + 0.4 * toneScore + 0.2 * facts };
}

export interface PreferencePair {
  draft: string;
  model: string;
  tone: Tone;
  /** Share of the draft's facts the model's text kept (1 for an accepted section). */
  modelFactsKept: number;
}

export interface PreferenceVerdict {
  preferred: 'model' | 'draft' | 'none';
  model: RubricScore;
  draft: RubricScore;
  /** Which text the scorer saw as A. */
  shownFirst: 'model' | 'draft';
}

/** The blind order of each pair, from a seeded generator: the same for the same seed. */
export function seededOrder(seed: number): () => boolean {
  const rng = seeded(seed);
  return () => rng.chance(0.5);
}

/** Scores A and B without knowing which is the model's, then says which was preferred. */
export function blindPreference(pair: PreferencePair, modelFirst: boolean): PreferenceVerdict {
  const shown = modelFirst
    ? [
        { text: pair.model, kept: pair.modelFactsKept },
        { text: pair.draft, kept: 1 },
      ]
    : [
        { text: pair.draft, kept: 1 },
        { text: pair.model, kept: pair.modelFactsKept },
      ];
  const [a, b] = shown.map((s) => scoreText(s.text, pair.tone, s.kept)) as [RubricScore, RubricScore];
  const winner = Math.abs(a.total - b.total) < 0.02 ? 'none' : a.total > b.total ? 'A' : 'B';
  const model = modelFirst ? a : b;
  const draft = modelFirst ? b : a;
  const preferred = winner === 'none' ? 'none' : (winner === 'A') === modelFirst ? 'model' : 'draft';
  return { preferred, model, draft, shownFirst: modelFirst ? 'model' : 'draft' };
}
