/**
 * The deterministic release notes: the catalog's sections in its order, each only when it has something to
 * say (no "No fixes." under an empty heading, as release-please and GitHub's generated notes leave empty
 * categories out), every entry citing its documents. Highlights appear only where they add to the entries: a
 * draft before the tag (what it covers, the version the changes call for), a range over several releases, a
 * large release (LARGE_RELEASE entries, or a major one); they summarise, never repeat an entry.
 */
import { assembleResult } from '../assemble';
import type { ProjectDocument, ReleaseDocument } from '../documents';
import { bulletList, cite, citeAll, escapeText, renderDocument, safeUrl, section } from '../markdown';
import type { DraftSection, ReleaseStatus, SkillResult } from '../result';
import { joinList, plural, trimEndOf } from '../text';
import { formatDate } from '../time';
import { compareSemver, isMajorRelease } from '../semver';
import { commitUrl, compareUrl as forgeCompareUrl, tagOfReleaseUrl, type Forge } from '../forge';
import type { DocumentKind } from '../types';
import { changeDocuments } from './changes';
import { releaseNotesComposer, type ReleaseNotesInputs, type Tone } from './definition';
import type { Category } from './classify';
import { renderReferences } from './references';
import { STRONGEST_WORDS, type Entry, type ReleaseDraft, type ReleaseNotesSelection } from './select';
import { groupNoun, noneMarkedBreaking, PHRASES } from './tone';

/** The headings, in order, from the catalog entry (definition.ts). */
const [H_HIGHLIGHTS, H_BREAKING, H_FEATURES, H_IMPROVEMENTS, H_FIXES, H_REVERTS, H_OTHER, H_CONTRIBUTORS, H_CHANGELOG] =
  releaseNotesComposer.output.sections;

/** From this many listed entries on, a release gets Highlights (a summary of what the sections hold). */
const LARGE_RELEASE = 10;

function title(tone: Tone, version: string, unreleased: boolean): string {
  if (tone === 'casual') return `What's new in ${version}${unreleased ? ' (not released yet)' : ''}`;
  if (tone === 'formal') return `Release Notes: Version ${version}${unreleased ? ' (Unreleased)' : ''}`;
  return `Release notes: ${version}${unreleased ? ' (unreleased)' : ''}`;
}

interface Context {
  tone: Tone;
  inputs: ReleaseNotesInputs;
  /** More than one release in the range: entries name the release they first appear in. */
  multiRelease: boolean;
  /** The first major release in the range (semver.ts, isMajorRelease), if any. */
  majorRelease: string | null;
  draft?: ReleaseDraft;
}

/** Punctuation an entry's title may end with that a list item does not: "Add dark mode." → "Add dark mode". */
const TRAILING = '.,;:!';

/**
 * "Add dark mode ([#52](…), WEB-31; 1.2.0) by @ada": the title as its author wrote it (tidied by tidyTitle,
 * never reworded), its references (and release, when the range spans several), and its authors.
 */
function entryText(ctx: Context, entry: Entry, bold = false): string {
  const title = escapeText(trimEndOf(entry.title, TRAILING, true));
  const release = ctx.multiRelease ? (entry.version ?? 'unreleased') : '';
  const refs = [renderReferences(entry.references), release].filter(Boolean);
  const by = entry.authors.length ? ` by ${joinList(entry.authors.map(escapeText))}` : '';
  return `${bold ? `**${title}**` : title}${refs.length ? ` (${refs.join('; ')})` : ''}${by}`;
}

function entryLine(ctx: Context, entry: Entry): string {
  const sources = citeAll(changeDocuments(entry.change));
  if (entry.category !== 'breaking') return `${entryText(ctx, entry)} ${sources}`;
  // What to do is the change's own migration note, as its author wrote it, in every tone.
  const action = entry.migration ? `. ${PHRASES.actionLabel[ctx.tone]} ${escapeText(entry.migration)}` : '';
  return `${entryText(ctx, entry, true)}${action} ${sources}`;
}

