/**
 * Whether a model's rewrite of a section says what the deterministic draft says: the draft is the reference,
 * every fact of it taken from the documents it cites. Checked claim by claim:
 *
 * - entries (list items, numbered steps, table rows that cite documents) are matched by their citations: none
 *   added, dropped or duplicated; same-citation entries may trade places where order carries no meaning, but
 *   numbered steps and table rows (a timeline) keep their order;
 * - inside an entry, and across the paragraphs, each claim is the text a group of citation markers closes:
 *   the rewrite's claims with the same citations must state the draft's facts (versions, numbers with their
 *   units, dates, identifiers, names, links; "two" = 2, "2 s" = "2-second"), add none that neither the draft nor
 *   the cited documents state, drop no sentence, repeat none, and keep each sentence's negation, "no longer",
 *   hedges and "hypothesis" label (markers.ts);
 * - uncited text may be reworded, split or joined, and may gain a citation, but every sentence the rewrite adds
 *   without a citation must be backed by the draft's uncited text (no new claim slips in uncited);
 * - a proposal's pain points stay with the evidence that answers them (`anchors`).
 *
 * Each violation names its rule and the sentence; the caller names the section. Work is bounded: a rewrite far
 * longer than its draft is refused before it is read, and sentence alignment stops at MAX_PAIRS comparisons.
 */
import { factsOf, factKey, numberCounts, statesFact, CHECKED_WHEN_ADDED, type Fact } from '../fact-check';
import { blocksOf, isTableLayout, type Block } from './blocks';
import { markerChanges, markersOf, mergeMarkers } from './markers';
import { contentStems, coverage, excerpt, numbersAsDigits, overlap, percentAsSign, sentences } from './words';

export type RewriteRule =
  'facts' | 'entries' | 'citations' | 'polarity' | 'modality' | 'order' | 'pain points' | 'unbacked' | 'dropped' | 'repeated' | 'bounds';

export interface RewriteViolation {
  rule: RewriteRule;
  /** What is wrong, naming the fact or entry. */
  message: string;
  /** The sentence it is about (the draft's for something lost, the rewrite's for something added). */
  sentence: string;
}

export interface SectionCheck {
  violations: RewriteViolation[];
  /** Facts of the draft section, and how many the rewrite kept where they were. */
  facts: { total: number; kept: number };
}

/** A rewrite may be longer than its draft (a casual tone adds words), not this much longer. */
const MAX_GROWTH = 3;
const GROWTH_SLACK_CHARS = 2_000;
/** Sentence pairs compared in one unit at most; a real section needs a few hundred. */
const MAX_PAIRS = 250_000;
/** Share of a draft sentence's content words the rewrite must keep for the sentence to count as kept. */
const KEPT = 0.5;
/** Share of a rewrite sentence's words that must come from its claim's draft and sources. */
const BACKED = 0.5;

/**
 * Words that frame without claiming, so an uncited sentence made of them adds nothing ("Here is what changed
 * in this release."), as stems (see words.ts).
 */
const FRAMING = new Set(
  contentStems(
    'here what changed changes change new release released version versions update updates updated note notes please see below above ' +
      'following list listed summary summarised details detail read find look check thanks thank contributors contribution section sections ' +
      'include includes including bring brings introduce introduces overview highlights highlight latest today now well happy glad ' +
      'welcome enjoy hope improvements improvement fixes fix features feature entries entry items item points point short quick ' +
      'review reviewed take things thing know need needs want',
  ),
);

/** A clause stating what something led to: a claim, whatever words it uses. Fixed words, so linear. */
const CONSEQUENCE = /,\s+(?:resulting in|leading to|causing|which (?:caused|led to|resulted in|meant))\s/i;

type Violations = RewriteViolation[];

const citing = (signature: string) => signature.split(' ').join(', ');

