import type { Db, Filter, IndexDescription } from 'mongodb';
import { TOTAL_STEPS } from '../skills/invocation-status';
import { COLLECTIONS } from './collections';
import { TERMINAL_STATUSES, isTerminalStatus, type InvocationStatus } from '../skills/invocation-status';

export interface InvocationRecord {
  _id: string;
  project: string;
  skill: string;
  inputs: Record<string, unknown>;
  status: InvocationStatus;
  progress: { step: InvocationStatus; completedSteps: number; totalSteps: number };
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  result: unknown | null;
  error: { code: string; message: string } | null;
  workflowId: string;
  requestedBy: string;
  /** Bumped by every write from the workflow so a late, retried write never overwrites a newer one. */
  seq: number;
  /**
   * Which version of the result is stored (1, 2, …) and whether another follows: with a model configured the
   * deterministic draft is stored first (completed, `final: false`) and the model's rewrite replaces it as
   * version 2. Absent on records written before versions: their result is final.
   */
  revision?: { number: number; final: boolean };
}

/** True when no later version of the result will follow (a record without versions is final once terminal). */
export const isFinalRevision = (r: Pick<InvocationRecord, 'revision'>): boolean => r.revision?.final !== false;

/** A new invocation record, `queued`, as the API and the CLI create it before starting its workflow. */
export function queuedInvocation(f: {
  id: string;
  project: string;
  skill: string;
  inputs: Record<string, unknown>;
  workflowId: string;
  requestedBy: string;
  createdAt: Date;
}): InvocationRecord {
  return {
    _id: f.id,
    project: f.project,
    skill: f.skill,
    inputs: f.inputs,
    status: 'queued',
    progress: { step: 'queued', completedSteps: 0, totalSteps: TOTAL_STEPS },
    createdAt: f.createdAt,
    updatedAt: f.createdAt,
    completedAt: null,
    result: null,
    error: null,
    workflowId: f.workflowId,
    requestedBy: f.requestedBy,
    seq: 0,
  };
}

/**
 * Terminal writes made by this process, announced to whoever waits on that invocation in this process: a
 * `Prefer: wait` request answers the moment a worker in the API process (or a cancel through it) makes the
 * record terminal. Other processes' writes are not seen here; the waiting request long-polls Temporal for
 * those. Entries live only while a request waits.
 */
class SettledInvocations {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Calls `callback` once if invocation `id` becomes terminal here; returns the unsubscribe. */
  subscribe(id: string, callback: () => void): () => void {
    let set = this.waiting.get(id);
    if (!set) this.waiting.set(id, (set = new Set()));
    set.add(callback);
    return () => {
      set.delete(callback);
      if (set.size === 0 && this.waiting.get(id) === set) this.waiting.delete(id);
    };
  }

  settle(id: string): void {
    for (const callback of this.waiting.get(id) ?? []) callback();
  }
}

export const settledHere = new SettledInvocations();

/**
 * The invocation record clients poll. The API creates it (queued) before starting the workflow; the
 * workflow's activities move it forward. Writes are sequence-guarded: an activity retried after a later
 * step already wrote cannot move the record backwards, and a terminal status is final.
 */
