import type { AnyBulkWriteOperation, Db, Document, Filter, Sort, IndexDescription } from 'mongodb';
import { contributorKey, firstContributions, isContribution, rankDocument, UNRELEASED_RANK } from '../skills/contributions';
import type { ProjectDocument } from '../skills/documents';
import { indexFields } from '../skills/index-fields';
import { queryTerms, searchTermsOf } from '../skills/search-terms';
import { isSemver, semverKey } from '../skills/semver';
import type { DocumentQuery } from '../skills/retrieval-plan';
import type { DocumentKind } from '../skills/types';
import { COLLECTIONS } from './collections';

/**
 * The upsert key as the _id, so an upsert is one primary-key write. Project and kind ids cannot contain '/',
 * so the external id (any text) can stand last unencoded and distinct keys never collide.
 */
export const documentKey = (project: string, kind: string, externalId: string) => `${project}/${kind}/${externalId}`;

/** Stored documents are keyed by documentKey(); their fields stay open to the skills' schemas. */
type KeyedDocument = Document & { _id: string };

type StoredDocument = ProjectDocument & {
  project: string;
  updatedAt: Date;
  versionKey?: string;
  fixVersionKey?: string;
  searchTerms?: string[];
};

/** How many times each kind of a project's documents was written: a cache of a kind is valid for one count. */
type RevisionRecord = { _id: string } & Partial<Record<DocumentKind, number>>;

/** A person's first contribution to a project: `_id` is `project/contributorKey`, `rank` its contributionRank. */
type FirstContributionRecord = { _id: string; project: string; rank: string };

/**
 * The first-contribution index's writes for a batch of documents: each person's lowest rank in the batch, kept
 * only where it is lower than the one stored (`$min`), so batches may land in any order, twice, or at once.
 */
function firstContributionWrites(project: string, docs: readonly ProjectDocument[]): AnyBulkWriteOperation<FirstContributionRecord>[] {
  return [...firstContributions(docs)].map(([key, rank]) => ({
    updateOne: { filter: { _id: `${project}/${key}` }, update: { $min: { rank }, $setOnInsert: { project } }, upsert: true },
  }));
}

/** A duplicate-key error: two upserts of the same new record raced, and the loser may simply try again. */
function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number } | null)?.code === 11000 || /E11000|duplicate key/i.test(String((err as Error | null)?.message ?? ''));
}

/**
 * How long one retrieval query may run before the store stops it (MaxTimeMSExpired): every plan's query is an
 * index range bounded by its limit and answers in milliseconds, so one that runs this long is a fault to report,
 * not work to wait for (it would hold a worker slot and the store's CPU from every other project).
 */
export const QUERY_TIME_LIMIT_MS = 30_000;

/** A project's documents (the skills' retrieval sources), upserted by (project, kind, externalId). */
export class DocumentRepository {
  /**
   * `cache`: one per process (the worker's), for reads of a whole kind; see WholeKindCache. `queryTimeMs`: the
   * time limit of each retrieval query (QUERY_TIME_LIMIT_MS; a benchmark sets its own budget's).
   */
  constructor(
    private readonly db: Db,
    private readonly cache: WholeKindCache | null = null,
    private readonly queryTimeMs = QUERY_TIME_LIMIT_MS,
  ) {}

  private get coll() {
    return this.db.collection<KeyedDocument>(COLLECTIONS.documents);
  }

  private get revisions() {
    return this.db.collection<RevisionRecord>(COLLECTIONS.documentRevisions);
  }

  /** First-contribution reads under way, by project and rank range (firstsInRange). */
  private readonly firstsReads = new Map<string, Promise<FirstContributionRecord[]>>();

  private get firsts() {
    return this.db.collection<FirstContributionRecord>(COLLECTIONS.firstContributions);
  }

