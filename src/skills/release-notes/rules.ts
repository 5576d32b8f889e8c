import { compareSemver, isSemver } from '../semver';
import type { BusinessRuleError, ProjectFacts } from '../skill';
import type { ReleaseNotesInputs } from './definition';

/** Shown in a message so the caller can pick a valid version without another request. */
const VERSIONS_SHOWN = 10;

/**
 * fromVersion is a release of the project and below toVersion. toVersion is a release, or the next version
 * before it is tagged: then it must be above every release, since the draft covers everything after
 * fromVersion up to the newest imported commit (a version below a release would name a range it does not cover).
 */
export function releaseNotesRules(inputs: ReleaseNotesInputs, facts: Partial<ProjectFacts>): BusinessRuleError[] {
  const errors: BusinessRuleError[] = [];
  const { fromVersion, toVersion } = inputs;
  if (compareSemver(fromVersion, toVersion) >= 0) {
    errors.push({ path: '/fromVersion', message: `must be below toVersion (${fromVersion} is not below ${toVersion})` });
  }
  const known = (facts.releaseVersions ?? []).filter(isSemver).sort(compareSemver);
  const latest = known.slice(-VERSIONS_SHOWN).reverse();
  const hint = latest.length ? ` (latest releases: ${latest.join(', ')})` : ' (the project has no releases)';
  const isKnown = (version: string) => known.some((k) => compareSemver(k, version) === 0);
  if (!isKnown(fromVersion)) errors.push({ path: '/fromVersion', message: `${fromVersion} is not a release of this project${hint}` });
  const newest = known[known.length - 1];
  if (!isKnown(toVersion) && newest !== undefined && compareSemver(toVersion, newest) <= 0) {
    errors.push({
      path: '/toVersion',
      message: `${toVersion} is not a release of this project, and a draft before the tag needs a version above its newest release, ${newest}${hint}`,
    });
  }
  return errors;
}
