/**
 * Release tags as `git for-each-ref refs/tags --format=TAG_FORMAT` prints them. Pure. Only final releases
 * (`vX.Y.Z` or `X.Y.Z`) count: a commit first shipped in 2.0.0-rc.1 belongs to 2.0.0, the release whose
 * notes it appears in.
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

const RELEASE_TAG = /^v?((?:0|[1-9]\d{0,5})\.(?:0|[1-9]\d{0,5})\.(?:0|[1-9]\d{0,5}))$/;

/**
 * Release tags in ascending semver order, one per version (of "v1.2.0" and "1.2.0" the earlier one), and the
 * names of the tags left out.
 */
export function releasesOf(tags: readonly GitTag[]): { releases: Release[]; skipped: string[] } {
  const byVersion = new Map<string, Release>();
  const skipped: string[] = [];
  const ordered = [...tags].sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
  for (const tag of ordered) {
    const version = RELEASE_TAG.exec(tag.name)?.[1];
    if (!version || byVersion.has(version)) {
      skipped.push(tag.name);
      continue;
    }
    byVersion.set(version, { version, tag: tag.name, commit: tag.commit, releasedAt: tag.date, message: tag.message });
  }
  return { releases: [...byVersion.values()].sort((a, b) => compareSemver(a.version, b.version)), skipped: skipped.sort() };
}