  /** Bulk upsert. Unordered, so one failing write does not stop the others. */
  async upsertMany(project: string, docs: ProjectDocument[], now: Date): Promise<{ inserted: number; updated: number }> {
    if (docs.length === 0) return { inserted: 0, updated: 0 };
    const ops: AnyBulkWriteOperation<KeyedDocument>[] = docs.map((doc) => ({
      replaceOne: {
        filter: { _id: documentKey(project, doc.kind, doc.externalId) },
        replacement: { ...doc, ...indexFields(doc), project, updatedAt: now },
        upsert: true,
      },
    }));
    try {
      const res = await this.coll.bulkWrite(ops, { ordered: false });
      // After the documents, so whatever the index names can be read.
      await this.recordFirstContributions(project, docs);
      return { inserted: res.upsertedCount, updated: res.matchedCount };
    } finally {
      // After the write, even a partly failed one: a reader that saw the old count re-reads what changed.
      const kinds = [...new Set(docs.map((d) => d.kind))];
      await this.revisions.updateOne({ _id: project }, { $inc: Object.fromEntries(kinds.map((k) => [k, 1])) }, { upsert: true });
    }
  }

  private async recordFirstContributions(project: string, docs: readonly ProjectDocument[]): Promise<void> {
    const writes = firstContributionWrites(project, docs);
    for (let attempt = 1; writes.length > 0; attempt++) {
      try {
        await this.firsts.bulkWrite(writes, { ordered: false });
        return;
      } catch (err) {
        // `$min` is idempotent: writing the whole batch again is safe.
        if (attempt >= 3 || !isDuplicateKey(err)) throw err;
      }
    }
  }

  /**
   * Marks the commits and pull requests among `rows` that are their author's first contribution to the project
   * (the index's record of that person names the document): one read of the index by id per call.
   */
  private async markFirstContributions(project: string, rows: ProjectDocument[]): Promise<void> {
    const contributions = rows.filter(isContribution);
    const ids = [...new Set(contributions.map((d) => `${project}/${contributorKey(d)}`))];
    if (ids.length === 0) return;
    const first = new Map<string, { kind: string; externalId: string } | undefined>();
    for (const r of await this.firsts.find({ _id: { $in: ids } }).toArray()) first.set(r._id, rankDocument(r.rank));
    for (const d of contributions) {
      const f = first.get(`${project}/${contributorKey(d)}`);
      if (f && f.kind === d.kind && f.externalId === d.externalId) d.firstContribution = true;
    }
  }

  /**
   * Runs one planned query (see retrieval-plan.ts) inside a project. A query without conditions reads a whole
   * kind (a proposal reads the evidence library that way): with a cache, it is served from memory while the
   * kind's revision is the one it was read at, for the price of one primary-key read.
   */
  async find(project: string, query: DocumentQuery): Promise<ProjectDocument[]> {
    if (!this.cache || query.where.length > 0) return this.query(project, query);
    const revision = (await this.revisions.findOne({ _id: project }, { projection: { [query.kind]: 1 } }))?.[query.kind] ?? 0;
    const key = JSON.stringify([project, query.kind, query.sort ?? [], query.limit]);
    const cached = this.cache.get(key, revision);
    if (cached) return [...cached];
    const rows = await this.query(project, query);
    this.cache.set(key, revision, rows, project);
    return [...rows];
  }

  private async query(project: string, query: DocumentQuery): Promise<ProjectDocument[]> {
    const filter: Filter<KeyedDocument> = { project, kind: query.kind };
    for (const c of query.where) {
      if (c.op === 'eq') filter[c.field] = c.value;
      else if (c.op === 'in') filter[c.field] = { $in: c.value };
      else if (c.op === 'absent') filter[c.field] = null;
      else filter[c.field] = Object.fromEntries(Object.entries(c.value).map(([op, v]) => [`$${op}`, v]));
    }
    const sort: Sort = Object.fromEntries((query.sort ?? []).map((s) => [s.field, s.order === 'asc' ? 1 : -1]));
    const reading = this.coll
      .find(filter, { projection: { _id: 0, project: 0, updatedAt: 0, versionKey: 0, fixVersionKey: 0, searchTerms: 0 } })
      .sort(sort)
      .limit(query.limit)
      .maxTimeMS(this.queryTimeMs)
      .toArray() as unknown as Promise<ProjectDocument[]>;
    if (!query.mark?.includes('firstContribution')) return reading;
    // A release range's first contributions are read beside its documents, not after them (one round trip less).
    const ranks = rankRangeOf(query);
    if (!ranks) {
      const rows = await reading;
      await this.markFirstContributions(project, rows);
      return rows;
    }
    const [rows, firsts] = await Promise.all([reading, this.firstsInRange(project, ranks)]);
    if (firsts.length >= FIRSTS_IN_RANGE_MAX) await this.markFirstContributions(project, rows);
    else markNamed(project, rows, firsts);
    return rows;
  }

