/**
 * A project's settings for its skills, set once by an admin with the project (`PUT /v1/projects/{project}`,
 * `create-project`) and applied to every invocation whose inputs leave them out: today the release notes'
 * listing policy (src/skills/release-notes/listing.ts).
 */
import { PROJECT_BODY_SCHEMA } from '../contracts/bodies';
import { LISTING_SCHEMA, type Listing } from '../skills/release-notes/listing';
import type { SkillName } from '../skills/types';

export const RELEASE_NOTES_SETTINGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { listing: LISTING_SCHEMA },
  description:
    "The project's release-notes settings: `listing` says what its notes list beyond the changes users see (a release_notes_composer invocation's own `listing` input wins). Left out of a PUT, the project's settings stay as they are",
} as const;

/** `PUT /v1/projects/{project}`'s body: the project and, optionally, its skill settings. */
export const PROJECT_SETTINGS_BODY_SCHEMA = {
  ...PROJECT_BODY_SCHEMA,
  properties: { ...PROJECT_BODY_SCHEMA.properties, releaseNotes: RELEASE_NOTES_SETTINGS_SCHEMA },
} as const;

export interface ProjectSettings {
  releaseNotes?: { listing?: Listing };
}

/** The inputs an invocation runs with: the caller's, and the project's settings for what they leave out. */
export function withProjectSettings(skill: SkillName, inputs: Record<string, unknown>, settings: ProjectSettings): Record<string, unknown> {
  const listing = settings.releaseNotes?.listing;
  if (skill !== 'release_notes_composer' || inputs.listing !== undefined || !listing || Object.keys(listing).length === 0) return inputs;
  return { ...inputs, listing };
}
