import type { FromSchema } from '../schema-type';
import type { SkillDefinition } from '../types';
import { LISTING_SCHEMA } from './listing';

/**
 * A version as releases are numbered: major.minor.patch (the seed's form), or with a SemVer pre-release
 * ("2.0.0-rc.1"). Without a leading "v" or a component's tag prefix: versions are stored that way (import-git
 * strips the tag's prefix). Components of up to six digits, as semverKey indexes them.
 */
const VERSION = '^(0|[1-9]\\d{0,5})\\.(0|[1-9]\\d{0,5})\\.(0|[1-9]\\d{0,5})(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$';
/** Said in the 400 when a version does not match: the accepted form, with examples. */
const VERSION_FORM = 'major.minor.patch, optionally with a pre-release (6.7.1, 2.0.0-rc.1), without a leading "v" or tag prefix';

export const releaseNotesInputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['fromVersion', 'toVersion'],
  properties: {
    fromVersion: {
      type: 'string',
      maxLength: 100,
      pattern: VERSION,
      description: `${VERSION_FORM}. The exclusive lower bound: a release of the project`,
    },
    toVersion: {
      type: 'string',
      maxLength: 100,
      pattern: VERSION,
      description: `${VERSION_FORM}. The inclusive upper bound: a release of the project, or the next version before it is tagged (a draft of everything after fromVersion up to the newest imported commit)`,
    },
    tone: { type: 'string', enum: ['casual', 'neutral', 'formal'], default: 'neutral' },
    excludeContributors: {
      type: 'array',
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 200 },
      description: 'Names never credited as contributors, besides recognisable bots ([bot], "Owl Bot", "Jenkins"...)',
    },
    listing: {
      ...LISTING_SCHEMA,
      description:
        "What the notes list beyond the changes users see. Left out: the project's setting (PUT /v1/projects/{project} releaseNotes.listing), else internal work omitted and documentation counted",
    },
  },
} as const;

/** The inputs after validation against releaseNotesInputSchema (ajv, src/api/http/validation.ts). */
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
      'Reverts',
      'Other changes',
      'Contributors',
      'Full changelog',
    ],
  },
  retrievalScope: ['commit', 'pull_request', 'ticket', 'release'],
} as const satisfies SkillDefinition;