  /**
   * The first-contribution records of a project whose rank is in `ranks`. A release range's commits and pull
   * requests ask for the same range at once: they share one read while it is under way.
   */
  private firstsInRange(project: string, ranks: RankRange): Promise<FirstContributionRecord[]> {
    const key = JSON.stringify([project, ranks]);
    const pending = this.firstsReads.get(key);
    if (pending) return pending;
    const read = this.firsts.find({ project, rank: ranks }).limit(FIRSTS_IN_RANGE_MAX).maxTimeMS(this.queryTimeMs).toArray();
    this.firstsReads.set(key, read);
    const done = () => this.firstsReads.delete(key);
    read.then(done, done);
    return read;
  }

  /**
   * Which of `versions` the project knows (a release, or a commit or pull request first shipped in it): point
   * lookups on the version index, one kind at a time, so the cost does not grow with the project's history.
   */
  async knownVersions(project: string, versions: readonly string[]): Promise<string[]> {
    const known = await Promise.all(
      versions.map(async (version) => {
        if (!isSemver(version)) return null;
        for (const kind of ['release', 'commit', 'pull_request'] as const) {
          if (await this.coll.findOne({ project, kind, versionKey: semverKey(version) }, { projection: { _id: 1 } })) return version;
        }
        return null;
      }),
    );
    return known.filter((v): v is string => v !== null);
  }

  /** The project's newest releases, newest first (semver order, through the version index). */
  async latestReleases(project: string, limit: number): Promise<string[]> {
    const rows = await this.coll
      .find({ project, kind: 'release', versionKey: { $exists: true } }, { projection: { _id: 0, version: 1 } })
      .sort({ versionKey: -1 })
      .limit(limit)
      .toArray();
    return rows.map((r) => String(r.version));
  }

  async exists(project: string, kind: DocumentKind, field: string, value: string): Promise<boolean> {
    return (await this.coll.findOne({ project, kind, [field]: value }, { projection: { _id: 1 } })) !== null;
  }

  /**
   * Paged listing for people: newest first, optional kind and words (each a whole word of the title or body,
   * any case; search-terms.ts), answered from the `searchTerms` indexes. The order ends in kind because externalId is
   * unique only within a kind (a pull request "7", a ticket "7").
   */
  async list(
    project: string,
    q: { kind?: DocumentKind; text?: string; limit: number; after?: { createdAt: string; externalId: string; kind: string } },
  ): Promise<StoredDocument[]> {
    const filter: Filter<KeyedDocument> = { project };
    if (q.kind) filter.kind = q.kind;
    const terms = q.text ? queryTerms(q.text) : [];
    // Whole words, each an equality on the multikey index: the first one's entries come in the listing's order.
    if (terms.length > 0) filter.$and = terms.map((t) => ({ searchTerms: t }));
    if (q.after) {
      const { createdAt, externalId, kind } = q.after;
      filter.$and = [
        ...(filter.$and ?? []),
        {
          $or: [
            { createdAt: { $lt: createdAt } },
            { createdAt, externalId: { $lt: externalId } },
            { createdAt, externalId, kind: { $lt: kind } },
          ],
        },
      ];
    }
    const rows = await this.coll
      .find(filter, { projection: { _id: 0 } })
      .sort({ createdAt: -1, externalId: -1, kind: -1 })
      .limit(q.limit)
      .toArray();
    return rows as unknown as StoredDocument[];
  }
}

/** More first contributions than this in one release range: marked by reading each author's record instead. */
const FIRSTS_IN_RANGE_MAX = 10_000;

/**
 * The contribution ranks (contributionRank) of a query that selects by first release alone: a versionKey range, or
 * no version (not released yet). A rank starts with its version key and a space, and every character of a version
 * key sorts above the space: `rank >= k + '!'` is every rank whose key is above k, `rank < k + '!'` every rank
 * whose key is k or below. Undefined for any other query.
 */
