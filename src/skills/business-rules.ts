/**
 * The 422 cases: inputs that match the schema but cannot be served for this project. The caller looks up
 * the facts (the project's release versions, whether the incident exists) and passes them in; a fact the
 * caller leaves out counts as empty, so forgetting one fails loudly instead of letting a bad request through.
 */
import type { IncidentRcaInputs, ReleaseNotesInputs, SkillInputs } from './inputs';
import { compareSemver, isSemver } from './semver';
import type { SkillName } from './types';

export interface ProjectFacts {
  /** Versions of the project's releases ("1.2.0"; a leading "v" is accepted). */
  releaseVersions: readonly string[];
  /** Incident ids found in the project: the requested one, or none. */
  incidentIds: readonly string[];
}

export interface BusinessRuleError {
  /** JSON pointer to the offending input, as in the API's `errors[]`. */
  path: string;
  message: string;
}

/** Shown in a message so the caller can pick a valid version without another request. */
const VERSIONS_SHOWN = 10;

function releaseNotesRules(inputs: ReleaseNotesInputs, facts: Partial<ProjectFacts>): BusinessRuleError[] {
  const errors: BusinessRuleError[] = [];
  const { fromVersion, toVersion } = inputs;
  if (compareSemver(fromVersion, toVersion) >= 0) {
    errors.push({ path: '/fromVersion', message: `must be below toVersion (${fromVersion} is not below ${toVersion})` });
  }
  const known = (facts.releaseVersions ?? []).filter(isSemver).sort(compareSemver);
  const latest = known.slice(-VERSIONS_SHOWN).reverse();
  const hint = latest.length ? ` (latest releases: ${latest.join(', ')})` : ' (the project has no releases)';
  for (const [name, version] of [['fromVersion', fromVersion], ['toVersion', toVersion]] as const) {
    if (!known.some((k) => compareSemver(k, version) === 0)) errors.push({ path: `/${name}`, message: `${version} is not a release of this project${hint}` });
  }
  return errors;
}

function incidentRules(inputs: IncidentRcaInputs, facts: Partial<ProjectFacts>): BusinessRuleError[] {
  return (facts.incidentIds ?? []).includes(inputs.incidentId) ? [] : [{ path: '/incidentId', message: `no incident ${inputs.incidentId} in this project` }];
}

export function validateBusinessRules<S extends SkillName>(skill: S, inputs: SkillInputs[S], facts: Partial<ProjectFacts>): BusinessRuleError[] {
  switch (skill) {
    case 'release_notes_composer':
      return releaseNotesRules(inputs as ReleaseNotesInputs, facts);
    case 'incident_rca':
      return incidentRules(inputs as IncidentRcaInputs, facts);
    default:
      return [];
  }
}
