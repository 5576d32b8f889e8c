/**
 * `npm run bench`: starts its own servers (in-memory Temporal dev server, SecantusDB or mongod in a temporary
 * folder), runs each benchmark against a baseline measured in the same run, prints one table and writes
 * bench/results/latest.json. `--only=intake,effect,skills,retrieval,release-notes,import,work` runs a subset.
 * Opt-in benchmarks (OPT_IN) run only when named: `--only=model` needs a local model server it builds once,
 * `--only=changelog` local clones of public repositories (`--changelog-repos=DIR`), `--only=soak` is the
 * 10-minute burst with CPU hogs and a worker kill (bench/soak.ts).
 */
import { cpus, loadavg } from 'node:os';
import { benchChangelog } from './changelog';
import { benchEventToEffect } from './event-to-effect';
import { benchImportGit } from './import-git';
import { benchModel } from './model';
import { RESULTS_FILE } from './lib/paths';
import { renderTable, row, writeResults, type BenchOutcome } from './lib/report';
import { startBenchStack, type BenchStack, type RunContext } from './lib/stack';
import { benchReleaseNotesE2e } from './release-notes-e2e';
import { benchRetrievalScale } from './retrieval-scale';
import { benchSkillOverhead } from './skill-overhead';
import { benchSoak } from './soak';
import { benchTemporalWork } from './temporal-work';
import { benchWebhookIntake } from './webhook-intake';

/**
 * The whole run's time budget (BENCH_BUDGET_S overrides): 570 s for the default set, plus each selected opt-in
 * benchmark's own allowance; benchmarks that can size their work use what is left.
 */
const DEFAULT_BUDGET_S = 570;
/**
 * Past the deadline a benchmark gets this long to notice and report (each one checks the deadline between its
 * measurements, and the retrieval benchmark's queries carry the budget as their time limit); then it is left
 * behind, the rest are not started, and stopping the servers ends whatever it was still waiting for.
 */
const OVERRUN_GRACE_MS = 30_000;

const BENCHMARKS: Record<string, (stack: BenchStack, run: RunContext) => Promise<BenchOutcome>> = {
  intake: benchWebhookIntake,
  effect: benchEventToEffect,
  skills: benchSkillOverhead,
  retrieval: benchRetrievalScale,
  'release-notes': benchReleaseNotesE2e,
  import: benchImportGit,
  work: benchTemporalWork,
  model: benchModel,
  changelog: benchChangelog,
  soak: benchSoak,
};

/**
 * Not in the default run, each with its extra budget in seconds: `model` builds llama.cpp once and generates
 * on the CPU (minutes per document), and the default run must not need a model; `changelog` needs clones of
 * public repositories (bench/README.md), which the default run must not; `soak` runs 10 minutes of burst and CPU
 * hogs, then drains (bench/soak.ts).
 */
const OPT_IN: Record<string, number> = { model: 1800, changelog: 600, soak: 2400 };

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

function selected(argv: string[]): string[] {
  const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const names = only
    ? only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : Object.keys(BENCHMARKS).filter((n) => !(n in OPT_IN));
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (unknown.length > 0) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  return names;
}

async function main(): Promise<number> {
  const names = selected(process.argv.slice(2));
  const startedAt = new Date();
  const budgetS = process.env.BENCH_BUDGET_S
    ? Number(process.env.BENCH_BUDGET_S)
    : DEFAULT_BUDGET_S + names.reduce((a, n) => a + (OPT_IN[n] ?? 0), 0);
  const run: RunContext = { deadline: startedAt.getTime() + budgetS * 1000 };
  const load = loadavg();
  log(`starting servers (machine: ${cpus().length} CPUs, load average ${load.map((l) => l.toFixed(2)).join(' ')})`);
  const stack = await startBenchStack();
  const outcomes: BenchOutcome[] = [];
  let failed = false;
  let overrun: string | undefined;
  try {
    for (const name of names) {
      if (overrun || Date.now() >= run.deadline) {
        failed = true;
        outcomes.push(notRun(name, overrun ?? `the run's budget of ${budgetS} s was spent before it started`));
        continue;
      }
      const t = Date.now();
      const loadNow = loadavg()[0]!;
      log(`${name}: running… (1-min load average ${loadNow.toFixed(2)} on ${cpus().length} CPUs)`);
      try {
        const outcome = await withinBudget(BENCHMARKS[name]!(stack, run), run.deadline + OVERRUN_GRACE_MS);
        if (!outcome) {
          failed = true;
          overrun = `${name} was still running ${OVERRUN_GRACE_MS / 1000} s past the run's budget of ${budgetS} s`;
          log(`${overrun}: stopped waiting for it`);
          outcomes.push(notRun(name, `stopped: still running ${OVERRUN_GRACE_MS / 1000} s past the budget`));
          continue;
        }
        outcome.details.loadAverageAtStart = loadNow;
        outcomes.push(outcome);
      } catch (err) {
        failed = true;
        log(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        outcomes.push({
          name,
          rows: [row(name, 'FAILED (see log)', '', Number.NaN, { met: false })],
          notes: [],
          details: { error: String(err) },
        });
      }
      log(`${name}: done in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
  } finally {
    await stack.stop();
  }

  const rows = outcomes.flatMap((o) => o.rows);
  const finishedAt = new Date();
  const out = process.stdout;
  out.write(
    `\nBenchmarks (${stack.mongoKind}, Temporal dev server in memory; ${cpus().length} CPUs; load average at start ${load.map((l) => l.toFixed(2)).join(' ')}; ${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(0)} s)\n`,
  );
  out.write('ratio = product / baseline measured in this run (throughput: higher is better; latency: lower is better)\n\n');
  out.write(`${renderTable(rows)}\n`);
  for (const o of outcomes) {
    const loadNote =
      typeof o.details.loadAverageAtStart === 'number'
        ? ` [1-min load average at its start: ${o.details.loadAverageAtStart.toFixed(2)}]`
        : '';
    if (o.notes.length > 0) out.write(`\n${o.notes[0]}${loadNote}\n${o.notes.slice(1).join('\n')}\n`);
  }
  const file = RESULTS_FILE();
  writeResults(file, {
    startedAt,
    finishedAt,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      loadAverageAtStart: load,
      node: process.version,
      platform: process.platform,
      mongo: stack.mongoKind,
    },
    rows,
    benchmarks: outcomes,
  });
  out.write(`\nwritten: ${file}\n`);
  return failed ? 1 : 0;
}

/** The benchmark's outcome, or undefined when it has not finished by `deadline` (it is then left behind). */
async function withinBudget(work: Promise<BenchOutcome>, deadline: number): Promise<BenchOutcome | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function notRun(name: string, why: string): BenchOutcome {
  return { name, rows: [row(name, `not measured: ${why}`, '', Number.NaN, { met: false })], notes: [], details: { error: why } };
}

// Ctrl-C: exit through process.exit so the servers' exit hooks (scripts/stack/servers.ts) kill them.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
