import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import type { Listing } from '../skills/release-notes/listing';

export interface Entitlement {
  id: string;
  productId: string | null;
  expiresAt: string | null;
}

export interface OrgRecord {
  _id: string;
  name: string;
  ownerEmail: string;
  entitlements: Entitlement[];
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectRecord {
  _id: string;
  name: string;
  org: string;
  entitlements: Entitlement[];
  /** What its release notes list beyond user-visible changes (src/invocations/project-settings.ts); absent: the default. */
  releaseNotes?: { listing?: Listing };
  createdAt: Date;
  updatedAt: Date;
}

/** Orgs and projects: the tenants that skills run for and that operator billing entitles. */
export class ProjectRepository {
  constructor(private readonly db: Db) {}

  private get orgs() {
    return this.db.collection<OrgRecord>(COLLECTIONS.orgs);
  }
  private get projects() {
    return this.db.collection<ProjectRecord>(COLLECTIONS.projects);
  }

  /** Project ids, for the console's project picker (a small collection, bounded by configuration). */
  async listIds(limit = 1000): Promise<string[]> {
    return (
      await this.projects
        .find({}, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray()
    ).map((p) => p._id);
  }

  async upsertOrg(id: string, data: { name: string; ownerEmail: string }, now: Date): Promise<{ org: OrgRecord; created: boolean }> {
    const res = await this.orgs.findOneAndUpdate(
      { _id: id },
      { $set: { name: data.name, ownerEmail: data.ownerEmail, updatedAt: now }, $setOnInsert: { entitlements: [], createdAt: now } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    return { org: res.value!, created: !res.lastErrorObject?.updatedExisting };
  }

  getOrg(id: string): Promise<OrgRecord | null> {
    return this.orgs.findOne({ _id: id });
  }

  /** `releaseNotes`: the project's release-notes settings, replaced when given and kept as they are when not. */
  async upsertProject(
    id: string,
    data: { name: string; org: string; releaseNotes?: { listing?: Listing } },
    now: Date,
  ): Promise<{ project: ProjectRecord; created: boolean }> {
    const set = { name: data.name, org: data.org, updatedAt: now, ...(data.releaseNotes ? { releaseNotes: data.releaseNotes } : {}) };
    const res = await this.projects.findOneAndUpdate(
      { _id: id },
      { $set: set, $setOnInsert: { entitlements: [], createdAt: now } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    return { project: res.value!, created: !res.lastErrorObject?.updatedExisting };
  }

  getProject(id: string): Promise<ProjectRecord | null> {
    return this.projects.findOne({ _id: id });
  }

  /** The project's own entitlements plus its org's (a project inherits its org's), unexpired at `now`. */
  async effectiveEntitlements(project: ProjectRecord, now: Date): Promise<Entitlement[]> {
    const org = await this.getOrg(project.org);
    const all = [...(project.entitlements ?? []), ...(org?.entitlements ?? [])];
    return all.filter((e) => e.expiresAt === null || new Date(e.expiresAt) > now);
  }

  /**
   * Replaces the entitlements of an org or a project (operator billing). `version` is the billing workflow's
   * state version: an older write arriving late is ignored. Returns which record took it, if any.
   */
  async setEntitlements(id: string, entitlements: Entitlement[], version: number, now: Date): Promise<'org' | 'project' | null> {
    const guard = { _id: id, $or: [{ billingVersion: { $exists: false } }, { billingVersion: { $lt: version } }] };
    const update = { $set: { entitlements, billingVersion: version, updatedAt: now } };
    if ((await this.orgs.countDocuments({ _id: id }, { limit: 1 })) > 0) {
      await this.orgs.updateOne(guard, update);
      return 'org';
    }
    if ((await this.projects.countDocuments({ _id: id }, { limit: 1 })) > 0) {
      await this.projects.updateOne(guard, update);
      return 'project';
    }
    return null;
  }
}
