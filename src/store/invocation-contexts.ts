import type { Db } from 'mongodb';
import type { ProjectDocument } from '../skills/documents';
import type { RewriteProgress } from '../skills/model-rewrite';
import { COLLECTIONS } from './collections';

interface ContextRecord {
  _id: string;
  documents: ProjectDocument[];
  /** A model's rewrite so far (drafting with a model): what a retried attempt goes on from. */
  rewrite?: RewriteProgress;
  createdAt: Date;
}

/**
 * The documents retrieval returned for one invocation, handed to the drafting step through the store rather
 * than through workflow history (which caps payloads at a few MiB and keeps them forever).
 */
export class InvocationContextRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<ContextRecord>(COLLECTIONS.invocationContexts);
  }

  async save(id: string, documents: ProjectDocument[], now: Date): Promise<void> {
    await this.coll.replaceOne({ _id: id }, { documents, createdAt: now }, { upsert: true });
  }

  async load(id: string): Promise<ProjectDocument[] | null> {
    return (await this.coll.findOne({ _id: id }))?.documents ?? null;
  }

  async saveRewrite(id: string, progress: RewriteProgress): Promise<void> {
    await this.coll.updateOne({ _id: id }, { $set: { rewrite: progress } });
  }

  async loadRewrite(id: string): Promise<RewriteProgress | null> {
    return (await this.coll.findOne({ _id: id }, { projection: { rewrite: 1 } }))?.rewrite ?? null;
  }

  async remove(id: string): Promise<void> {
    await this.coll.deleteOne({ _id: id });
  }
}