export class InvocationRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<InvocationRecord>(COLLECTIONS.invocations);
  }

  /**
   * Results live beside the records, keyed by the same _id: records stay small, so the sequence-guarded
   * progress updates and the listings move little data, and a result is read only when asked for.
   */
  private get results() {
    return this.db.collection<{ _id: string; result: unknown; storedAt: Date }>(COLLECTIONS.invocationResults);
  }

  private async withResult(record: InvocationRecord): Promise<InvocationRecord> {
    if (record.status !== 'completed') return record;
    const stored = await this.results.findOne({ _id: record._id });
    return { ...record, result: stored?.result ?? null };
  }

  async create(record: InvocationRecord): Promise<void> {
    await this.coll.insertOne(record);
  }

  /** The skill and request time of an invocation (the worker's metrics), without its result. */
  timing(id: string): Promise<Pick<InvocationRecord, 'skill' | 'createdAt'> | null> {
    return this.coll.findOne({ _id: id }, { projection: { skill: 1, createdAt: 1 } });
  }

  /** Looked up by _id (the primary key) and checked against the project in code. */
  async get(project: string, id: string): Promise<InvocationRecord | null> {
    const record = await this.coll.findOne({ _id: id });
    return record?.project === project ? this.withResult(record) : null;
  }

  /** As get(), reading the result beside the record at the same time: for a record expected to be completed. */
  async getFinished(project: string, id: string): Promise<InvocationRecord | null> {
    const [record, stored] = await Promise.all([this.coll.findOne({ _id: id }), this.results.findOne({ _id: id })]);
    if (record?.project !== project) return null;
    return record.status === 'completed' ? { ...record, result: stored?.result ?? null } : record;
  }

  async advance(
    id: string,
    seq: number,
    update: Partial<Pick<InvocationRecord, 'status' | 'progress' | 'result' | 'error' | 'completedAt' | 'revision'>>,
    now: Date,
  ): Promise<boolean> {
    const { result, ...fields } = update;
    // The result first: once the record says completed, its result must be there to read. A late retry of the
    // store step may write it again; the drafters are deterministic, so it writes the same result.
    if (result !== undefined) await this.results.replaceOne({ _id: id }, { result, storedAt: now }, { upsert: true });
    const res = await this.coll.updateOne(
      { _id: id, seq: { $lt: seq }, status: { $nin: [...TERMINAL_STATUSES] } },
      { $set: { ...fields, seq, updatedAt: now } },
    );
    if (res.modifiedCount > 0 && fields.status && isTerminalStatus(fields.status)) settledHere.settle(id);
    return res.modifiedCount > 0;
  }

  /**
   * A later version of a completed invocation's result (the model's rewrite after the draft): written only over
   * an earlier sequence and a lower version, so a late retry never brings an older version back. The record
   * stays completed; its `seq` and `revision` move, which is what followers see as a new version.
   */
  async revise(id: string, seq: number, result: unknown, revision: { number: number; final: boolean }, now: Date): Promise<boolean> {
    const current = await this.coll.findOne({ _id: id }, { projection: { seq: 1, revision: 1, status: 1 } });
    if (!current || current.status !== 'completed' || current.seq >= seq || (current.revision?.number ?? 1) >= revision.number)
      return false;
    await this.results.replaceOne({ _id: id }, { result, storedAt: now }, { upsert: true });
    const res = await this.coll.updateOne({ _id: id, status: 'completed', seq: { $lt: seq } }, { $set: { seq, revision, updatedAt: now } });
    if (res.modifiedCount > 0) settledHere.settle(id);
    return res.modifiedCount > 0;
  }

  async remove(id: string): Promise<void> {
    await Promise.all([this.coll.deleteOne({ _id: id }), this.results.deleteOne({ _id: id })]);
  }

  /** Cancellation requested through the API: final unless the workflow already finished. */
  async markCancelled(id: string, now: Date): Promise<void> {
    const res = await this.coll.updateOne(
      { _id: id, status: { $nin: [...TERMINAL_STATUSES] } },
      { $set: { status: 'cancelled', 'progress.step': 'cancelled', completedAt: now, updatedAt: now } },
    );
    if (res.modifiedCount > 0) settledHere.settle(id);
  }

  async list(
    project: string,
    q: { skill?: string; status?: string; limit: number; before?: { createdAt: Date; id: string } },
  ): Promise<InvocationRecord[]> {
    const filter: Filter<InvocationRecord> = { project };
    if (q.skill) filter.skill = q.skill;
    if (q.status) filter.status = q.status as InvocationStatus;
    if (q.before) {
      filter.$or = [{ createdAt: { $lt: q.before.createdAt } }, { createdAt: q.before.createdAt, _id: { $lt: q.before.id } }];
    }
    const rows = await this.coll.find(filter).sort({ createdAt: -1, _id: -1 }).limit(q.limit).toArray();
    return Promise.all(rows.map((r) => this.withResult(r)));
  }
}

export const INVOCATION_INDEXES: IndexDescription[] = [
  { key: { project: 1, createdAt: -1, _id: -1 }, name: 'by_project_newest' },
  { key: { project: 1, skill: 1, status: 1, createdAt: -1, _id: -1 }, name: 'by_project_skill_status' },
  { key: { project: 1, status: 1, createdAt: -1, _id: -1 }, name: 'by_project_status' },
];
