/**
 * Scoring a drafted release-notes document against the repository's own changelog section for that release
 * (`bench/changelog.ts`). Pure, so `test/unit/bench/changelog-score.test.ts` checks it on small changelogs.
 *
 * - A changelog is cut into release sections: a heading (or a setext title, `5.1.0 / 2025-03-31` over `===`)
 *   naming a version; release-please's heading also names the previous tag in its compare link.
 * - Its entries are the bullets of a section (at any depth), except label bullets ("* breaking:") whose nested
 *   bullets are the entries; each entry keeps the PR numbers (`#650`, `/pull/650`, `/issues/650`) and commit
 *   shas (`/commit/<sha>`, `` `abc1234` ``) it names, and its class: from an inline `*Breaking:*` prefix, its
 *   label bullet, or the sub-heading it stands under (classOfHeading).
 * - An entry of the changelog matches an entry of the draft that names one of its PR numbers or shas. Where the
 *   two name no reference of the same kind, by their words (Dice coefficient of their word sets ≥ TEXT_MATCH):
 *   a hand-written changelog that names none (express's History.md), and a draft entry made from a commit that
 *   names no PR number where the changelog names the PR (commander.js merges some pull requests by rebasing, so
 *   their commits reach the default branch without the number). Two entries that name the same security
 *   advisory (CVE-2024-51999, GHSA-…) are the same change whatever their words, and so are a bare dependency
 *   bump ("cookie@0.7.0") and an entry that names that package (express 5.0.1's "Update `cookie` semver lock to
 *   address CVE-2024-47764"). A short title whose words a longer changelog sentence all says again (CONTAINED_MATCH)
 *   is the same change too. An entry is matchable when what
 *   it names is in the range drafted (a PR or commit of it; else a title of the range, with no PR number where
 *   the entry names one, that its words match): the recall is over matchable entries only, and how many were
 *   not matchable is reported.
 * - Recall = matched matchable changelog entries / matchable ones; precision = draft entries that some changelog
 *   entry matches / draft entries; section agreement = matched pairs whose classes agree / matched pairs whose
 *   changelog class is known; length ratio = draft characters / changelog section characters.
 */

export type EntryClass = 'breaking' | 'feature' | 'fix' | 'revert' | 'other';

export interface ChangelogEntry {
  text: string;
  prs: number[];
  shas: string[];
  class?: EntryClass;
}

export interface ChangelogSection {
  version: string;
  /** The tag the section's compare link starts from (release-please), when it has one. */
  compareFrom?: string;
  /** The section's text after its heading. */
  body: string;
  entries: ChangelogEntry[];
}

export interface DraftEntry {
  text: string;
  prs: number[];
  shas: string[];
  class: EntryClass;
}

/** A change of the range drafted, for telling which changelog entries a draft could list at all. */
export interface RangeChange {
  title: string;
  prNumber?: number;
  sha?: string;
}

export interface Score {
  changelogEntries: number;
  matchable: number;
  matched: number;
  draftEntries: number;
  draftMatched: number;
  /** Matched pairs whose changelog class is known, and how many of them agree. */
  classified: number;
  agreeing: number;
  recall: number;
  precision: number;
  sectionAgreement: number;
  lengthRatio: number;
  /** Changelog entries matchable but not listed, and draft entries no changelog entry names (for reading). */
  missed: string[];
  extra: string[];
}

/** Two texts name the same change when their word sets overlap at least this much (Dice coefficient). */
export const TEXT_MATCH = 0.5;

const VERSION_IN = /\b(\d{1,6}\.\d{1,6}\.\d{1,6}(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)\b/;
const COMPARE = /\/compare\/([^\s/)]+?)\.\.\.([^\s/)]+?)\)/;

/** The class a changelog heading or label gives its entries; undefined when it says nothing about the kind. */
export function classOfHeading(heading: string): EntryClass | undefined {
  const h = heading.toLowerCase();
  if (/break|major changes/.test(h)) return 'breaking';
  if (/revert/.test(h)) return 'revert';
  if (/\bfix|bug|patch changes/.test(h)) return 'fix';
  if (/feat|\badded\b|\bnew\b|minor changes|improv|enhanc|perf/.test(h)) return 'feature';
  if (/chang|delet|remov|deprecat|doc|misc|chore|depend|deps|security|refactor|build|test/.test(h)) return 'other';
  return undefined;
}