const GROUPS: { heading: string; category: Exclude<Category, 'other' | 'docs'>; intro: Record<Tone, string> }[] = [
  { heading: H_BREAKING, category: 'breaking', intro: PHRASES.breakingIntro },
  { heading: H_FEATURES, category: 'feature', intro: PHRASES.featuresIntro },
  { heading: H_IMPROVEMENTS, category: 'improvement', intro: PHRASES.improvementsIntro },
  { heading: H_FIXES, category: 'fix', intro: PHRASES.fixesIntro },
  { heading: H_REVERTS, category: 'revert', intro: PHRASES.revertsIntro },
];

/** A group's section, or nothing when the group is empty. */
function groupSection(ctx: Context, group: (typeof GROUPS)[number], entries: Entry[]): DraftSection[] {
  const mine = entries.filter((e) => e.category === group.category);
  if (mine.length === 0) return [];
  const silent = group.category === 'breaking' ? mine.filter((e) => !e.migration).length : 0;
  // Breaking changes whose documents say nothing about migrating are named as such once, not per entry.
  const intro = [group.intro[ctx.tone], silent ? PHRASES.noMigration[ctx.tone](silent, silent === mine.length) : '']
    .filter(Boolean)
    .join(' ');
  const list = bulletList(mine.map((e) => entryLine(ctx, e)));
  return [section(group.heading, intro ? `${intro}\n\n${list}` : list)];
}

/**
 * Changes of no recognisable kind, listed with their references after the groups; then the documentation
 * changes in one line that cites them (release-please leaves documentation out; a reader may want to know).
 */
function otherChanges(ctx: Context, entries: Entry[]): DraftSection[] {
  const others = entries.filter((e) => e.category === 'other');
  const docs = entries.filter((e) => e.category === 'docs');
  if (others.length === 0 && docs.length === 0) return [];
  const intro = others.length ? PHRASES.otherIntro[ctx.tone] : '';
  const list = others.length ? bulletList(others.map((e) => entryLine(ctx, e))) : '';
  const docsLine = docs.length
    ? `${PHRASES.docsLine[ctx.tone](docs.length)} ${citeAll(docs.flatMap((e) => changeDocuments(e.change)))}`
    : '';
  return [section(H_OTHER, [intro, list, docsLine].filter(Boolean).join('\n\n'))];
}

function countsSentence(ctx: Context, entries: Entry[]): string {
  const n = (c: Category) => entries.filter((e) => e.category === c).length;
  const parts = [
    n('breaking') ? plural(n('breaking'), 'breaking change') : '',
    n('feature') ? groupNoun('feature', n('feature')) : '',
    n('improvement') ? groupNoun('improvement', n('improvement')) : '',
    n('fix') ? groupNoun('fix', n('fix')) : '',
    n('revert') ? plural(n('revert'), 'revert') : '',
    n('other') ? plural(n('other'), 'other change') : '',
    n('docs') ? plural(n('docs'), 'documentation change') : '',
  ].filter(Boolean);
  const from = ctx.inputs.fromVersion;
  if (parts.length === 0) {
    if (ctx.tone === 'casual') return `Nothing users would notice has changed since ${from}.`;
    return ctx.tone === 'formal'
      ? `Since version ${from}, no user-facing changes have been made.`
      : `No user-facing changes since ${from}.`;
  }
  if (ctx.tone === 'casual') return `Here's what changed since ${from}: ${joinList(parts)}.`;
  if (ctx.tone === 'formal') return `Since version ${from}, this release includes ${joinList(parts)}.`;
  return `Since ${from}: ${joinList(parts)}.`;
}

/** The version, linked to its release page when there is one (the published form then needs no other link). */
function versionLink(release: ReleaseDocument): string {
  const url = safeUrl(release.url);
  return url ? `[${escapeText(release.version)}](${url.replace(/[()<>\s]/g, encodeURIComponent)})` : escapeText(release.version);
}

