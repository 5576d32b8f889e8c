import { ORG_BODY_SCHEMA, PROJECT_SETTINGS_BODY_SCHEMA } from '../contracts/bodies';
import type { ProjectSettings } from '../invocations/project-settings';
import type { Listing } from '../skills/release-notes/listing';
import { SLUG_PATTERN, SLUG_RE } from '../contracts/ids';
import { check } from '../contracts/validation';
import { requireString, type CliCommand } from './command';
import { API_OPTIONS, apiSettings, callApi } from './api-client';
import { withStore } from './with-store';

/**
 * Setting up without curl or a hand-made admin token: an org and a project, with the same checks as
 * `PUT /v1/orgs/{org}` and `PUT /v1/projects/{project}`, written to the store beside `npm run dev` (or through the
 * API with `--api URL --token ADMIN_JWT`). Both are upserts, so running one again updates the name.
 */
function checked(schema: object, body: object, flags: Record<string, string>): void {
  const errors = check(schema, body);
  if (errors.length > 0)
    throw new Error(errors.map((e) => `${flags[e.path.replace(/^\//, '')] ?? (e.path || 'body')} ${e.message}`).join('; '));
}

function requireId(values: Record<string, unknown>, what: string): string {
  const id = requireString(values, what);
  if (!SLUG_RE.test(id)) throw new Error(`--${what} must match ${SLUG_PATTERN}`);
  return id;
}

export const createOrgCommand: CliCommand = {
  summary: 'Create an org (or update its name and owner): the owner is mailed about the org’s billing issues',
  usage: '--org ORG --name NAME --owner-email EMAIL [--api URL --token ADMIN_JWT]',
  options: { org: { type: 'string' }, name: { type: 'string' }, 'owner-email': { type: 'string' }, ...API_OPTIONS },
  async run(values) {
    const id = requireId(values, 'org');
    const body = { name: requireString(values, 'name'), ownerEmail: requireString(values, 'owner-email') };
    checked(ORG_BODY_SCHEMA, body, { name: '--name', ownerEmail: '--owner-email' });
    const api = apiSettings(values);
    const created = api
      ? (await fetchCreated(api, `/v1/orgs/${encodeURIComponent(id)}`, body)).created
      : await withStore(async (repos) => (await repos.projects.upsertOrg(id, body, new Date())).created);
    process.stdout.write(`org ${id}: ${created ? 'created' : 'updated'}\n`);
    return 0;
  },
};

/** The release-notes listing the flags set (undefined: the project's stays as it is). */
function listingFlags(values: Record<string, unknown>): ProjectSettings['releaseNotes'] | undefined {
  const listing: Listing = {};
  if (typeof values['release-notes-internal'] === 'string')
    listing.internalWork = values['release-notes-internal'] as Listing['internalWork'];
  if (typeof values['release-notes-docs'] === 'string') listing.docs = values['release-notes-docs'] as Listing['docs'];
  return Object.keys(listing).length ? { listing } : undefined;
}

export const createProjectCommand: CliCommand = {
  summary:
    'Create a project in an org (or update its name and release-notes settings); then import-git or POST documents, and invoke its skills',
  usage:
    '--project PROJECT --org ORG [--name NAME] [--release-notes-internal omit|list] [--release-notes-docs count|list|omit] [--api URL --token ADMIN_JWT]',
  options: {
    project: { type: 'string' },
    org: { type: 'string' },
    name: { type: 'string' },
    'release-notes-internal': { type: 'string' },
    'release-notes-docs': { type: 'string' },
    ...API_OPTIONS,
  },
  async run(values) {
    const id = requireId(values, 'project');
    const releaseNotes = listingFlags(values);
    const body = {
      name: typeof values.name === 'string' ? values.name : id,
      org: requireId(values, 'org'),
      ...(releaseNotes ? { releaseNotes } : {}),
    };
    checked(PROJECT_SETTINGS_BODY_SCHEMA, body, {
      name: '--name',
      org: '--org',
      'releaseNotes/listing/internalWork': '--release-notes-internal',
      'releaseNotes/listing/docs': '--release-notes-docs',
    });
    const api = apiSettings(values);
    const created = api
      ? (await fetchCreated(api, `/v1/projects/${encodeURIComponent(id)}`, body)).created
      : await withStore(async (repos) => {
          if (!(await repos.projects.getOrg(body.org)))
            throw new Error(`org "${body.org}" does not exist; create it first: create-org --org ${body.org} --name … --owner-email …`);
          return (await repos.projects.upsertProject(id, body, new Date())).created;
        });
    const listing = releaseNotes?.listing;
    process.stdout.write(
      `project ${id} (org ${body.org}): ${created ? 'created' : 'updated'}` +
        (listing
          ? `; release notes: ${Object.entries(listing)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}`
          : '') +
        '\n',
    );
    return 0;
  },
};

// The API answers 201 for a new record and 200 for an update; a new record's times are equal.
async function fetchCreated(api: { api: string; token: string }, path: string, body: object): Promise<{ created: boolean }> {
  const record = await callApi<{ createdAt: string; updatedAt: string }>(api, 'PUT', path, body);
  return { created: record.createdAt === record.updatedAt };
}
