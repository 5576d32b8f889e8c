import type { Listing } from '../../src/skills/release-notes/listing';

/**
 * The public repositories the changelog benchmark measures release notes against, each with the changelog its
 * maintainers keep and how its releases are tagged. Nothing of theirs is stored here: the benchmark clones them
 * from a folder of local clones (bench/README.md says how to make one).
 */
export interface ChangelogRepo {
  /** owner/name on GitHub: where the clone is looked for, and the web address of links. */
  repo: string;
  /** How the project writes its changelog (for the report). */
  style: string;
  /** The changelog file at the default branch's head. */
  changelog: string;
  /** import-git --tag-prefix (default: "v" or none). */
  tagPrefixes?: string[];
  /** import-git --path: one component of a monorepo. */
  path?: string;
  /**
   * The project's release-notes listing (listing.ts), set as its maintainers evidently list, once per repository
   * from how its changelog is written (never per release): absent, the default.
   */
  listing?: Listing;
}

export const CHANGELOG_REPOS: ChangelogRepo[] = [
  {
    repo: 'googleapis/gaxios',
    style: 'release-please, conventional squash merges',
    changelog: 'CHANGELOG.md',
    // Its last release moved to release-please's component tags.
    tagPrefixes: ['v', 'gaxios-v'],
  },
  {
    repo: 'tj/commander.js',
    style: 'Keep a Changelog, written by hand',
    changelog: 'CHANGELOG.md',
    // Its changelog lists its own work ("(developer) refactor …", "dev: switch tests from Jest to node:test",
    // "format source files with Prettier") and README changes one by one.
    listing: { internalWork: 'list', docs: 'list' },
  },
  {
    repo: 'expressjs/express',
    style: 'History.md, written by hand, few references',
    changelog: 'History.md',
    // Its History.md lists code and dependency changes, not documentation or examples.
    listing: { docs: 'omit' },
  },
  {
    repo: 'googleapis/gax-nodejs',
    style: 'release-please monorepo (component google-gax, folder gax/)',
    changelog: 'gax/CHANGELOG.md',
    tagPrefixes: ['google-gax-v', 'v'],
    path: 'gax',
  },
  {
    repo: 'changesets/changesets',
    style: 'changesets monorepo (package @changesets/cli, folder packages/cli)',
    changelog: 'packages/cli/CHANGELOG.md',
    tagPrefixes: ['@changesets/cli@'],
    path: 'packages/cli',
  },
];
