/** The deterministic release notes: sections in the catalog's order, every entry citing its documents. */
import { assembleResult } from '../assemble';
import type { ProjectDocument, ReleaseDocument } from '../documents';
import { bulletList, cite, citeAll, escapeText, renderDocument, safeUrl, section } from '../markdown';
import type { DraftSection, SkillResult } from '../result';
import { joinList, plural, trimEndOf } from '../text';
import { formatDate } from '../time';
import { compareSemver, isMajorRelease } from '../semver';
import { compareUrl as forgeCompareUrl, tagOfReleaseUrl, type Forge } from '../forge';
import type { DocumentKind } from '../types';
import { changeDocuments } from './changes';
import { releaseNotesComposer, type ReleaseNotesInputs, type Tone } from './definition';
import type { Category } from './classify';
import { renderReferences } from './references';
import type { Entry, ReleaseNotesSelection } from './select';
import { emptyGroup, groupNoun, noneMarkedBreaking, PHRASES } from './tone';

/** The headings, in order, from the catalog entry (definition.ts). */
const [H_HIGHLIGHTS, H_BREAKING, H_FEATURES, H_IMPROVEMENTS, H_FIXES, H_OTHER, H_CONTRIBUTORS, H_CHANGELOG] =
  releaseNotesComposer.output.sections;

const HIGHLIGHTS = 3;

function title(tone: Tone, version: string): string {
  if (tone === 'casual') return `What's new in ${version}`;
  if (tone === 'formal') return `Release Notes: Version ${version}`;
  return `Release notes: ${version}`;
}

interface Context {
  tone: Tone;
  inputs: ReleaseNotesInputs;
  /** More than one release in the range: entries name the release they first appear in. */
  multiRelease: boolean;
  /** The first major release in the range (semver.ts, isMajorRelease), if any. */
  majorRelease: string | null;
}

/** Punctuation an entry's title may end with that a list item does not: "Add dark mode." → "Add dark mode". */
const TRAILING = '.,;:!';

/**
 * "Add dark mode ([#52](…), WEB-31; 1.2.0) by Ada Lovelace": the title as its author wrote it (tidied by
 * tidyTitle, never reworded), its references (and release, when the range spans several), and its authors.
 */
function entryText(ctx: Context, entry: Entry, withVersion: boolean, bold = false): string {
  const title = escapeText(trimEndOf(entry.title, TRAILING, true));
  const refs = [renderReferences(entry.references), withVersion && ctx.multiRelease ? entry.version : ''].filter(Boolean);
  const by = entry.authors.length ? ` by ${joinList(entry.authors.map(escapeText))}` : '';
  return `${bold ? `**${title}**` : title}${refs.length ? ` (${refs.join('; ')})` : ''}${by}`;
}

function entryLine(ctx: Context, entry: Entry): string {
  const sources = citeAll(changeDocuments(entry.change));
  if (entry.category !== 'breaking') return `${entryText(ctx, entry, true)} ${sources}`;
  // What to do is the change's own migration note, as its author wrote it, in every tone.
  const action = entry.migration ? `. ${PHRASES.actionLabel[ctx.tone]} ${escapeText(entry.migration)}` : '';
  return `${entryText(ctx, entry, true, true)}${action} ${sources}`;
}

const GROUP_INTRO = {
  breaking: PHRASES.breakingIntro,
  feature: PHRASES.featuresIntro,
  improvement: PHRASES.improvementsIntro,
  fix: PHRASES.fixesIntro,
};

function groupSection(ctx: Context, heading: string, category: keyof typeof GROUP_INTRO, entries: Entry[]): DraftSection {
  const mine = entries.filter((e) => e.category === category);
  if (mine.length === 0) {
    const none =
      category === 'breaking' && ctx.majorRelease ? noneMarkedBreaking(ctx.tone, ctx.majorRelease) : emptyGroup(ctx.tone, category);
    return section(heading, none);
  }
  const silent = category === 'breaking' ? mine.filter((e) => !e.migration).length : 0;
  // Breaking changes whose documents say nothing about migrating are named as such once, not per entry.
  const intro = [GROUP_INTRO[category][ctx.tone], silent ? PHRASES.noMigration[ctx.tone](silent, silent === mine.length) : '']
    .filter(Boolean)
    .join(' ');
  const list = bulletList(mine.map((e) => entryLine(ctx, e)));
  return section(heading, intro ? `${intro}\n\n${list}` : list);
}