/** The draft's class for a release-notes heading (Improvements count with features: better behaviour, not a fix). */
export function classOfDraftHeading(heading: string): EntryClass | undefined {
  if (heading === 'Breaking changes') return 'breaking';
  if (heading === 'New features' || heading === 'Improvements') return 'feature';
  if (heading === 'Fixes') return 'fix';
  if (heading === 'Reverts') return 'revert';
  if (heading === 'Other changes') return 'other';
  return undefined;
}

function refsOf(text: string): { prs: number[]; shas: string[] } {
  const prs = new Set<number>();
  const shas = new Set<string>();
  for (const m of text.matchAll(/(?:#|\/pull\/|\/issues\/)(\d{1,7})\b/g)) prs.add(Number(m[1]));
  for (const m of text.matchAll(/\/commit\/([0-9a-f]{7,40})\b/g)) shas.add(m[1]!.slice(0, 7));
  for (const m of text.matchAll(/`([0-9a-f]{7,40})`/g)) shas.add(m[1]!.slice(0, 7));
  return { prs: [...prs], shas: [...shas] };
}

const bulletOf = (line: string) => /^(\s*)[-*+]\s+(.*)$/.exec(line);

/** The release sections of a changelog, newest first as the file lists them. */
export function parseChangelog(text: string): ChangelogSection[] {
  const lines = text.split('\n');
  const heads: { at: number; level: number; version: string; compareFrom?: string; bodyFrom: number }[] = [];
  lines.forEach((line, i) => {
    const atx = /^(#{1,6})\s+(.*)$/.exec(line);
    const setext = i + 1 < lines.length && /^={3,}\s*$/.test(lines[i + 1]!) && line.trim() !== '' ? line : undefined;
    const title = atx ? atx[2]! : setext;
    if (title === undefined) return;
    const version = VERSION_IN.exec(title)?.[1];
    if (!version) return;
    const compare = COMPARE.exec(title);
    heads.push({
      at: i,
      level: atx ? atx[1]!.length : 1,
      version,
      ...(compare ? { compareFrom: compare[1] } : {}),
      bodyFrom: setext ? i + 2 : i + 1,
    });
  });
  // Release headings are the shallowest level that names versions; deeper ones are entries' own words.
  const level = Math.min(...heads.map((h) => h.level));
  const releases = heads.filter((h) => h.level === level);
  return releases.map((h, k) => {
    const end = k + 1 < releases.length ? releases[k + 1]!.at : lines.length;
    const body = lines.slice(h.bodyFrom, end).join('\n').trim();
    return {
      version: h.version,
      ...(h.compareFrom ? { compareFrom: h.compareFrom } : {}),
      body,
      entries: entriesOf(lines.slice(h.bodyFrom, end)),
    };
  });
}

function entriesOf(lines: string[]): ChangelogEntry[] {
  const out: ChangelogEntry[] = [];
  let heading: EntryClass | undefined;
  const labels: { indent: number; cls: EntryClass | undefined }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      heading = classOfHeading(h[1]!);
      labels.length = 0;
      continue;
    }
    const b = bulletOf(line);
    if (!b) continue;
    const indent = b[1]!.length;
    while (labels.length && labels[labels.length - 1]!.indent >= indent) labels.pop();
    const text = b[2]!.trim();
    const next = lines[i + 1] ? bulletOf(lines[i + 1]!) : null;
    // "* breaking:" with nested bullets: a label, not an entry.
    if (/:$/.test(text) && next && next[1]!.length > indent && refsOf(text).prs.length === 0 && refsOf(text).shas.length === 0) {
      labels.push({ indent, cls: classOfHeading(text) });
      continue;
    }
    const inline = /^\*{1,2}breaking:?\*{1,2}|^breaking:/i.test(text) ? 'breaking' : undefined;
    const label = [...labels].reverse().find((l) => l.cls !== undefined)?.cls;
    const cls = inline ?? label ?? heading;
    out.push({ text, ...refsOf(text), ...(cls ? { class: cls } : {}) });
  }
  return mergeRepeats(out);
}

/** Strongest first: a change listed twice (release-please lists a breaking feature under both) counts once, as the first of these. */
const CLASS_ORDER: EntryClass[] = ['breaking', 'feature', 'fix', 'revert', 'other'];

/** Entries naming the same PR or commit are one change: the first keeps its text, the strongest class wins. */
function mergeRepeats(entries: ChangelogEntry[]): ChangelogEntry[] {
  const out: ChangelogEntry[] = [];
  for (const e of entries) {
    const same = hasRefs(e) ? out.find((o) => e.prs.some((n) => o.prs.includes(n)) || shaMatch(e.shas, o.shas)) : undefined;
    if (!same) {
      out.push(e);
      continue;
    }
    same.prs = [...new Set([...same.prs, ...e.prs])];
    same.shas = [...new Set([...same.shas, ...e.shas])];
    const rank = (c: EntryClass | undefined) => (c === undefined ? CLASS_ORDER.length : CLASS_ORDER.indexOf(c));
    if (rank(e.class) < rank(same.class)) same.class = e.class!;
  }
  return out;
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'of',
  'in',
  'for',
  'and',
  'or',
  'with',
  'on',
  'is',
  'be',
  'by',
  'when',
  'from',
  'it',
  'as',
  'at',
  'this',
  'that',
  'now',
]);

/** The words of an entry, without links, references, conventional prefixes and small words. */
export function wordsOf(text: string): Set<string> {
  const plain = text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/^\s*\w+(\([^)]*\))?!?:\s*/, '')
    .toLowerCase();
  return new Set((plain.match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w) && !/^\d+$/.test(w) && !/^[0-9a-f]{7,40}$/.test(w)));
}

