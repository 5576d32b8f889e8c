/**
 * Release tags as `git for-each-ref refs/tags --format=TAG_FORMAT` prints them. Pure. A release tag is a
 * prefix (`v` or none by default; a component's own with --tag-prefix: `gaxios-v`, `@changesets/cli@`) and a
 * SemVer version, pre-releases included: a commit first shipped in 2.0.0-rc.1 has that version, and the notes
 * of 2.0.0 (above 1.x, at most 2.0.0) include it.
 */
import { compareSemver } from '../skills/semver';

export interface GitTag {
  name: string;
  /** The commit the tag points at (through an annotated tag object when there is one). */
  commit: string;
  /** Tagger date of an annotated tag, else the commit's date; UTC ISO 8601. */
  date: string;
  /** An annotated tag's message; empty for a lightweight tag. */
  message: string;
}

export interface Release {
  version: string;
  tag: string;
  commit: string;
  releasedAt: string;
  message: string;
}

const FIELD = '\x1f';

export const TAG_FORMAT =
  [
    '%(refname:strip=2)',
    '%(objecttype)',
    '%(objectname)',
    '%(*objecttype)',
    '%(*objectname)',
    '%(creatordate:iso-strict)',
    '%(contents:subject)',
    '%(contents:body)',
  ].join('%1f') + '%1e';

/** Tags that point at commits; tags of trees or blobs are not releases. */
export function parseTagRefs(output: string): GitTag[] {
  const tags: GitTag[] = [];
  for (const record of output.split('\x1e')) {
    const text = record.replace(/^\n/, '');
    if (text.trim() === '') continue;
    const [name, type, object, peeledType, peeled, date, subject, ...body] = text.split(FIELD);
    const annotated = type === 'tag';
    const commit = annotated ? (peeledType === 'commit' ? peeled : '') : type === 'commit' ? object : '';
    if (!commit) continue;
    const message = annotated
      ? [subject, body.join(FIELD)]
          .map((s) => (s ?? '').trim())
          .filter(Boolean)
          .join('\n\n')
      : '';
    tags.push({ name, commit, date: new Date(date).toISOString(), message });
  }
  return tags;
}

/** A version as tags write it after their prefix: major.minor.patch, optionally a SemVer pre-release ("2.0.0-rc.1"). */
const TAG_VERSION = /^((?:0|[1-9]\d{0,5})\.(?:0|[1-9]\d{0,5})\.(?:0|[1-9]\d{0,5})(?:-[0-9A-Za-z-]{1,40}(?:\.[0-9A-Za-z-]{1,40}){0,9})?)$/;

/** Without --tag-prefix: "v1.2.3" or "1.2.3" (and their pre-releases). */
export const DEFAULT_TAG_PREFIXES: readonly string[] = ['v', ''];

/** More prefixes than this on one import are not a tag scheme. */
export const TAG_PREFIXES_MAX = 20;

/**
 * The version a tag names under one of `prefixes` (the longest that fits first): "gaxios-v7.1.3" under
 * "gaxios-v" is 7.1.3, "@changesets/cli@2.27.1" under "@changesets/cli@" is 2.27.1; undefined otherwise.
 */
export function tagVersion(name: string, prefixes: readonly string[] = DEFAULT_TAG_PREFIXES): string | undefined {
  for (const prefix of [...prefixes].sort((a, b) => b.length - a.length)) {
    if (!name.startsWith(prefix)) continue;
    const version = TAG_VERSION.exec(name.slice(prefix.length))?.[1];
    if (version) return version;
  }
  return undefined;
}

/**
 * What comes before the version in a skipped tag that ends in one ("gaxios-v" of "gaxios-v7.1.3"), so the import
 * can name the prefixes it could read with --tag-prefix.
 */
export function prefixOfVersionTag(name: string): string | undefined {
  for (let i = 1; i < name.length && i <= 200; i++) {
    const c = name[i - 1]!;
    if ((c < '0' || c > '9') && TAG_VERSION.test(name.slice(i))) return name.slice(0, i);
  }
  return undefined;
}

/**
 * Release tags in ascending semver order (pre-releases included: 2.0.0-rc.1 < 2.0.0), one per version (of
 * "v1.2.0" and "1.2.0" the earlier one), and the names of the tags left out. `prefixes`: what may stand before
 * the version (DEFAULT_TAG_PREFIXES; a component's own, such as "gaxios-v" or "@changesets/cli@").
 */
export function releasesOf(
  tags: readonly GitTag[],
  prefixes: readonly string[] = DEFAULT_TAG_PREFIXES,
): { releases: Release[]; skipped: string[] } {
  const byVersion = new Map<string, Release>();
  const skipped: string[] = [];
  const ordered = [...tags].sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
  for (const tag of ordered) {
    const version = tagVersion(tag.name, prefixes);
    if (!version || byVersion.has(version)) {
      skipped.push(tag.name);
      continue;
    }
    byVersion.set(version, { version, tag: tag.name, commit: tag.commit, releasedAt: tag.date, message: tag.message });
  }
  return { releases: [...byVersion.values()].sort((a, b) => compareSemver(a.version, b.version)), skipped: skipped.sort() };
}
