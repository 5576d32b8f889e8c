import { compareSemver, isSemver } from '../semver';
import type { BusinessRuleError, ProjectFacts } from '../skill';
import type { ReleaseNotesInputs } from './definition';

/** Shown in a message so the caller can pick a valid version without another request. */
const VERSIONS_SHOWN = 10;

export function releaseNotesRules(inputs: ReleaseNotesInputs, facts: Partial<ProjectFacts>): BusinessRuleError[] {
  const errors: BusinessRuleError[] = [];
  const { fromVersion, toVersion } = inputs;
  if (compareSemver(fromVersion, toVersion) >= 0) {
    errors.push({ path: '/fromVersion', message: `must be below toVersion (${fromVersion} is not below ${toVersion})` });
  }
  const known = (facts.releaseVersions ?? []).filter(isSemver).sort(compareSemver);
  const latest = known.slice(-VERSIONS_SHOWN).reverse();
  const hint = latest.length ? ` (latest releases: ${latest.join(', ')})` : ' (the project has no releases)';
  for (const [name, version] of [
    ['fromVersion', fromVersion],
    ['toVersion', toVersion],
  ] as const) {
    if (!known.some((k) => compareSemver(k, version) === 0))
      errors.push({ path: `/${name}`, message: `${version} is not a release of this project${hint}` });
  }
  return errors;
}
