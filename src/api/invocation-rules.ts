import type { Db } from 'mongodb';
import { validateBusinessRules, type ProjectFacts } from '../skills/run';
import type { SkillName } from '../skills/types';
import { DocumentRepository } from '../store/documents';
import { unprocessable } from './problem';

/**
 * The checks only the project's data can answer: versions the project knows and in order, an incident that
 * exists. The skills domain states the rules; this looks up just the facts the skill needs.
 */
export async function checkInvocationAgainstData(db: Db, project: string, skill: SkillName, inputs: Record<string, unknown>): Promise<void> {
  const documents = new DocumentRepository(db);
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
  const errors = validateBusinessRules(skill, inputs as never, facts);
  if (errors.length > 0) {
    throw unprocessable('impossible_request', `The inputs are valid but cannot be served for project "${project}": ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, errors);
  }
}
