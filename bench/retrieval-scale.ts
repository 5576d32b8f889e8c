/**
 * Benchmark 4, retrieval at scale: the retrieval step of each skill (the plan's queries through
 * DocumentRepository.find, then selection and drafting) on synthetic projects of 1k, 10k and 100k documents,
 * each in its own database with the product's indexes, bulk-inserted in the shape upsertMany stores. The
 * baseline is the same skill at 1k documents: the ratio is the growth. Each tier is attempted only if its
 * projected insert and query time fits the remaining budget; the slowest query of the largest tier is run
 * through `explain` to show the plan the store chose. Whatever a query does, the run's budget holds: every
 * query carries a time limit the store enforces (maxTimeMS, at most what is left of the budget), and no
 * retrieval starts after the deadline; a tier cut short says so and ends the benchmark.
 */
import type { Db } from 'mongodb';
import { check } from '../src/contracts/validation';
import { contributorKey, isContribution, rankDocument } from '../src/skills/contributions';
import { DOCUMENT_KIND_SCHEMAS, type ProjectDocument } from '../src/skills/documents';
import { resolveQueries } from '../src/skills/retrieval-plan';
import { retrievalPlan, selectAndDraft } from '../src/skills/run';
import { COLLECTIONS } from '../src/store/collections';
import { DocumentRepository, WholeKindCache } from '../src/store/documents';
import { ensureIndexes } from '../src/store/indexes';
import { connectStore } from '../src/store/mongo';
import type { SkillCase } from './lib/demo';
import { ms, row, type BenchOutcome, type Row } from './lib/report';
import { describeQuery, retrieveTimed, storeQuery } from './lib/retrieve';
import { benchConfig } from './lib/service';
import type { BenchStack, RunContext } from './lib/stack';
import { nowMs, summarize, type Summary } from './lib/stats';
import { SYNTHETIC_NOW, syntheticProject, type SyntheticProject } from './lib/synthetic-docs';

const NAME = 'retrieval scale';
const SIZES = [1_000, 10_000, 100_000];
const PROJECT = 'bench-synthetic';
/**
 * Documents per write, as import-git writes them (its default batch). The load goes through upsertMany, the
 * service's own write path (replaceOne upserts by _id, then the first-contribution index): an insertMany of the
 * same 1,000 evidence documents stalls SecantusDB (0.5.3-beta.196) for minutes at full CPU once ~9,000 documents
 * are stored, while the service's upserts of them take under a second (measured on the 10k tier).
 */
const LOAD_BATCH = 1_000;
const MIN_ITERATIONS = 3;
const MAX_ITERATIONS = 20;
/** Per skill and tier: stop after this long once MIN_ITERATIONS are in. */
const PER_SKILL_MS = 12_000;
/** Tiers up to this size also time each query alone (the step's queries otherwise run in parallel). */
const ISOLATE_UP_TO = 10_000;
const TARGET_P95_MS = 50;
/** Margin on the linear projection of the next tier's cost, so the run keeps its budget. */
const PROJECTION_MARGIN = 1.25;
/** Time kept for a tier's retrievals after its load; a load that would eat into it is stopped (no tier half-measured). */
const MEASURE_RESERVE_MS = 30_000;
/** How long before the run's deadline the benchmark stops asking the store for more, so it reports in time. */
const REPORT_MARGIN_MS = 10_000;

interface SkillStats {
  /** The first run after the tier's data was loaded (not measured on the first tier, which warms up the process). */
  cold: number;
  total: Summary;
  queries: Summary;
  select: Summary;
  /** Median time of each distinct query, slowest first. */
  perQuery: { label: string; p50: number; rows: number; query: ReturnType<typeof storeQuery> }[];
}

interface Tier {
  size: number;
  /** Why the tier was cut short (a query over its time limit, the run's deadline), if it was. */
  stopped?: string;
  insertMs: number;
  skills: Record<string, SkillStats>;
  explain: string[];
  /** Each distinct query run alone, once (small tiers only). */
  isolated: string[];
  /** Release notes' queries with the first contributions read after the documents (as before) and beside them. */
  firstsAB?: { sequential: Summary; beside: Summary; pairs: number };
}