interface Unit {
  /** How a message names the unit: "the entry citing pr:12", "the text citing release:2.0.0", "the uncited text". */
  where: string;
  /** The draft's text of the unit. */
  draft: string;
  /** The rewrite's text where the draft's facts and sentences must be found. */
  rewriteSide: string;
  /** The rewrite's own text of the unit: what it adds is checked against `backing`. */
  rewriteOwn: string;
  /** The documents' text a fact or word may also come from (the cited sources); '' for uncited text. */
  sources: string;
}

export function checkSectionRewrite(
  draft: string,
  rewrite: string,
  sources: ReadonlyMap<string, string>,
  anchors: readonly string[] = [],
): SectionCheck {
  const out: Violations = [];
  const tally = { total: 0, kept: 0 };
  if (rewrite.length > draft.length * MAX_GROWTH + GROWTH_SLACK_CHARS) {
    out.push({
      rule: 'bounds',
      message: `the rewrite is ${rewrite.length} characters, more than ${MAX_GROWTH} times the draft's ${draft.length}`,
      sentence: excerpt(rewrite),
    });
    return { violations: out, facts: { total: factsOf(draft).length, kept: 0 } };
  }
  const D = blocksOf(draft);
  const R = blocksOf(rewrite);
  const sourceText = (signature: string) => (signature ? signature.split(' ').map((id) => sources.get(id) ?? '') : []).join('\n');

  for (const b of R)
    for (const s of b.strayBetweenMarkers)
      out.push({
        rule: 'citations',
        message: 'text stands between two citation markers and would show as stray text',
        sentence: excerpt(s),
      });

  const isEntry = (b: Block) => (b.kind === 'item' || b.kind === 'step' || b.kind === 'row') && b.signature !== '';
  const pairs = matchEntries(D.filter(isEntry), R.filter(isEntry), out);

  // Entries: each claim group inside the entry, then its uncited tail (which may gain a citation).
  for (const [d, r] of pairs) {
    const where = `the entry citing ${citing(d.signature)}`;
    const bySig = groupClaims(d.claims);
    const rBySig = groupClaims(r.claims);
    for (const [sig, text] of bySig) {
      if (!sig) continue;
      // The rewrite's claims that cite any of the group's documents: markers may be regrouped within an entry.
      const ids = new Set(sig.split(' '));
      const side = r.claims
        .filter((c) => c.signature.split(' ').some((id) => ids.has(id)))
        .map((c) => c.text)
        .join('\n');
      compareUnit({ where, draft: text, rewriteSide: side, rewriteOwn: side, sources: sourceText(sig) }, out, tally, {
        lostCitation: r.text,
      });
    }
    compareUnit(
      {
        where: `${where} (its uncited part)`,
        draft: bySig.get('') ?? '',
        rewriteSide: r.text,
        rewriteOwn: rBySig.get('') ?? '',
        sources: '',
      },
      out,
      tally,
    );
    compareAnchors(where, d.text, r.text, anchors, out);
  }

  // Paragraphs: claims pooled by their citations, so a paragraph may be split or joined.
  const isProse = (b: Block) => !isEntry(b);
  const dPool = groupClaims(D.filter(isProse).flatMap((b) => b.claims));
  const rPool = groupClaims(R.filter(isProse).flatMap((b) => b.claims));
  const entrySigs = new Set(D.filter(isEntry).map((b) => b.signature));
  for (const [sig, text] of dPool) {
    if (!sig) continue;
    const where = `the text citing ${citing(sig)}`;
    if (!rPool.has(sig)) {
      out.push({ rule: 'entries', message: `${where} is missing`, sentence: excerpt(sentences(text)[0] ?? text) });
      tally.total += factsOf(text).length;
      continue;
    }
    compareUnit({ where, draft: text, rewriteSide: rPool.get(sig)!, rewriteOwn: rPool.get(sig)!, sources: sourceText(sig) }, out, tally, {
      lostCitation: rewrite,
    });
    compareAnchors(where, text, rPool.get(sig)!, anchors, out);
  }
  const allDraftSigs = new Set([...dPool.keys(), ...entrySigs]);
  for (const [sig, text] of rPool) {
    if (!sig || dPool.has(sig)) continue;
    if (!allDraftSigs.has(sig) && [...sig.split(' ')].every((id) => !draft.includes(`[${id}]`)))
      out.push({ rule: 'entries', message: `text citing ${citing(sig)} was added`, sentence: excerpt(sentences(text)[0] ?? text) });
    else
      // A citation the section makes elsewhere, now on a sentence of its own: what it says must still be backed.
      compareUnit(
        {
          where: `the text citing ${citing(sig)}`,
          draft: '',
          rewriteSide: text,
          rewriteOwn: text,
          sources: `${draft}\n${sourceText(sig)}`,
        },
        out,
        tally,
      );
  }

  // Uncited text: the draft's may turn up anywhere in the rewrite; the rewrite's must be backed by the draft's.
  const uncited = (blocks: Block[]) =>
    [
      ...blocks.filter((b) => !isEntry(b) && !isTableLayout(b)).flatMap((b) => b.claims.filter((c) => !c.signature).map((c) => c.text)),
    ].join('\n');
  const dUncited = uncited(D);
  const rUncited = uncited(R);
  compareUnit({ where: 'the uncited text', draft: dUncited, rewriteSide: rewrite, rewriteOwn: rUncited, sources: '' }, out, tally);
  compareAnchors('the uncited text', dUncited, rUncited, anchors, out);
  const bare = (blocks: Block[]) => blocks.filter((b) => (b.kind === 'item' || b.kind === 'step') && b.signature === '');
  const dBare = bare(D);
  const rBare = bare(R);
  if (rBare.length > dBare.length) {
    const known = dBare.map((b) => contentStems(b.text));
    const added = rBare.filter((b) => !known.some((k) => coverage(contentStems(b.text), k) >= KEPT));
    for (const b of added.length ? added : rBare.slice(dBare.length))
      out.push({ rule: 'entries', message: 'a list item without a citation was added', sentence: excerpt(b.text) });
  }

  checkOrder(D, R, pairs, out);
  return { violations: out, facts: tally };
}

