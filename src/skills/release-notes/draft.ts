/** The deterministic release notes: sections in the catalog's order, every entry citing its documents. */
import { assembleResult } from '../assemble';
import type { ProjectDocument, ReleaseDocument } from '../documents';
import { bulletList, cite, citeAll, escapeText, renderDocument, section } from '../markdown';
import type { ResultSection, SkillResult } from '../result';
import { joinList, plural } from '../text';
import { formatDate } from '../time';
import { compareUrl as forgeCompareUrl, tagOfReleaseUrl, type Forge } from '../forge';
import type { DocumentKind } from '../types';
import { changeDocuments } from './changes';
import { releaseNotesComposer, type ReleaseNotesInputs, type Tone } from './definition';
import type { Category } from './classify';
import { renderReferences } from './references';
import type { Entry, ReleaseNotesSelection } from './select';
import { emptyGroup, entrySentence, formalize, groupNoun, inTone, PHRASES } from './tone';

/** The headings, in order, from the catalog entry (definition.ts). */
const [H_HIGHLIGHTS, H_BREAKING, H_FEATURES, H_IMPROVEMENTS, H_FIXES, H_OTHER, H_CONTRIBUTORS, H_CHANGELOG] = releaseNotesComposer.output.sections;

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
}

/** "Added dark mode ([#52](…), WEB-31; 1.2.0)." — the entry's references (and release) before its period. */
function withReferences(sentence: string, parts: readonly string[]): string {
  const shown = parts.filter(Boolean);
  if (shown.length === 0) return sentence;
  const period = sentence.endsWith('.');
  return `${period ? sentence.slice(0, -1) : sentence} (${shown.join('; ')})${period ? '.' : ''}`;
}

function entryText(ctx: Context, entry: Entry, withVersion: boolean): string {
  const sentence = entrySentence(ctx.tone, entry.category, escapeText(entry.title), entry.problem);
  return withReferences(sentence, [renderReferences(entry.references), withVersion && ctx.multiRelease ? entry.version : '']);
}

function entryLine(ctx: Context, entry: Entry): string {
  const sources = citeAll(changeDocuments(entry.change));
  const text = entryText(ctx, entry, true);
  if (entry.category !== 'breaking') return `${text} ${sources}`;
  const action = entry.migration ? ` ${PHRASES.actionLabel[ctx.tone]} ${inTone(ctx.tone, escapeText(entry.migration))}` : '';
  return `**${text}**${action} ${sources}`;
}

const GROUP_INTRO = {
  breaking: PHRASES.breakingIntro,
  feature: PHRASES.featuresIntro,
  improvement: PHRASES.improvementsIntro,
  fix: PHRASES.fixesIntro,
};

function groupSection(ctx: Context, heading: string, category: keyof typeof GROUP_INTRO, entries: Entry[]): ResultSection {
  const mine = entries.filter((e) => e.category === category);
  if (mine.length === 0) return section(heading, emptyGroup(ctx.tone, category));
  const silent = category === 'breaking' ? mine.filter((e) => !e.migration).length : 0;
  // Breaking changes whose documents say nothing about migrating are named as such once, not per entry.
  const intro = [GROUP_INTRO[category][ctx.tone], silent ? PHRASES.noMigration[ctx.tone](silent, silent === mine.length) : ''].filter(Boolean).join(' ');
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
    return ctx.tone === 'formal' ? `Since version ${from}, no user-facing changes have been made.` : `No user-facing changes since ${from}.`;
  }
  if (ctx.tone === 'casual') return `Here's what changed since ${from}: ${joinList(parts)}.`;
  if (ctx.tone === 'formal') return `Since version ${from}, this release includes ${joinList(parts)}.`;
  return `Since ${from}: ${joinList(parts)}.`;
}