export async function benchRetrievalScale(stack: BenchStack, run: RunContext): Promise<BenchOutcome> {
  const config = benchConfig(stack, 'docs');
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'bench-retrieval');
  const tiers: Tier[] = [];
  const skipped: string[] = [];
  try {
    for (const size of SIZES) {
      const previous = tiers[tiers.length - 1];
      let target = size;
      if (previous) {
        // A worst-case projection (insert and query time linear in the size) keeps the run inside its budget.
        const perDoc =
          (PROJECTION_MARGIN *
            (previous.insertMs + Object.values(previous.skills).reduce((a, s) => a + s.total.mean * MIN_ITERATIONS, 0))) /
          previous.size;
        const left = run.deadline - Date.now();
        if (perDoc * size > left) {
          const feasible = Math.floor(left / perDoc / 10_000) * 10_000;
          skipped.push(
            `${label(size)} documents would take ~${((perDoc * size) / 1000).toFixed(0)} s (insert + ${MIN_ITERATIONS} retrievals per skill, linear from ${label(previous.size)} with a ${PROJECTION_MARGIN}x margin) and ${(left / 1000).toFixed(0)} s of the run's budget are left` +
              (feasible >= 2 * previous.size ? `: measured ${label(feasible)} instead, the largest that fits` : ''),
          );
          if (feasible < 2 * previous.size) break;
          target = feasible;
        }
      }
      // Loading must leave time to measure: what the previous tier's retrievals took, with the margin, or 30 s.
      const measuring = previous
        ? PROJECTION_MARGIN * Object.values(previous.skills).reduce((a, s) => a + s.total.mean * (MIN_ITERATIONS + 1), 0)
        : 0;
      const loadBy = run.deadline - Math.max(MEASURE_RESERVE_MS, measuring);
      const tier = await measureTier(store.client.db(`bench_docs_${target}`), target, tiers.length === 0, run.deadline, loadBy);
      tiers.push(tier);
      if (tier.stopped) {
        skipped.push(`${label(target)} documents stopped early: ${tier.stopped}; no larger tier was tried`);
        break;
      }
      if (target !== size) break;
    }
  } finally {
    await store.close();
  }

  const first = tiers[0]!;
  const last = tiers[tiers.length - 1]!;
  const rows: Row[] = [];
  if (Object.keys(first.skills).length === 0)
    rows.push(
      row(NAME, `stopped at ${label(first.size)} documents: ${first.stopped ?? 'nothing measured'}`, '', Number.NaN, { met: false }),
    );
  for (const skill of Object.keys(first.skills)) {
    for (const tier of tiers) {
      if (!tier.skills[skill]) {
        rows.push(row(NAME, `${skill} @ ${label(tier.size)}: stopped (${tier.stopped})`, 'ms', Number.NaN, { met: false }));
        continue;
      }
      const s = tier.skills[skill].total;
      const base = first.skills[skill]!.total;
      const isLast = tier === last;
      rows.push(row(NAME, `${skill} @ ${label(tier.size)} p50`, 'ms', s.p50, { baseline: base.p50 }));
      rows.push(
        row(NAME, `${skill} @ ${label(tier.size)} p95`, 'ms', s.p95, {
          baseline: base.p95,
          ...(isLast ? { target: `< ${TARGET_P95_MS} ms @100k`, met: tier.size >= 100_000 && s.p95 < TARGET_P95_MS } : {}),
        }),
      );
    }
  }

  const notes = [
    `Retrieval scale (baseline column = the same skill at ${label(first.size)} documents; ratio = growth): inserts ${tiers.map((t) => `${label(t.size)} in ${(t.insertMs / 1000).toFixed(1)} s (${Math.round((t.size * 1000) / t.insertMs)} docs/s)`).join(', ')}.`,
    ...skipped.map((s) => `  ${s}.`),
    `  cold (first run after the tier was loaded; not in the percentiles): ${tiers
      .slice(1)
      .flatMap((t) => Object.entries(t.skills).map(([skill, s]) => `${skill} @ ${label(t.size)} ${ms(s.cold)}`))
      .join(', ')}`,
    '  per tier and skill: queries p50 / select+draft p50 (ms); slowest query (timed beside the rest of its step, as the activity runs them):',
    ...tiers.flatMap((t) =>
      Object.entries(t.skills).map(
        ([skill, s]) =>
          `    ${label(t.size).padStart(4)} ${skill.padEnd(23)} ${s.queries.p50.toFixed(1).padStart(8)} / ${s.select.p50.toFixed(1).padStart(6)}   ${s.perQuery[0] ? `${s.perQuery[0].label} (${ms(s.perQuery[0].p50)}, ${s.perQuery[0].rows} rows)` : ''}`,
      ),
    ),
    '  release notes, queries only, first contributions read after the documents (before) / beside them (now), same process, alternating, p50 / p95 (ms):',
    ...tiers
      .filter((t) => t.firstsAB)
      .map(
        (t) =>
          `    ${label(t.size).padStart(4)}  ${t.firstsAB!.sequential.p50.toFixed(1)} / ${t.firstsAB!.sequential.p95.toFixed(1)}  →  ${t.firstsAB!.beside.p50.toFixed(1)} / ${t.firstsAB!.beside.p95.toFixed(1)}  (${(t.firstsAB!.beside.p50 / t.firstsAB!.sequential.p50).toFixed(2)}× at p50, ${t.firstsAB!.pairs} pairs)`,
      ),
    ...(tiers.filter((t) => t.isolated.length > 0).pop()?.isolated ?? []),
    ...last.explain,
  ];
  return { name: NAME, rows, notes, details: { tiers, skipped, runDeadline: new Date(run.deadline).toISOString() } };
}