/** Claim texts by signature, joined. */
function groupClaims(claims: readonly { signature: string; text: string }[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const c of claims) map.set(c.signature, map.has(c.signature) ? `${map.get(c.signature)}\n${c.text}` : c.text);
  return map;
}

/**
 * Pairs the draft's entries with the rewrite's by signature; among entries with the same citations, the pair
 * that shares the most facts and words first (so two same-citation bullets may trade places). Unpaired ones are
 * reported.
 */
function matchEntries(D: Block[], R: Block[], out: Violations): [Block, Block][] {
  const bySig = (blocks: Block[]) => {
    const m = new Map<string, Block[]>();
    for (const b of blocks) m.set(b.signature, [...(m.get(b.signature) ?? []), b]);
    return m;
  };
  const dm = bySig(D);
  const rm = bySig(R);
  const pairs: [Block, Block][] = [];
  for (const [sig, ds] of dm) {
    const rs = rm.get(sig) ?? [];
    if (rs.length < ds.length)
      out.push({ rule: 'entries', message: `the entry citing ${citing(sig)} is missing`, sentence: excerpt(ds[0]!.text) });
    if (rs.length > ds.length)
      out.push({
        rule: 'entries',
        message: `the entry citing ${citing(sig)} appears ${rs.length} times (the draft has ${ds.length})`,
        sentence: excerpt(rs[rs.length - 1]!.text),
      });
    if (ds.length * rs.length > MAX_PAIRS) {
      out.push({ rule: 'bounds', message: `too many entries cite ${citing(sig)} to compare`, sentence: '' });
      continue;
    }
    const dInfo = ds.map((d) => similarityInfo(d.text));
    const rInfo = rs.map((r) => similarityInfo(r.text));
    const scored = dInfo.flatMap((d, i) => rInfo.map((r, j) => ({ i, j, score: similarity(d, r) })));
    scored.sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j);
    const usedD = new Set<number>();
    const usedR = new Set<number>();
    for (const s of scored) {
      if (usedD.has(s.i) || usedR.has(s.j)) continue;
      usedD.add(s.i);
      usedR.add(s.j);
      pairs.push([ds[s.i]!, rs[s.j]!]);
    }
  }
  for (const [sig, rs] of rm)
    if (!dm.has(sig)) out.push({ rule: 'entries', message: `an entry citing ${citing(sig)} was added`, sentence: excerpt(rs[0]!.text) });
  // In the draft's order, so messages come in reading order.
  const at = new Map(D.map((b, i) => [b, i]));
  return pairs.sort((a, b) => at.get(a[0])! - at.get(b[0])!);
}