export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (2 * shared) / (a.size + b.size);
}

const shaMatch = (a: readonly string[], b: readonly string[]) => a.some((x) => b.some((y) => x.startsWith(y) || y.startsWith(x)));
const hasRefs = (e: { prs: number[]; shas: string[] }) => e.prs.length > 0 || e.shas.length > 0;

/** Security advisories a text names (CVE-2024-51999, GHSA-pj86-cfqh-vqx6), upper-cased. */
export function advisoriesOf(text: string): Set<string> {
  return new Set([...text.matchAll(/\b(CVE-\d{4}-\d{4,7}|GHSA(?:-[0-9a-z]{4}){3})\b/gi)].map((m) => m[1]!.toUpperCase()));
}

const sameAdvisory = (a: string, b: string) => {
  const x = advisoriesOf(a);
  return x.size > 0 && [...advisoriesOf(b)].some((id) => x.has(id));
};

/**
 * The package a bare dependency bump names: "cookie@0.7.0", "deps: cookie@0.7.0", "`router@^2.0.0`", "fix(deps):
 * serve-static@2.0.0"; undefined for anything else. Its words are only the package's name (wordsOf drops the
 * version's numbers), so a word overlap with a changelog's sentence about the same bump cannot reach TEXT_MATCH.
 */
export function bumpedPackage(text: string): string | undefined {
  const m = /^(?:(?:deps|fix ?\(deps\)|chore ?\(deps\)):?\s*)?`?((?:@[\w.-]+\/)?[\w.-]+)@[\^~]?\d[\w.-]*`?$/i.exec(text.trim());
  return m?.[1]!.toLowerCase();
}

/** Whether the text names the package as code ("Update `cookie` semver lock") or at a version ("cookie@0.7.1"). */
function namesPackage(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  return (
    lower.includes(`\`${name}\``) || lower.includes(`\`${name}@`) || new RegExp(`(^|[\\s:(])${name.replace(/[.]/g, '\\.')}@`).test(lower)
  );
}

/** Both about one dependency: one is a bare bump of a package (bumpedPackage) the other names. */
const samePackage = (a: string, b: string) => {
  const x = bumpedPackage(a);
  const y = bumpedPackage(b);
  return (x !== undefined && namesPackage(b, x)) || (y !== undefined && namesPackage(a, y));
};

/**
 * A commit title's words all said again in a changelog's longer sentence: at least this share of the smaller word set
 * (word endings removed, stemOf) is in the other, and the smaller has at least CONTAINED_MIN_WORDS words. Dice
 * counts the sentence's other words against the pair ("Add deprecation warnings for redirect arguments undefined" /
 * express 5.2.0's "A deprecation warning was added when using `res.redirect` with undefined arguments, Express now
 * emits a warning to help detect calls …": Dice 0.30, every word of the title in the sentence).
 */
export const CONTAINED_MATCH = 0.8;
export const CONTAINED_MIN_WORDS = 3;

/** A word without its plural, past or -ing ending, and a final e ("warnings", "warning" → "warn"; "codes", "code" → "cod"). */
export function stemOf(word: string): string {
  let w = word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
  const ending = ['ing', 'ed', 'es'].find((e) => w.endsWith(e) && w.length - e.length >= 3);
  if (ending) w = w.slice(0, -ending.length);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Share of the smaller set's members that are in the other (the overlap coefficient). */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / small.size;
}

const stemsOf = (text: string) => new Set([...wordsOf(text)].map(stemOf));

function contained(a: string, b: string): boolean {
  const x = stemsOf(a);
  const y = stemsOf(b);
  return Math.min(x.size, y.size) >= CONTAINED_MIN_WORDS && overlap(x, y) >= CONTAINED_MATCH;
}