function highlights(ctx: Context, sel: ReleaseNotesSelection): ResultSection {
  const to = ctx.inputs.toVersion;
  const release = sel.releases.find((r) => r.version === to);
  const released = !release
    ? ''
    : ctx.tone === 'casual'
      ? `${to} is out, released on ${formatDate(release.releasedAt)} ${cite(release)}. `
      : `Version ${to} was released on ${formatDate(release.releasedAt)} ${cite(release)}. `;
  const top = sel.entries.filter((e) => e.category !== 'other').slice(0, HIGHLIGHTS);
  const bullets = top.map((e) => `${entryText(ctx, e, false)} ${citeAll(changeDocuments(e.change))}`);
  return section(H_HIGHLIGHTS, `${released}${countsSentence(ctx, sel.entries)}${bullets.length ? `\n\n${bulletList(bullets)}` : ''}`);
}

function otherChanges(ctx: Context, entries: Entry[]): ResultSection {
  const others = entries.filter((e) => e.category === 'other');
  if (others.length === 0) return section(H_OTHER, emptyGroup(ctx.tone, 'other'));
  const sources = citeAll(others.flatMap((e) => changeDocuments(e.change)));
  const n = others.length;
  if (ctx.tone === 'casual') return section(H_OTHER, `Plus ${plural(n, 'smaller change')}. ${sources}`);
  if (ctx.tone === 'formal') return section(H_OTHER, `This release also contains ${plural(n, 'other change')} that ${n === 1 ? 'is' : 'are'} not listed individually. ${sources}`);
  return section(H_OTHER, `${plural(n, 'other change')}, not listed individually. ${sources}`);
}

function contributors(ctx: Context, sel: ReleaseNotesSelection): ResultSection {
  if (sel.contributors.length === 0) {
    return section(H_CONTRIBUTORS, ctx.tone === 'formal' ? 'No contributors are recorded for the changes listed.' : 'No contributors recorded for the changes listed.');
  }
  const list = bulletList(sel.contributors.map((c) => `${escapeText(c.name)} ${citeAll(c.credits)}`));
  return section(H_CONTRIBUTORS, `${PHRASES.contributorsIntro[ctx.tone]}\n\n${list}`);
}

/** The repository's compare page between the two release tags, when the repository and both tags are known. */
function compareUrl(forge: Forge | undefined, from: ReleaseDocument | undefined, to: ReleaseDocument | undefined): string | undefined {
  if (!forge) return undefined;
  const tag = (r: ReleaseDocument | undefined) => r && (r.tag || (r.url ? tagOfReleaseUrl(forge, r.url) : undefined));
  const [a, b] = [tag(from), tag(to)];
  return a && b ? forgeCompareUrl(forge, a, b) : undefined;
}

function fullChangelog(ctx: Context, sel: ReleaseNotesSelection): ResultSection {
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
  return section(H_CHANGELOG, `${line}\n\n${label} ${between.map((r) => `${r.version} (${formatDate(r.releasedAt)}) ${cite(r)}`).join(', ')}`);
}

export function draftReleaseNotes(
  inputs: ReleaseNotesInputs,
  sel: ReleaseNotesSelection,
  documents: readonly ProjectDocument[],
  searchedKinds: readonly DocumentKind[],
): SkillResult {
  const tone = inputs.tone ?? 'neutral';
  const versions = new Set(sel.entries.map((e) => e.version));
  const ctx: Context = { tone, inputs, multiRelease: versions.size > 1 };
  const sections = [
    highlights(ctx, sel),
    groupSection(ctx, H_BREAKING, 'breaking', sel.entries),
    groupSection(ctx, H_FEATURES, 'feature', sel.entries),
    groupSection(ctx, H_IMPROVEMENTS, 'improvement', sel.entries),
    groupSection(ctx, H_FIXES, 'fix', sel.entries),
    otherChanges(ctx, sel.entries),
    contributors(ctx, sel),
    fullChangelog(ctx, sel),
  ].map((s) => (tone === 'formal' ? { ...s, markdown: formalize(s.markdown) } : s));
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