type RankRange = { $gte?: string; $lt?: string };

function rankRangeOf(query: DocumentQuery): RankRange | undefined {
  if (query.where.length !== 1 || query.where[0]!.field !== 'versionKey') return undefined;
  const c = query.where[0]!;
  if (c.op === 'absent') return { $gte: `${UNRELEASED_RANK} `, $lt: `${UNRELEASED_RANK}!` };
  if (c.op !== 'range') return undefined;
  const { gt, gte, lt, lte } = c.value;
  const range: RankRange = {};
  if (gt !== undefined) range.$gte = `${gt}!`;
  else if (gte !== undefined) range.$gte = gte;
  if (lte !== undefined) range.$lt = `${lte}!`;
  else if (lt !== undefined) range.$lt = lt;
  return range;
}

/**
 * Marks the rows that their author's record among `firsts` names (the same test as markFirstContributions: the
 * record of the row's author, by contributorKey, names that row). A record's rank holds the first release of the
 * document it names as it was written, so the record of a row in the range is among those read unless that
 * document has moved to a later release since (a tag moved or deleted and the history imported again; adding tags
 * only moves commits to earlier releases, which `$min` follows).
 */
function markNamed(project: string, rows: ProjectDocument[], firsts: readonly FirstContributionRecord[]): void {
  const named = new Map(firsts.map((r) => [r._id, rankDocument(r.rank)]));
  for (const d of rows) {
    if (!isContribution(d)) continue;
    const f = named.get(`${project}/${contributorKey(d)}`);
    if (f && f.kind === d.kind && f.externalId === d.externalId) d.firstContribution = true;
  }
}

/** Each person's first contribution in a project's history, by where it stands (release ranges read them by rank). */
export const FIRST_CONTRIBUTION_INDEXES: IndexDescription[] = [{ key: { project: 1, rank: 1 }, name: 'by_project_rank' }];

export const DOCUMENT_INDEXES: IndexDescription[] = [
  { key: { project: 1, kind: 1, externalId: 1 }, name: 'upsert_key', unique: true },
  // Release ranges (versionKey bounds) and, newest first, the changes not released yet (versionKey missing).
  { key: { project: 1, kind: 1, versionKey: 1, createdAt: -1 }, name: 'by_version_newest' },
  { key: { project: 1, kind: 1, fixVersionKey: 1 }, name: 'by_fix_version' },
  { key: { project: 1, kind: 1, incidentId: 1 }, name: 'by_incident_id' },
  { key: { project: 1, kind: 1, issueId: 1 }, name: 'by_issue_id' },
  { key: { project: 1, kind: 1, service: 1, count: -1 }, name: 'by_service_busiest' },
  { key: { project: 1, kind: 1, date: -1 }, name: 'by_kind_newest_evidence' },
  // The people-facing listing's order (newest first, then externalId and kind), with and without a kind.
  { key: { project: 1, createdAt: -1, externalId: -1, kind: -1 }, name: 'listing_newest' },
  { key: { project: 1, kind: 1, createdAt: -1, externalId: -1 }, name: 'listing_kind_newest' },
  // The listing's search: one multikey entry per word of a document, in the listing's order, with and without a kind.
  { key: { project: 1, searchTerms: 1, createdAt: -1, externalId: -1, kind: -1 }, name: 'search_newest' },
  { key: { project: 1, kind: 1, searchTerms: 1, createdAt: -1, externalId: -1 }, name: 'search_kind_newest' },
];

/**
 * Gives documents stored before `searchTerms` existed their terms, a batch at a time (start-up, after the
 * indexes), then records that it is done, so later start-ups skip the scan. Idempotent: the API and the worker
 * may both run it.
 */