/** By words: the same advisory, the same dependency bumped, word sets that overlap at least TEXT_MATCH, or one contained in the other. */
const sameWords = (a: string, b: string) =>
  sameAdvisory(a, b) || samePackage(a, b) || dice(wordsOf(a), wordsOf(b)) >= TEXT_MATCH || contained(a, b);

function sameChange(r: ChangelogEntry, d: DraftEntry): boolean {
  const comparable = (r.prs.length > 0 && d.prs.length > 0) || (r.shas.length > 0 && d.shas.length > 0);
  if (comparable) return r.prs.some((n) => d.prs.includes(n)) || shaMatch(r.shas, d.shas);
  return sameWords(r.text, d.text);
}

function inRange(r: ChangelogEntry, range: readonly RangeChange[]): boolean {
  if (
    hasRefs(r) &&
    range.some(
      (c) => (c.prNumber !== undefined && r.prs.includes(c.prNumber)) || (c.sha !== undefined && shaMatch(r.shas, [c.sha.slice(0, 7)])),
    )
  )
    return true;
  // By words: a range change that names no PR number where the entry names one (or any, where it names none).
  return range.some((c) => (r.prs.length === 0 || c.prNumber === undefined) && sameWords(r.text, c.title));
}

export function scoreDraft(
  section: ChangelogSection,
  draft: readonly DraftEntry[],
  range: readonly RangeChange[],
  draftMarkdown: string,
): Score {
  const matchable = section.entries.filter((r) => inRange(r, range));
  const pairs = new Map<ChangelogEntry, DraftEntry>();
  for (const r of section.entries) {
    const d = draft.find((x) => sameChange(r, x));
    if (d) pairs.set(r, d);
  }
  const matched = matchable.filter((r) => pairs.has(r)).length;
  const draftMatched = draft.filter((d) => section.entries.some((r) => sameChange(r, d))).length;
  const classified = [...pairs].filter(([r]) => r.class !== undefined);
  const agreeing = classified.filter(([r, d]) => r.class === d.class).length;
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    changelogEntries: section.entries.length,
    matchable: matchable.length,
    matched,
    draftEntries: draft.length,
    draftMatched,
    classified: classified.length,
    agreeing,
    recall: ratio(matched, matchable.length),
    precision: ratio(draftMatched, draft.length),
    sectionAgreement: ratio(agreeing, classified.length),
    lengthRatio: section.body.length === 0 ? Number.NaN : draftMarkdown.length / section.body.length,
    missed: matchable.filter((r) => !pairs.has(r)).map((r) => r.text),
    extra: draft.filter((d) => !section.entries.some((r) => sameChange(r, d))).map((d) => d.text),
  };
}

/**
 * The entries of a drafted document (its marker form, `markdownWithCitations`, per section): each bullet of a
 * group section, with the PR numbers and commit shas its citation markers name.
 */
export function draftEntries(sections: readonly { heading: string; markdownWithCitations: string }[]): DraftEntry[] {
  const out: DraftEntry[] = [];
  for (const s of sections) {
    const cls = classOfDraftHeading(s.heading);
    if (!cls) continue;
    for (const line of s.markdownWithCitations.split('\n')) {
      const b = bulletOf(line);
      if (!b) continue;
      const prs = [...line.matchAll(/\[pr:(\d+)\]|\[#(\d+)\]/g)].map((m) => Number(m[1] ?? m[2]));
      const shas = [...line.matchAll(/\[commit:([0-9a-f]{7,40})\]/g)].map((m) => m[1]!.slice(0, 7));
      // The title alone: without citation markers, its references "([#12](…); 1.2.0)" and its people " by …".
      const text = b[2]!
        .replace(/\s*\[[a-z_]+:[^\]\s]+\]/g, '')
        .replace(/ \(\[#.*$| \([^()]*\d+\.\d+\.\d+[^()]*\)( by .*)?$| by [^()]*$/, '')
        .replace(/^\*\*(.*)\*\*/, '$1')
        .trim();
      out.push({ text, prs: [...new Set(prs)], shas: [...new Set(shas)], class: cls });
    }
  }
  return out;
}

/** Sections of a drafted document that say nothing (empty, or an old "No fixes."-style placeholder). */
export function emptySections(sections: readonly { heading: string; markdown: string }[]): string[] {
  return sections
    .filter(
      (s) =>
        s.markdown.trim() === '' ||
        /^(No [a-z ]+\.|Nothing [a-z' ]+ this time\.|This release contains no [a-z ]+\.)$/.test(s.markdown.trim()),
    )
    .map((s) => s.heading);
}