function countsSentence(ctx: Context, entries: Entry[]): string {
  const n = (c: Category) => entries.filter((e) => e.category === c).length;
  const parts = [
    n('breaking') ? plural(n('breaking'), 'breaking change') : '',
    n('feature') ? groupNoun('feature', n('feature')) : '',
    n('improvement') ? groupNoun('improvement', n('improvement')) : '',
    n('fix') ? groupNoun('fix', n('fix')) : '',
    n('other') ? plural(n('other'), 'other change') : '',
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

function highlights(ctx: Context, sel: ReleaseNotesSelection): DraftSection {
  const to = ctx.inputs.toVersion;
  const release = sel.releases.find((r) => r.version === to);
  const released = !release
    ? ''
    : ctx.tone === 'casual'
      ? `${versionLink(release)} is out, released on ${formatDate(release.releasedAt)} ${cite(release)}. `
      : `Version ${versionLink(release)} was released on ${formatDate(release.releasedAt)} ${cite(release)}. `;
  const top = sel.entries.filter((e) => e.category !== 'other').slice(0, HIGHLIGHTS);
  const bullets = top.map((e) => `${entryText(ctx, e, false)} ${citeAll(changeDocuments(e.change))}`);
  return section(H_HIGHLIGHTS, `${released}${countsSentence(ctx, sel.entries)}${bullets.length ? `\n\n${bulletList(bullets)}` : ''}`);
}

function otherChanges(ctx: Context, entries: Entry[]): DraftSection {
  const others = entries.filter((e) => e.category === 'other');
  if (others.length === 0) return section(H_OTHER, emptyGroup(ctx.tone, 'other'));
  const sources = citeAll(others.flatMap((e) => changeDocuments(e.change)));
  const n = others.length;
  if (ctx.tone === 'casual') return section(H_OTHER, `Plus ${plural(n, 'smaller change')}. ${sources}`);
  if (ctx.tone === 'formal')
    return section(
      H_OTHER,
      `This release also contains ${plural(n, 'other change')} that ${n === 1 ? 'is' : 'are'} not listed individually. ${sources}`,
    );
  return section(H_OTHER, `${plural(n, 'other change')}, not listed individually. ${sources}`);
}

/**
 * Everyone credited, once each (each entry names its people and cites where they are credited), then the
 * first contributions as GitHub's generated notes list them, each citing the change it was.
 */
function contributors(ctx: Context, sel: ReleaseNotesSelection): DraftSection {
  if (sel.contributors.length === 0) {
    return section(
      H_CONTRIBUTORS,
      ctx.tone === 'formal' ? 'No contributors are recorded for the changes listed.' : 'No contributors recorded for the changes listed.',
    );
  }
  const names = `${PHRASES.contributorsIntro[ctx.tone]} ${joinList(sel.contributors.map((c) => escapeText(c.name)))}.`;
  if (sel.firstContributions.length === 0) return section(H_CONTRIBUTORS, names);
  const firsts = bulletList(
    sel.firstContributions.map((f) => {
      const where = renderReferences(f.entry.references.slice(0, 1));
      return `${escapeText(f.name)} made their first contribution${where ? ` in ${where}` : ''} ${citeAll(f.credits)}`;
    }),
  );
  return section(H_CONTRIBUTORS, `${names}\n\n${PHRASES.newContributorsIntro[ctx.tone]}\n\n${firsts}`);
}

/** The repository's compare page between the two release tags, when the repository and both tags are known. */
function compareUrl(forge: Forge | undefined, from: ReleaseDocument | undefined, to: ReleaseDocument | undefined): string | undefined {
  if (!forge) return undefined;
  const tag = (r: ReleaseDocument | undefined) => r && (r.tag || (r.url ? tagOfReleaseUrl(forge, r.url) : undefined));
  const [a, b] = [tag(from), tag(to)];
  return a && b ? forgeCompareUrl(forge, a, b) : undefined;
}

function fullChangelog(ctx: Context, sel: ReleaseNotesSelection): DraftSection {
  const { fromVersion: from, toVersion: to } = ctx.inputs;
  const fromRelease = sel.releases.find((r) => r.version === from);
  const toRelease = sel.releases.find((r) => r.version === to);
  const url = compareUrl(sel.forge, fromRelease, toRelease);
  const range = url ? `[${from}...${to}](${url})` : `${from}...${to}`;
  const ends = citeAll([fromRelease, toRelease].filter((r): r is ReleaseDocument => r !== undefined));
  const line = `**Full changelog:** ${range}${ends ? ` ${ends}` : ''}`;
  const between = sel.releases.filter((r) => r.version !== from && r.version !== to);
  if (between.length === 0) return section(H_CHANGELOG, line);
  const label = ctx.tone === 'formal' ? 'The range also includes the following releases:' : 'Releases in between:';
  return section(
    H_CHANGELOG,
    `${line}\n\n${label} ${between.map((r) => `${versionLink(r)} (${formatDate(r.releasedAt)}) ${cite(r)}`).join(', ')}`,
  );
}

export function draftReleaseNotes(
  inputs: ReleaseNotesInputs,
  sel: ReleaseNotesSelection,
  documents: readonly ProjectDocument[],
  searchedKinds: readonly DocumentKind[],
): SkillResult {
  const tone = inputs.tone ?? 'neutral';
  const versions = new Set(sel.entries.map((e) => e.version));
  const majorRelease =
    [...sel.releases.map((r) => r.version), inputs.toVersion].find((v) => compareSemver(v, inputs.fromVersion) > 0 && isMajorRelease(v)) ??
    null;
  const ctx: Context = { tone, inputs, multiRelease: versions.size > 1, majorRelease };
  const sections = [
    highlights(ctx, sel),
    groupSection(ctx, H_BREAKING, 'breaking', sel.entries),
    groupSection(ctx, H_FEATURES, 'feature', sel.entries),
    groupSection(ctx, H_IMPROVEMENTS, 'improvement', sel.entries),
    groupSection(ctx, H_FIXES, 'fix', sel.entries),
    otherChanges(ctx, sel.entries),
    contributors(ctx, sel),
    fullChangelog(ctx, sel),
  ];
  return assembleResult({
    title: title(tone, inputs.toVersion),
    sections,
    render: renderDocument,
    documents,
    searchedKinds,
    reasons: sel.reasons,
    generator: 'deterministic',
  });
}