interface SimilarityInfo {
  facts: Set<string>;
  stems: Set<string>;
}

/** An entry's facts and words, read once: pairs are scored many times (up to MAX_PAIRS). */
const similarityInfo = (text: string): SimilarityInfo => ({ facts: new Set(factsOf(text).map(factKey)), stems: contentStems(text) });

function similarity(a: SimilarityInfo, b: SimilarityInfo): number {
  return overlap(a.facts, b.facts) * 10 + overlap(a.stems, b.stems);
}

interface SentenceInfo {
  text: string;
  stems: Set<string>;
}

const infoOf = (text: string): SentenceInfo[] => sentences(text).map((t) => ({ text: t, stems: contentStems(t) }));

/** Compares one unit's facts, sentences, markers and what the rewrite adds to it. */
function compareUnit(u: Unit, out: Violations, tally: { total: number; kept: number }, opts: { lostCitation?: string } = {}): void {
  // Facts of the draft, found in the rewrite's side (number words read as digits).
  const side = numbersAsDigits(u.rewriteSide);
  const sideKeys = new Set(factsOf(side).map(factKey));
  const sideLower = side.toLowerCase();
  const dSentences = infoOf(u.draft);
  const sentenceOf = (f: Fact) => dSentences.find((s) => s.text.includes(f.text))?.text ?? u.draft;
  // The facts of the text a lost fact may have moved to, read once and only when a fact is lost.
  let lostCitationKeys: Set<string> | undefined;
  const lostCitationLower = opts.lostCitation?.toLowerCase() ?? '';
  for (const f of factsOf(u.draft)) {
    tally.total++;
    if (statesFact(sideKeys, sideLower, f)) {
      tally.kept++;
      continue;
    }
    if (opts.lostCitation !== undefined && lostCitationKeys === undefined)
      lostCitationKeys = new Set(factsOf(numbersAsDigits(opts.lostCitation)).map(factKey));
    const elsewhere = lostCitationKeys !== undefined && statesFact(lostCitationKeys, lostCitationLower, f);
    out.push({
      rule: elsewhere ? 'citations' : 'facts',
      message: elsewhere
        ? `‘${f.text}’ (${f.type}) lost its citation: it is no longer in ${u.where}`
        : `‘${f.text}’ (${f.type}) is missing from ${u.where}`,
      sentence: excerpt(sentenceOf(f)),
    });
  }
  // A count said as often as the draft says it ("2 breaking changes, 2 new features": two 2s).
  const sideCounts = numberCounts(side);
  for (const [key, n] of numberCounts(u.draft)) {
    const got = sideCounts.get(key) ?? 0;
    if (got > 0 && got < n)
      out.push({
        rule: 'facts',
        message: `the number ${key.slice('number:'.length)} occurs ${n} times in ${u.where} and ${got} in the rewrite: a count changed`,
        sentence: excerpt(u.draft),
      });
  }
  // Facts the rewrite adds: only what the draft's unit or its sources state. Number words are not read as new
  // numbers here ("one of them" states no count).
  const reference = new Set(factsOf(numbersAsDigits(`${u.draft}\n${u.sources}`)).map(factKey));
  const rOwn = infoOf(u.rewriteOwn);
  for (const f of factsOf(percentAsSign(u.rewriteOwn))) {
    if (!CHECKED_WHEN_ADDED.has(f.type) || reference.has(factKey(f))) continue;
    out.push({
      rule: 'facts',
      message: u.sources
        ? `‘${f.text}’ (${f.type}) in ${u.where} is in neither the draft nor its sources`
        : `${u.where === 'the uncited text' ? 'an uncited sentence' : u.where} states ‘${f.text}’ (${f.type}), which the draft does not`,
      sentence: excerpt(rOwn.find((s) => s.text.includes(f.text))?.text ?? u.rewriteOwn),
    });
  }
  compareSentences(u, dSentences, infoOf(u.rewriteSide), rOwn, out);
}

