/**
 * The version a draft proposes, from the changes not released yet, as semver and release-please's default
 * versioning number them: a breaking change bumps the major version, a new feature the minor, anything else
 * listed the patch. Before 1.0.0 the same (release-please's defaults: `bump-minor-pre-major` and
 * `bump-patch-for-minor-pre-major` are off, so a breaking change of 0.4.2 gives 1.0.0). After a pre-release
 * (2.0.0-rc.1) a change the pre-release's own version already allows (a breaking change of X.0.0-…, a feature of
 * X.Y.0-…, any fix) gives the next pre-release (2.0.0-rc.2), as release-please's prerelease strategy does;
 * a larger one gives the bumped release. Pure.
 */
import { compareSemver, parseSemver, type SemVer } from '../semver';

export type Bump = 'major' | 'minor' | 'patch';

export interface Proposal {
  /** The proposed version. */
  version: string;
  bump: Bump | 'pre-release';
  /** The release it follows: the newest one in the range. */
  base: string;
}

const format = (v: Pick<SemVer, 'major' | 'minor' | 'patch'>, pre: string[] = []) =>
  `${v.major}.${v.minor}.${v.patch}${pre.length ? `-${pre.join('.')}` : ''}`;

/** "rc.1" → "rc.2", "beta01" → "beta02" (the last number, its width kept), "rc" → "rc.1". */
function nextPrerelease(ids: readonly string[]): string[] {
  const joined = ids.join('.');
  let end = joined.length;
  while (end > 0 && !(joined[end - 1]! >= '0' && joined[end - 1]! <= '9')) end--;
  if (end === 0) return [...ids, '1'];
  let start = end;
  while (start > 0 && joined[start - 1]! >= '0' && joined[start - 1]! <= '9') start--;
  const digits = joined.slice(start, end);
  const next = String(Number(digits) + 1).padStart(digits.length, '0');
  return `${joined.slice(0, start)}${next}${joined.slice(end)}`.split('.');
}

export function proposeVersion(base: string, bump: Bump): Proposal {
  const v = parseSemver(base);
  if (!v) throw new Error(`not a semantic version: ${JSON.stringify(base)}`);
  if (v.prerelease.length > 0) {
    const fits = bump === 'patch' || (bump === 'minor' && v.patch === 0) || (bump === 'major' && v.minor === 0 && v.patch === 0);
    if (fits) return { version: format(v, nextPrerelease(v.prerelease)), bump: 'pre-release', base };
  }
  const next =
    bump === 'major'
      ? { major: v.major + 1, minor: 0, patch: 0 }
      : bump === 'minor'
        ? { major: v.major, minor: v.minor + 1, patch: 0 }
        : { major: v.major, minor: v.minor, patch: v.patch + 1 };
  return { version: format(next), bump, base };
}

/**
 * Whether `requested` (the toVersion a caller named) agrees with the proposal: the same version, or the release
 * of the pre-release proposed or followed (naming 2.0.0 after 2.0.0-rc.1 releases it).
 */
export function agreesWith(requested: string, proposal: Proposal): boolean {
  if (compareSemver(requested, proposal.version) === 0) return true;
  const r = parseSemver(requested);
  if (!r || r.prerelease.length > 0) return false;
  const sameCore = (other: string) => {
    const o = parseSemver(other);
    return o !== undefined && o.prerelease.length > 0 && o.major === r.major && o.minor === r.minor && o.patch === r.patch;
  };
  return sameCore(proposal.version) || sameCore(proposal.base);
}
