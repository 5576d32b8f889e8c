/**
 * What a project's release notes list beyond the changes users see: a setting a maintainer makes once for the
 * project (`PUT /v1/projects/{project}` `releaseNotes.listing`, `create-project --release-notes-…`), which every
 * release-notes invocation takes unless its inputs say otherwise. Two coarse switches, as changelogs differ:
 * commander.js lists its refactors, linting and test-runner changes (never its CI, Dependabot or template changes,
 * nor its typo fixes); express's History.md leaves documentation out.
 */
export const LISTING_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    internalWork: {
      type: 'string',
      enum: ['omit', 'list'],
      description:
        'Refactors, tests, tooling, CI, build and dev-dependency changes: "omit" (the default) leaves them out, each saying why; "list" lists them under Other changes, except CI and repository automation (workflows and their Node.js matrix, Dependabot, pull request and issue templates), which is never listed',
    },
    docs: {
      type: 'string',
      enum: ['count', 'list', 'omit'],
      description:
        'Documentation changes for users: "count" (the default) counts them in one line under Other changes; "list" lists each there, except typo, grammar and punctuation fixes, which stay counted; "omit" leaves them out',
    },
  },
} as const;

export interface Listing {
  internalWork?: 'omit' | 'list';
  docs?: 'count' | 'list' | 'omit';
}

/** Today's behaviour, and what a project that never set a listing gets. */
export const DEFAULT_LISTING: Required<Listing> = { internalWork: 'omit', docs: 'count' };

export function listingOf(listing: Listing | undefined): Required<Listing> {
  return { ...DEFAULT_LISTING, ...listing };
}