/**
 * Aligns the draft's sentences with the rewrite's by shared content words: every draft sentence must be kept
 * (most of its words), not repeated, and keep its negation and modality; every sentence the rewrite adds must be
 * backed by the draft's unit and its sources.
 */
function compareSentences(u: Unit, ds: SentenceInfo[], rs: SentenceInfo[], own: SentenceInfo[], out: Violations): void {
  if (ds.length * Math.max(rs.length, own.length) > MAX_PAIRS) {
    out.push({ rule: 'bounds', message: `${u.where} has too many sentences to compare`, sentence: '' });
    return;
  }
  const best = (r: SentenceInfo) => {
    let at = -1;
    let score = 0;
    ds.forEach((d, i) => {
      const o = overlap(r.stems, d.stems);
      const s = o / Math.max(1, Math.min(r.stems.size, d.stems.size));
      if (o > 0 && s > score) {
        score = s;
        at = i;
      }
    });
    return score >= 0.3 ? at : -1;
  };
  const bestOfR = rs.map(best);
  const whole = contentStems(u.rewriteSide);
  ds.forEach((d, i) => {
    const group = rs.filter((_, j) => bestOfR[j] === i);
    if (group.length === 0) {
      // A sentence joined into another may be another's best match: the one that holds most of it.
      let top: SentenceInfo | undefined;
      let topCover = 0;
      for (const r of rs) {
        const c = coverage(d.stems, r.stems);
        if (c > topCover) [top, topCover] = [r, c];
      }
      if (top && topCover >= KEPT) group.push(top);
    }
    const kept = group.length ? coverage(d.stems, new Set(group.flatMap((r) => [...r.stems]))) : 0;
    if (d.stems.size > 0 && kept < KEPT && coverage(d.stems, whole) < KEPT) {
      out.push({ rule: 'dropped', message: `a sentence of ${u.where} is gone`, sentence: excerpt(d.text) });
      return;
    }
    if (group.length === 0) return;
    const copies = group.filter((r) => d.stems.size >= 3 && coverage(d.stems, r.stems) >= 0.8 && coverage(r.stems, d.stems) >= 0.8).length;
    const draftCopies = ds.filter(
      (o) => d.stems.size >= 3 && coverage(d.stems, o.stems) >= 0.8 && coverage(o.stems, d.stems) >= 0.8,
    ).length;
    if (copies > draftCopies && ds.indexOf(d) === ds.findIndex((o) => o.text === d.text))
      out.push({ rule: 'repeated', message: `a sentence of ${u.where} appears ${copies} times`, sentence: excerpt(d.text) });
    for (const change of markerChanges(markersOf(d.text), mergeMarkers(group.map((r) => markersOf(r.text)))))
      out.push({
        rule: change.rule,
        message: `${change.message} in ${u.where}: “${excerpt(group.map((r) => r.text).join(' '))}”`,
        sentence: excerpt(d.text),
      });
  });
  // What the rewrite adds: backed by the unit's draft text and sources, or mere framing.
  const backing = contentStems(`${u.draft}\n${u.sources}`);
  const ownBest = own.map(best);
  const draftStatesConsequence = CONSEQUENCE.test(u.draft);
  own.forEach((r, j) => {
    // A consequence joined onto a kept sentence is a claim of its own ("…affected all storefronts, resulting in
    // significant customer inconvenience", the 1.5B model), which the match to the kept sentence would let through.
    if (!draftStatesConsequence && CONSEQUENCE.test(r.text)) {
      out.push({
        rule: 'unbacked',
        message: `a sentence in ${u.where} adds a consequence the draft does not state`,
        sentence: excerpt(r.text),
      });
      return;
    }
    if (ownBest[j]! >= 0 || r.stems.size === 0) return;
    let backed = 0;
    for (const w of r.stems) if (backing.has(w) || FRAMING.has(w)) backed++;
    if (backed / r.stems.size < BACKED)
      out.push({
        rule: 'unbacked',
        message: u.sources
          ? `a sentence in ${u.where} says what neither the draft nor its sources say`
          : 'an uncited sentence says what the draft does not',
        sentence: excerpt(r.text),
      });
    else if (!u.sources) {
      const m = markersOf(r.text);
      if (m.negation || m.hedge)
        out.push({
          rule: m.negation ? 'polarity' : 'modality',
          message: 'an added uncited sentence negates or hedges',
          sentence: excerpt(r.text),
        });
    }
  });
}

