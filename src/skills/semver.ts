/**
 * Semantic versions (semver.org 2.0.0): parse, order, range membership and a sortable key. Pure.
 * Release notes need semver order, not string order ("1.10.0" > "1.9.0").
 */

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release identifiers ("rc", "1" for "-rc.1"); empty for a release. Build metadata is dropped. */
  prerelease: string[];
}

/** Each numeric component gets this many digits in the key; larger numbers are not versions we accept. */
const KEY_WIDTH = 6;
const MAX_COMPONENT = 10 ** KEY_WIDTH - 1;

const SEMVER_RE =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** JSON Schema pattern for a version field of a document (a leading "v" belongs in `tag`, not here). */
export const SEMVER_PATTERN =
  '^(0|[1-9]\\d{0,5})\\.(0|[1-9]\\d{0,5})\\.(0|[1-9]\\d{0,5})(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$';

function parse(text: string): Readonly<SemVer> | undefined {
  const m = SEMVER_RE.exec(text.trim());
  if (!m) return undefined;
  const [major, minor, patch] = [m[1], m[2], m[3]].map(Number);
  if (major > MAX_COMPONENT || minor > MAX_COMPONENT || patch > MAX_COMPONENT) return undefined;
  return Object.freeze({ major, minor, patch, prerelease: Object.freeze(m[4] ? m[4].split('.') : []) as string[] });
}

/**
 * Versions parsed so far, by text (null: not a version). Release notes compare the same few versions thousands
 * of times while sorting a range's entries; a bounded cache parses each once. Cleared when full.
 */
const PARSED = new Map<string, Readonly<SemVer> | null>();
const PARSED_MAX = 1_000;

function parsed(text: string): Readonly<SemVer> | undefined {
  const hit = PARSED.get(text);
  if (hit !== undefined) return hit ?? undefined;
  const v = parse(text);
  if (PARSED.size >= PARSED_MAX) PARSED.clear();
  PARSED.set(text, v ?? null);
  return v;
}

/** Parses "1.2.3", "v1.2.3", "2.0.0-rc.1+build.5"; undefined when it is not a version. */
export function parseSemver(text: string): SemVer | undefined {
  const v = parsed(text);
  return v && { ...v, prerelease: [...v.prerelease] };
}

export function isSemver(text: string): boolean {
  return parsed(text) !== undefined;
}

function mustParse(text: string): Readonly<SemVer> {
  const v = parsed(text);
  if (!v) throw new Error(`not a semantic version: ${JSON.stringify(text)}`);
  return v;
}

const isNumeric = (id: string) => /^\d+$/.test(id);

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  // A release ranks above any of its pre-releases.
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (isNumeric(x) && isNumeric(y)) return Number(x) < Number(y) ? -1 : 1;
    if (isNumeric(x) !== isNumeric(y)) return isNumeric(x) ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Negative, zero or positive as `a` is below, equal to (ignoring build metadata) or above `b`. Throws on non-versions. */
export function compareSemver(a: string, b: string): number {
  const [x, y] = [mustParse(a), mustParse(b)];
  return x.major - y.major || x.minor - y.minor || x.patch - y.patch || Math.sign(comparePrerelease(x.prerelease, y.prerelease));
}

/**
 * A release that semver lets break its API: X.0.0 (X ≥ 1), or 0.Y.0 (Y ≥ 1), where a minor release may break by
 * convention, and their pre-releases (2.0.0-rc.1 carries 2.0.0's changes). Non-versions are not.
 */
export function isMajorRelease(version: string): boolean {
  const v = parsed(version);
  if (!v || v.patch !== 0) return false;
  return v.major > 0 ? v.minor === 0 : v.minor > 0;
}

/** True when `version` is in the half-open range (from, to]: above `from`, at most `to`. */
export function inVersionRange(version: string, from: string, to: string): boolean {
  return compareSemver(version, from) > 0 && compareSemver(version, to) <= 0;
}

const pad = (n: number | string, width = KEY_WIDTH) => String(n).padStart(width, '0');

/**
 * A string whose plain (binary) order is semver order, so a database can index and range-query versions:
 * "1.10.3" → "000001.000010.000003~". A release ends in "~" so it sorts after its pre-releases, which end in
 * "-" and their identifiers (numeric ones zero-padded and prefixed "0", others prefixed "1", joined by "!",
 * a character below every identifier character, so "rc" < "rc.1").
 */
export function semverKey(version: string): string {
  const v = mustParse(version);
  const core = `${pad(v.major)}.${pad(v.minor)}.${pad(v.patch)}`;
  if (v.prerelease.length === 0) return `${core}~`;
  return `${core}-${v.prerelease.map((id) => (isNumeric(id) ? `0${pad(id, 10)}` : `1${id}`)).join('!')}`;
}
