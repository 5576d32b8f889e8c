import type { FromSchema } from '../schema-type';
import type { SkillDefinition } from '../types';

const SEMVER = '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$';

export const releaseNotesInputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['fromVersion', 'toVersion'],
  properties: {
    fromVersion: { type: 'string', pattern: SEMVER, description: 'Exclusive lower bound, major.minor.patch' },
    toVersion: { type: 'string', pattern: SEMVER, description: 'Inclusive upper bound, major.minor.patch' },
    tone: { type: 'string', enum: ['casual', 'neutral', 'formal'], default: 'neutral' },
    excludeContributors: {
      type: 'array',
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 200 },
      description: 'Names never credited as contributors, besides recognisable bots ([bot], "Owl Bot", "Jenkins"...)',
    },
  },
} as const;

/** The inputs after validation against releaseNotesInputSchema (ajv, src/api/validation.ts). */
export type ReleaseNotesInputs = FromSchema<typeof releaseNotesInputSchema>;
export type Tone = NonNullable<ReleaseNotesInputs['tone']>;

/** This skill's catalog entry, as clients see it (GET /v1/agents/:project/skills). */
export const releaseNotesComposer = {
  name: 'release_notes_composer',
  version: '1.0.0',
  title: 'Release notes composer',
  description:
    'Drafts user-facing release notes for a version range from the commits, merged pull requests and resolved tickets it contains, citing each one.',
  inputSchema: releaseNotesInputSchema,
  output: {
    format: 'markdown',
    sections: [
      'Highlights',
      'Breaking changes',
      'New features',
      'Improvements',
      'Fixes',
      'Other changes',
      'Contributors',
      'Full changelog',
    ],
  },
  retrievalScope: ['commit', 'pull_request', 'ticket', 'release'],
} as const satisfies SkillDefinition;