export async function backfillSearchTerms(db: Db, batch = 500): Promise<number> {
  const migrations = db.collection<{ _id: string; doneAt: Date }>(COLLECTIONS.migrations);
  if (await migrations.findOne({ _id: SEARCH_TERMS_MIGRATION })) return 0;
  const coll = db.collection<KeyedDocument>(COLLECTIONS.documents);
  let done = 0;
  for (;;) {
    const rows = await coll
      .find({ searchTerms: { $exists: false } }, { projection: { _id: 1, title: 1, body: 1 } })
      .limit(batch)
      .toArray();
    if (rows.length === 0) break;
    await coll.bulkWrite(
      rows.map((r) => ({
        updateOne: { filter: { _id: r._id }, update: { $set: { searchTerms: searchTermsOf(r as { title?: unknown; body?: unknown }) } } },
      })),
      { ordered: false },
    );
    done += rows.length;
  }
  await migrations.updateOne({ _id: SEARCH_TERMS_MIGRATION }, { $set: { doneAt: new Date() } }, { upsert: true });
  return done;
}
const SEARCH_TERMS_MIGRATION = 'documents.searchTerms';

/**
 * Gives the first-contribution index the commits and pull requests stored before it existed, a batch at a time
 * in _id order (start-up, once), then records that it is done. Idempotent, like every write of the index.
 */
export async function backfillFirstContributions(db: Db, batch = 1000): Promise<number> {
  const migrations = db.collection<{ _id: string; doneAt: Date }>(COLLECTIONS.migrations);
  if (await migrations.findOne({ _id: FIRST_CONTRIBUTIONS_MIGRATION })) return 0;
  const coll = db.collection<KeyedDocument>(COLLECTIONS.documents);
  const firsts = db.collection<FirstContributionRecord>(COLLECTIONS.firstContributions);
  let done = 0;
  let after = '';
  for (;;) {
    const rows = (await coll
      .find({ _id: { $gt: after }, kind: { $in: ['commit', 'pull_request'] } }, { projection: { updatedAt: 0, searchTerms: 0, body: 0 } })
      .sort({ _id: 1 })
      .limit(batch)
      .toArray()) as unknown as (StoredDocument & { _id: string })[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!._id;
    const byProject = new Map<string, ProjectDocument[]>();
    for (const r of rows) byProject.set(r.project, [...(byProject.get(r.project) ?? []), r]);
    for (const [project, docs] of byProject) {
      const writes = firstContributionWrites(project, docs);
      if (writes.length > 0) await firsts.bulkWrite(writes, { ordered: false });
    }
    done += rows.length;
  }
  await migrations.updateOne({ _id: FIRST_CONTRIBUTIONS_MIGRATION }, { $set: { doneAt: new Date() } }, { upsert: true });
  return done;
}
const FIRST_CONTRIBUTIONS_MIGRATION = 'documents.firstContributions';

/**
 * Whole-kind reads kept in memory, each valid for one revision of its kind, bounded by the number of documents held
 * (an empty read counts as one, so the entries are bounded too). Shared by every project on a worker, and fair to
 * them: past the bound, the project holding the most gives up its least recently used read first, so one project's
 * reads never push out a project that holds less. Rows are shared between callers: treat them as read-only.
 */
export class WholeKindCache {
  private readonly entries = new Map<string, { revision: number; rows: readonly ProjectDocument[]; project: string }>();
  private readonly heldBy = new Map<string, number>();
  private held = 0;

  constructor(private readonly maxDocuments = 20_000) {}

  get(key: string, revision: number): readonly ProjectDocument[] | null {
    const entry = this.entries.get(key);
    if (!entry || entry.revision !== revision) return null;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.rows;
  }

  /** Keeps `project`'s read under `key`, then gives up reads (the largest holder's oldest first) past the bound. */
  set(key: string, revision: number, rows: readonly ProjectDocument[], project: string): void {
    if (rows.length > this.maxDocuments) return;
    this.drop(key);
    this.entries.set(key, { revision, rows, project });
    this.count(project, weight(rows));
    while (this.held > this.maxDocuments) {
      const largest = [...this.heldBy].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
      for (const [k, e] of this.entries) {
        if (e.project !== largest) continue;
        this.drop(k);
        break;
      }
    }
  }

  /** Documents held per project (for tests and logs). */
  holding(project: string): number {
    return this.heldBy.get(project) ?? 0;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.count(entry.project, -weight(entry.rows));
  }

  private count(project: string, n: number): void {
    this.held += n;
    const now = (this.heldBy.get(project) ?? 0) + n;
    if (now > 0) this.heldBy.set(project, now);
    else this.heldBy.delete(project);
  }
}

const weight = (rows: readonly ProjectDocument[]) => Math.max(1, rows.length);