/** What a draft before the tag covers, and the version its changes call for. */
function draftStatus(ctx: Context, sel: ReleaseNotesSelection, draft: ReleaseDraft): string {
  const { fromVersion: from, toVersion: to } = ctx.inputs;
  const head = draft.head;
  const short = head ? head.sha.slice(0, 7) : '';
  const url = head && sel.forge ? commitUrl(sel.forge, head.sha) : undefined;
  const upTo = head ? ` up to commit ${url ? `[${short}](${url})` : short} of ${formatDate(head.committedAt)} ${cite(head)}` : '';
  const formal = ctx.tone === 'formal';
  const status = formal
    ? `**Not released yet.** Version ${to} is not tagged; this draft covers the changes after ${from}${upTo}.`
    : ctx.tone === 'casual'
      ? `**Not released yet.** ${to} isn't tagged, so this draft covers what's landed after ${from}${upTo}.`
      : `**Not released yet.** ${to} is not tagged: this draft covers the changes after ${from}${upTo}.`;
  const proposal = draft.proposal
    ? `The changes since ${draft.base} call for version **${draft.proposal.version}** (${draft.proposal.bump}: ${STRONGEST_WORDS[draft.strongest!]}).`
    : `Nothing listed has changed since ${draft.base}.`;
  return `${status} ${proposal}`;
}

/** Highlights, when they add something to the sections below (see the header); a summary, never an entry. */
function highlights(ctx: Context, sel: ReleaseNotesSelection): DraftSection[] {
  const listed = sel.entries.length;
  const breaking = sel.entries.some((e) => e.category === 'breaking');
  const between = sel.releases.filter((r) => r.version !== ctx.inputs.fromVersion && r.version !== ctx.inputs.toVersion).length;
  const quietMajor = ctx.majorRelease !== null && !breaking && listed > 0;
  if (!ctx.draft && listed < LARGE_RELEASE && between === 0 && ctx.majorRelease === null) return [];
  const parts = [
    ctx.draft ? draftStatus(ctx, sel, ctx.draft) : '',
    countsSentence(ctx, sel.entries),
    quietMajor ? noneMarkedBreaking(ctx.tone, ctx.majorRelease!) : '',
  ].filter(Boolean);
  return [section(H_HIGHLIGHTS, parts.join(' '))];
}

/**
 * Everyone credited, once each (each entry names its people and cites where they are credited), then the
 * first contributions as GitHub's generated notes list them, each citing the change it was. Nothing when no
 * one is credited.
 */
function contributors(ctx: Context, sel: ReleaseNotesSelection): DraftSection[] {
  if (sel.contributors.length === 0 && sel.firstContributions.length === 0) return [];
  const names = sel.contributors.length
    ? `${PHRASES.contributorsIntro[ctx.tone]} ${joinList(sel.contributors.map((c) => escapeText(c.name)))}.`
    : '';
  if (sel.firstContributions.length === 0) return [section(H_CONTRIBUTORS, names)];
  const firsts = bulletList(
    sel.firstContributions.map((f) => {
      const where = renderReferences(f.references.slice(0, 1));
      return `${escapeText(f.name)} made their first contribution${where ? ` in ${where}` : ''} ${citeAll(f.credits)}`;
    }),
  );
  return [section(H_CONTRIBUTORS, [names, `${PHRASES.newContributorsIntro[ctx.tone]}\n\n${firsts}`].filter(Boolean).join('\n\n'))];
}

/** The repository's compare page between two tags (or a tag and a commit), when the repository and both ends are known. */
function compareUrl(
  forge: Forge | undefined,
  from: ReleaseDocument | undefined,
  to: ReleaseDocument | string | undefined,
): string | undefined {
  if (!forge) return undefined;
  const tag = (r: ReleaseDocument | undefined) => r && (r.tag || (r.url ? tagOfReleaseUrl(forge, r.url) : undefined));
  const [a, b] = [tag(from), typeof to === 'string' ? to : tag(to)];
  return a && b ? forgeCompareUrl(forge, a, b) : undefined;
}