const label = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));

/** What `work` gave when it finished before `deadline`; undefined when the deadline came first (the work is left behind). */
async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([work.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A query's time limit: what is left of the run's budget, at least a second, at most a minute. */
const queryLimitMs = (deadline: number) => Math.max(1_000, Math.min(60_000, deadline - Date.now()));

/**
 * Generates the tier's project and loads it. Only its cases outlive this call: the measuring below runs, as the
 * worker does, in a process that does not hold the project's 100k documents (which made every garbage collection
 * of the bench process slower, and with it the measured retrievals).
 */
async function loadTier(
  db: Db,
  size: number,
  loadBy: number,
  deadline: number,
): Promise<{ cases: SyntheticProject['cases']; insertMs: number; stopped?: string }> {
  const { documents, cases } = syntheticProject(size);
  if (size === SIZES[0]) assertValid(documents);
  await db.dropDatabase();
  await ensureIndexes(db);
  const writer = new DocumentRepository(db);
  const now = new Date();
  const t = nowMs();
  for (let i = 0; i < documents.length; i += LOAD_BATCH) {
    const load = writer.upsertMany(PROJECT, documents.slice(i, i + LOAD_BATCH), now);
    if (!(await beforeDeadline(load, loadBy)))
      return {
        cases,
        insertMs: nowMs() - t,
        stopped: `loading ${i} of ${size} documents used the time kept for measuring (${((deadline - loadBy) / 1000).toFixed(0)} s before the run's deadline)`,
      };
  }
  return { cases, insertMs: nowMs() - t };
}

async function measureTier(db: Db, size: number, warmUp: boolean, deadline: number, loadBy: number): Promise<Tier> {
  const loaded = await loadTier(db, size, loadBy, deadline);
  const { cases, insertMs } = loaded;
  if (loaded.stopped) return { size, insertMs, skills: {}, explain: [], isolated: [], stopped: loaded.stopped };
  process.stderr.write(`[bench] retrieval: ${size} documents inserted in ${(insertMs / 1000).toFixed(1)} s\n`);
  // As the worker reads: with its cache of whole-kind reads (a proposal's evidence library).
  const repo = new DocumentRepository(db, new WholeKindCache(), queryLimitMs(deadline));
  const skills: Record<string, SkillStats> = {};
  let stopped: string | undefined;
  for (const c of cases) {
    if (stopped) break;
    const totals: number[] = [];
    const queries: number[] = [];
    const selects: number[] = [];
    const perQuery = new Map<string, { times: number[]; rows: number; query: ReturnType<typeof storeQuery> }>();
    const began = Date.now();
    // The first run of each skill on a tier is its cold read (the first after the data was loaded: the store's
    // cache and the worker's library cache are empty); it is reported on its own, and on the first tier it also
    // warms the process up (JIT, connections). Then bounded: at least MIN_ITERATIONS, at most MAX_ITERATIONS,
    // and no more once PER_SKILL_MS has passed.
    let cold = Number.NaN;
    for (let i = 0; i <= MAX_ITERATIONS && (i <= MIN_ITERATIONS || Date.now() - began < PER_SKILL_MS); i++) {
      if (Date.now() >= deadline) {
        stopped = `the run's deadline came during ${c.skill} (${totals.length} timed runs)`;
        break;
      }
      let r: Awaited<ReturnType<typeof retrieveTimed>>;
      try {
        r = await retrieveTimed(repo, PROJECT, c.skill, c.inputs as never);
      } catch (err) {
        stopped = `${c.skill}'s retrieval failed (${err instanceof Error ? err.message.slice(0, 200) : String(err)})`;
        break;
      }
      const s = nowMs();
      const result = selectAndDraft(c.skill, c.inputs as never, r.docs, SYNTHETIC_NOW);
      const selectMs = nowMs() - s;
      if (result.sections.length === 0) throw new Error(`${c.skill} drafted nothing from ${size} documents`);
      if (i === 0) {
        if (!warmUp) cold = r.ms + selectMs;
        continue;
      }
      totals.push(r.ms + selectMs);
      queries.push(r.ms);
      selects.push(selectMs);
      for (const q of r.queries) {
        const key = describeQuery(q.query);
        const entry = perQuery.get(key) ?? { times: [], rows: q.rows, query: storeQuery(PROJECT, q.query) };
        entry.times.push(q.ms);
        perQuery.set(key, entry);
      }
    }
    if (totals.length === 0) break;
    skills[c.skill] = {
      cold,
      total: summarize(totals),
      queries: summarize(queries),
      select: summarize(selects),
      perQuery: [...perQuery.entries()]
        .map(([k, v]) => ({ label: k, p50: summarize(v.times).p50, rows: v.rows, query: v.query }))
        .sort((a, b) => b.p50 - a.p50),
    };
    process.stderr.write(
      `[bench] retrieval: ${size} docs ${c.skill}: p95 ${skills[c.skill]!.total.p95.toFixed(1)} ms over ${totals.length}\n`,
    );
  }
  const step = (what: string) => process.stderr.write(`[bench] retrieval: ${size} docs: ${what}\n`);
  // After the measurements, each step ends REPORT_MARGIN_MS before the run's deadline or is left behind (an
  // explain at 100k on a loaded machine outlasted the budget and cost the whole benchmark its figures); past it
  // nothing more is asked of the store, whose stop at the run's end ends whatever it was still doing.
  const finishBy = deadline - REPORT_MARGIN_MS;
  const inTime = () => !stopped && Date.now() < finishBy;
  let explain: string[] = [];
  if (inTime()) {
    step('explain of the slowest queries');
    explain = (await beforeDeadline(explainSlowest(db, size, skills), finishBy))?.value ?? [
      `  explain at ${label(size)}: not finished before the run's deadline, left out`,
    ];
  }
  let firstsAB: Tier['firstsAB'];
  const releaseNotes = cases.find((c) => c.skill === 'release_notes_composer');
  if (inTime() && releaseNotes) {
    step('first contributions read after the documents or beside them, alternating');
    firstsAB = (await beforeDeadline(firstContributionsAB(db, repo, releaseNotes), finishBy))?.value;
  }
  let isolated: string[] = [];
  if (inTime() && size <= ISOLATE_UP_TO) {
    step('each query alone');
    isolated = (await beforeDeadline(isolatedQueries(repo, size, cases), finishBy))?.value ?? [];
  }
  if (inTime()) {
    step('dropping the tier');
    await beforeDeadline(db.dropDatabase(), finishBy);
  }
  return { size, insertMs, skills, explain, isolated, ...(firstsAB ? { firstsAB } : {}), ...(stopped ? { stopped } : {}) };
}

const AB_PAIRS = 20;

/**
 * Release notes' retrieval two ways in the same process, alternating, AB_PAIRS times each: the service's (a
 * release range's first contributions read beside its documents, store/documents.ts) and the baseline as it was
 * before (the documents first, then their authors' records by id: one more round trip after the slowest query).
 */
async function firstContributionsAB(db: Db, repo: DocumentRepository, c: SkillCase): Promise<Tier['firstsAB']> {
  const firsts = db.collection<{ _id: string; rank: string }>(COLLECTIONS.firstContributions);
  const sequential = async (): Promise<number> => {
    const t = nowMs();
    const plan = retrievalPlan(c.skill, c.inputs as never);
    const docs: ProjectDocument[] = [];
    for (const step of plan.steps) {
      const results = await Promise.all(
        resolveQueries(step, docs).map(async (query) => {
          const { mark, ...unmarked } = query;
          const rows = await repo.find(PROJECT, unmarked);
          if (!mark?.includes('firstContribution')) return rows;
          const contributions = rows.filter(isContribution);
          const ids = [...new Set(contributions.map((d) => `${PROJECT}/${contributorKey(d)}`))];
          const first = new Map((await firsts.find({ _id: { $in: ids } }).toArray()).map((r) => [r._id, rankDocument(r.rank)]));
          for (const d of contributions) {
            const f = first.get(`${PROJECT}/${contributorKey(d)}`);
            if (f && f.kind === d.kind && f.externalId === d.externalId) d.firstContribution = true;
          }
          return rows;
        }),
      );
      docs.push(...results.flat());
    }
    return nowMs() - t;
  };
  const seq: number[] = [];
  const beside: number[] = [];
  for (let i = 0; i < AB_PAIRS; i++) {
    seq.push(await sequential());
    beside.push((await retrieveTimed(repo, PROJECT, c.skill, c.inputs as never)).ms);
  }
  return { sequential: summarize(seq), beside: summarize(beside), pairs: AB_PAIRS };
}

function assertValid(documents: ProjectDocument[]): void {
  for (const doc of documents) {
    const errors = check(DOCUMENT_KIND_SCHEMAS[doc.kind], doc);
    if (errors.length > 0)
      throw new Error(`synthetic ${doc.kind} ${doc.externalId} breaks the document schema: ${JSON.stringify(errors.slice(0, 3))}`);
  }
}

/** Every distinct query of the cases, alone and in sequence: which query costs what without the others beside it. */
async function isolatedQueries(repo: DocumentRepository, size: number, cases: SkillCase[]): Promise<string[]> {
  const lines = [`  each query alone at ${label(size)} (ms, rows returned):`];
  for (const c of cases) {
    const plan = retrievalPlan(c.skill, c.inputs as never);
    const docs: ProjectDocument[] = [];
    const parts: string[] = [];
    for (const step of plan.steps) {
      for (const query of resolveQueries(step, docs)) {
        const t = nowMs();
        const rows = await repo.find(PROJECT, query);
        parts.push(`${describeQuery(query)} ${(nowMs() - t).toFixed(0)} ms/${rows.length}`);
        docs.push(...rows);
      }
    }
    lines.push(`    ${c.skill}: ${parts.join(' · ')}`);
  }
  return lines;
}

/** The store's plan for each skill's slowest query, asked while the tier's data is still there. */
async function explainSlowest(db: Db, size: number, skills: Record<string, SkillStats>): Promise<string[]> {
  const lines = [`  explain of the slowest query per skill at ${label(size)} (the store's own plan):`];
  for (const [skill, s] of Object.entries(skills)) {
    const slow = s.perQuery[0];
    if (!slow) continue;
    const ex = (await db.command({
      explain: { find: COLLECTIONS.documents, filter: slow.query.filter, sort: slow.query.sort, limit: slow.query.limit },
    })) as Record<string, unknown>;
    const planner = ex.queryPlanner as Record<string, unknown> | undefined;
    const plan = JSON.stringify(planner?.Plan ?? planner?.winningPlan ?? planner);
    const flags = ['filterPushdown', 'sortPushdown', 'limitPushdown']
      .filter((k) => k in ex)
      .map((k) => `${k}=${String(ex[k])}`)
      .join(' ');
    lines.push(`    ${skill}: ${slow.label} -> ${plan}${flags ? ` ${flags}` : ''}`);
  }
  return lines;
}
