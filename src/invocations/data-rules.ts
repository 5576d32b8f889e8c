import { validateBusinessRules, type ProjectFacts } from '../skills/run';
import type { SkillName } from '../skills/types';
import type { DocumentRepository } from '../store/documents';
import type { FieldError } from '../contracts/validation';

/**
 * The checks only the project's data can answer: versions the project knows and in order, an incident that
 * exists. The skills domain states the rules; this looks up just the facts the skill needs.
 */
export async function impossibleInputs(
  documents: DocumentRepository,
  project: string,
  skill: SkillName,
  inputs: Record<string, unknown>,
): Promise<FieldError[]> {
  const facts: Partial<ProjectFacts> = {};
  if (skill === 'release_notes_composer') {
    // The requested versions the project knows, plus its newest releases for the hint in a 422: two point
    // lookups and one short index read, never a scan of the project's history.
    const [requested, latest] = await Promise.all([
      documents.knownVersions(project, [String(inputs.fromVersion), String(inputs.toVersion)]),
      documents.latestReleases(project, 10),
    ]);
    facts.releaseVersions = [...new Set([...requested, ...latest])];
  }
  if (skill === 'incident_rca') {
    const id = String(inputs.incidentId);
    facts.incidentIds = (await documents.exists(project, 'incident', 'incidentId', id)) ? [id] : [];
  }
  return validateBusinessRules(skill, inputs as never, facts);
}

/** What the API (a 422) and the CLI say when the inputs are valid but the project's data cannot serve them. */
export function describeImpossible(project: string, errors: FieldError[]): string {
  return `The inputs are valid but cannot be served for project "${project}": ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`;
}