function fullChangelog(ctx: Context, sel: ReleaseNotesSelection): DraftSection {
  const { fromVersion: from, toVersion: to } = ctx.inputs;
  const fromRelease = sel.releases.find((r) => r.version === from);
  const toRelease = sel.releases.find((r) => r.version === to);
  const head = ctx.draft?.head;
  const url = compareUrl(sel.forge, fromRelease, ctx.draft ? head?.sha : toRelease);
  const end = ctx.draft ? (head ? head.sha.slice(0, 7) : to) : to;
  const range = url ? `[${from}...${end}](${url})` : `${from}...${end}`;
  const released = toRelease
    ? ctx.tone === 'formal'
      ? `, released on ${formatDate(toRelease.releasedAt)}`
      : `, released ${formatDate(toRelease.releasedAt)}`
    : '';
  const ends = citeAll([fromRelease, toRelease].filter((r): r is ReleaseDocument => r !== undefined));
  const line = `**Full changelog:** ${range}${released}${ends ? ` ${ends}` : ''}`;
  const between = sel.releases.filter((r) => r.version !== from && r.version !== to);
  if (between.length === 0) return section(H_CHANGELOG, line);
  const label = ctx.tone === 'formal' ? 'The range also includes the following releases:' : 'Releases in between:';
  return section(
    H_CHANGELOG,
    `${line}\n\n${label} ${between.map((r) => `${versionLink(r)} (${formatDate(r.releasedAt)}) ${cite(r)}`).join(', ')}`,
  );
}

function releaseStatus(inputs: ReleaseNotesInputs, sel: ReleaseNotesSelection): ReleaseStatus {
  const draft = sel.draft;
  if (!draft) {
    const release = sel.releases.find((r) => r.version === inputs.toVersion);
    return { version: inputs.toVersion, status: 'released', ...(release ? { releasedAt: release.releasedAt } : {}) };
  }
  return {
    version: inputs.toVersion,
    status: 'unreleased',
    base: draft.base,
    ...(draft.proposal ? { proposedVersion: draft.proposal.version, bump: draft.proposal.bump } : {}),
    ...(draft.head ? { upTo: { sha: draft.head.sha, committedAt: draft.head.committedAt } } : {}),
  };
}

export function draftReleaseNotes(
  inputs: ReleaseNotesInputs,
  sel: ReleaseNotesSelection,
  documents: readonly ProjectDocument[],
  searchedKinds: readonly DocumentKind[],
): SkillResult {
  const tone = inputs.tone ?? 'neutral';
  const versions = new Set(sel.entries.map((e) => e.version ?? ''));
  // The version named (its pre-releases are major too, but the release is what a reader upgrades to).
  const majorRelease =
    [...(sel.draft ? [] : [inputs.toVersion]), ...sel.releases.map((r) => r.version)].find(
      (v) => compareSemver(v, inputs.fromVersion) > 0 && isMajorRelease(v),
    ) ?? null;
  const ctx: Context = { tone, inputs, multiRelease: versions.size > 1, majorRelease, ...(sel.draft ? { draft: sel.draft } : {}) };
  const sections = [
    ...highlights(ctx, sel),
    ...GROUPS.flatMap((g) => groupSection(ctx, g, sel.entries)),
    ...otherChanges(ctx, sel.entries),
    ...contributors(ctx, sel),
    fullChangelog(ctx, sel),
  ];
  return assembleResult({
    title: title(tone, inputs.toVersion, sel.draft !== undefined),
    sections,
    render: renderDocument,
    documents,
    searchedKinds,
    reasons: sel.reasons,
    generator: 'deterministic',
    notes: sel.draft?.warnings ?? [],
    release: releaseStatus(inputs, sel),
  });
}
