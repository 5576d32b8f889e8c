/**
 * A project's settings for its skills, set once by an admin with the project (`PUT /v1/projects/{project}`,
 * `create-project`) and applied to every invocation whose inputs leave them out: today the release notes'
 * listing policy (src/skills/release-notes/listing.ts).
 */
import type { Listing } from '../skills/release-notes/listing';
import type { SkillName } from '../skills/types';

/** What a project's settings hold (the `releaseNotes` of PROJECT_SETTINGS_BODY_SCHEMA, src/contracts/bodies.ts). */
export interface ProjectSettings {
  releaseNotes?: { listing?: Listing };
}

/** The inputs an invocation runs with: the caller's, and the project's settings for what they leave out. */
export function withProjectSettings(skill: SkillName, inputs: Record<string, unknown>, settings: ProjectSettings): Record<string, unknown> {
  const listing = settings.releaseNotes?.listing;
  if (skill !== 'release_notes_composer' || inputs.listing !== undefined || !listing || Object.keys(listing).length === 0) return inputs;
  return { ...inputs, listing };
}