/** A pain point is named in a text when most of its content words are there. */
function namesAnchor(stems: ReadonlySet<string>, anchor: ReadonlySet<string>): boolean {
  return anchor.size > 0 && coverage(anchor, stems) >= 2 / 3;
}

function compareAnchors(where: string, draft: string, rewrite: string, anchors: readonly string[], out: Violations): void {
  if (anchors.length === 0) return;
  const d = contentStems(draft);
  const r = contentStems(rewrite);
  for (const a of anchors) {
    const stems = contentStems(a);
    const inD = namesAnchor(d, stems);
    const inR = namesAnchor(r, stems);
    if (inD && !inR)
      out.push({ rule: 'pain points', message: `${where} no longer answers the pain point ‘${excerpt(a)}’`, sentence: excerpt(draft) });
    if (!inD && inR)
      out.push({ rule: 'pain points', message: `the pain point ‘${excerpt(a)}’ moved into ${where}`, sentence: excerpt(rewrite) });
  }
}

/** Numbered steps keep their number and place; table rows (a timeline) keep their order. */
function checkOrder(D: Block[], R: Block[], pairs: [Block, Block][], out: Violations): void {
  const dSteps = D.filter((b) => b.kind === 'step');
  const rSteps = R.filter((b) => b.kind === 'step');
  if (dSteps.length !== rSteps.length) {
    if (dSteps.length > 0)
      out.push({
        rule: 'order',
        message: `the draft has ${dSteps.length} numbered steps, the rewrite ${rSteps.length}`,
        sentence: excerpt(dSteps[Math.min(rSteps.length, dSteps.length - 1)]!.text),
      });
  } else if (dSteps.length * rSteps.length <= MAX_PAIRS) {
    const dStems = dSteps.map((b) => contentStems(b.text));
    rSteps.forEach((r, j) => {
      const rs = contentStems(r.text);
      let at = j;
      let top = overlap(rs, dStems[j]!);
      dStems.forEach((s, i) => {
        const o = overlap(rs, s);
        if (o > top) [at, top] = [i, o];
      });
      if (at !== j)
        out.push({
          rule: 'order',
          message: `numbered step ${j + 1} of the rewrite is step ${at + 1} of the draft`,
          sentence: excerpt(r.text),
        });
    });
  }
  const rowOrder = pairs
    .filter(([d]) => d.kind === 'row')
    .map(([d, r]) => ({ d: D.indexOf(d), r: R.indexOf(r), text: r.text }))
    .sort((a, b) => a.r - b.r);
  for (let k = 1; k < rowOrder.length; k++)
    if (rowOrder[k]!.d < rowOrder[k - 1]!.d) {
      out.push({ rule: 'order', message: 'table rows are out of the draft’s order', sentence: excerpt(rowOrder[k]!.text) });
      break;
    }
}

/** A violation as one line for a note: what, the rule, and the sentence. */
export function describeViolation(v: RewriteViolation): string {
  return v.sentence ? `${v.message} (rule: ${v.rule}; sentence: “${v.sentence}”)` : `${v.message} (rule: ${v.rule})`;
}
