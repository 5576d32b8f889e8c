/**
 * The words that turn a claim around or weaken it: a rewrite that keeps every fact can still say the opposite
 * ("some orders were captured twice" → "no order was captured twice"), demote a certainty ("are no longer sent"
 * → "may still be sent") or promote a guess ("Hypothesis: …" → "Root cause: …"). A sentence of the draft and
 * the rewrite's sentences aligned with it must agree on each of these.
 */
import { tokens } from './words';

export interface Markers {
  /** A negation: no, not, never, none, nothing, cannot, …n't. */
  negation: boolean;
  /** Something stopped: "no longer", "not … anymore", "not … any longer". */
  cessation: boolean;
  /** A hedge: may, might, could, likely, possibly, probably, perhaps, suspected, seems. */
  hedge: boolean;
  /** Labelled as a hypothesis (or not confirmed). */
  hypothesis: boolean;
}

const NEGATIONS = new Set(['no', 'not', 'never', 'none', 'nothing', 'nobody', 'nowhere', 'neither', 'nor', 'cannot']);
const HEDGES = new Set([
  'may',
  'might',
  'could',
  'likely',
  'unlikely',
  'possibly',
  'probably',
  'perhaps',
  'presumably',
  'suspected',
  'seems',
  'seem',
]);

export function markersOf(text: string): Markers {
  const words = tokens(text);
  const m: Markers = { negation: false, cessation: false, hedge: false, hypothesis: false };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (NEGATIONS.has(w) || w.endsWith("n't") || w.endsWith('n’t')) m.negation = true;
    if (HEDGES.has(w)) m.hedge = true;
    if (w.startsWith('hypothes') || w === 'unconfirmed') m.hypothesis = true;
    if (w === 'confirmed' && (words[i - 1] === 'not' || words[i - 1] === 'un')) m.hypothesis = true;
    if ((w === 'longer' && (words[i - 1] === 'no' || words[i - 1] === 'any')) || w === 'anymore') m.cessation = true;
  }
  return m;
}

export function mergeMarkers(all: readonly Markers[]): Markers {
  return {
    negation: all.some((m) => m.negation),
    cessation: all.some((m) => m.cessation),
    hedge: all.some((m) => m.hedge),
    hypothesis: all.some((m) => m.hypothesis),
  };
}

export type MarkerRule = 'polarity' | 'modality';

/** Where the rewrite's markers part from the draft's, as refusal messages with their rule. */
export function markerChanges(draft: Markers, rewrite: Markers): { rule: MarkerRule; message: string }[] {
  const out: { rule: MarkerRule; message: string }[] = [];
  if (draft.negation && !rewrite.negation) out.push({ rule: 'polarity', message: 'a negation of the draft is gone' });
  if (!draft.negation && rewrite.negation) out.push({ rule: 'polarity', message: 'a negation the draft does not make was added' });
  if (draft.cessation && !rewrite.cessation) out.push({ rule: 'polarity', message: '“no longer” is gone' });
  if (draft.hypothesis && !rewrite.hypothesis)
    out.push({ rule: 'modality', message: 'a hypothesis is stated as fact (its label is gone)' });
  else if (draft.hedge && !rewrite.hedge && !rewrite.hypothesis)
    out.push({ rule: 'modality', message: 'a hedge (may, likely, …) is gone' });
  if (!draft.hedge && !draft.hypothesis && (rewrite.hedge || rewrite.hypothesis))
    out.push({ rule: 'modality', message: 'a hedge the draft does not make (may, likely, …) was added' });
  return out;
}
