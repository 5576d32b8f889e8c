/**
 * The model benchmark (issue #21 item 4; opt-in: `npm run bench -- --only=model`): every skill on the demo
 * project with a real local chat model rewriting the draft (llama.cpp's server and a small instruct model from
 * PyPI, see scripts/model-server.sh), against the same invocations with no model in the same run. Per skill:
 * whether the model's text was used or the draft kept and why (the result's notes), latency end to end and
 * per section, and how many of the draft's facts the model's text kept.
 *
 * BENCH_MODELS (default qwen2.5-coder-1.5b) names the models, comma-separated, each served in turn;
 * BENCH_LLM_TIMEOUT_MS sets the service's LLM_TIMEOUT_MS, which is per section (default 120 s, generous for a
 * CPU; the rewrite activity gets that much per section). Invocations still running when the run's budget is
 * spent are cancelled. Per skill it also reports the share of sent sections accepted, the time to the draft
 * (version 1) and to the final version, and a blind preference check of each accepted section against the
 * draft's (lib/preference.ts).
 */
import { join } from 'node:path';
import { seedDemo } from '../src/cli/seed-demo';
import { createRepositories } from '../src/store/repositories';
import { DEMO_CASES, loadDemo, type SkillCase } from './lib/demo';
import { keepAliveAgent } from './lib/http-client';
import { recordModelCalls, type ModelCall } from './lib/model-calls';
import { invokeAndWait, type Invoked } from './lib/invoke-skill';
import { modelOutcome, type ModelOutcome, type ResultView } from './lib/model-outcome';
import { ensureModelInstalled, startModelServer, type ModelServer } from './lib/model-server';
import { repoRoot } from './lib/paths';
import { row, type BenchOutcome, type Row } from './lib/report';
import { benchToken, startService, warningNote, type Service } from './lib/service';
import type { BenchStack, RunContext } from './lib/stack';
import { median } from './lib/stats';
import { blindPreference, seededOrder, type PreferenceVerdict, type Tone } from './lib/preference';

const NAME = 'model';
const BASELINE_REPEATS = 3;
/** The deterministic path finishes in ~100 ms: poll finely there; a model takes seconds to minutes. */
const POLL_MS = { baseline: 10, model: 200 };
/** Kept free at the end of the run's budget for stopping the servers and writing the report. */
const BUDGET_RESERVE_MS = 20_000;

const release = DEMO_CASES.find((c) => c.skill === 'release_notes_composer')!;
/** The demo cases, plus release notes in a second tone: tone is the one input that changes the prose. */
const ALL_CASES: SkillCase[] = [
  ...DEMO_CASES,
  { skill: 'release_notes_composer', inputs: { ...release.inputs, tone: 'casual' } } as SkillCase,
];
/** BENCH_MODEL_CASES (skill names, comma-separated) keeps a run short: a CPU model takes minutes per skill. */
const only = (process.env.BENCH_MODEL_CASES ?? '')
  .split(',')
  .map((x) => x.trim())
  .filter(Boolean);
const CASES = only.length ? ALL_CASES.filter((c) => only.includes(c.skill)) : ALL_CASES;

const label = (c: SkillCase) => ('tone' in c.inputs && c.inputs.tone ? `${c.skill} (${String(c.inputs.tone)})` : c.skill);
const log = (msg: string) => process.stderr.write(`[bench] model: ${msg}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

interface CaseRun {
  case: string;
  baselineMs: number;
  baselineNotes: string[];
  status: Invoked['status'] | 'skipped';
  ms: number | null;
  outcome: ModelOutcome | null;
  /** POST → the deterministic draft (version 1) stored. */
  firstMs: number | null;
  /** Per accepted section: the blind rubric's verdict against the draft's section. */
  preferences: (PreferenceVerdict & { heading: string })[];
  error?: unknown;
  markdown?: string;
  /** The chat calls this invocation made, as the pass-through saw them. */
  calls: ModelCall[];
  /** The model server was restarted after this invocation: a call it abandoned was still being generated. */
  restartedAfter: boolean;
}

async function seeded(stack: BenchStack, name: string, env: Record<string, string> = {}): Promise<Service> {
  const svc = await startService(stack, name, { env });
  // The worker in the API process, as API_RUNS_WORKER=true runs it; the draft with a model is a remote activity.
  await svc.startWorkerInApi();
  // What `cli seed-demo` loads, through the same function.
  await seedDemo(createRepositories(svc.store.db), join(repoRoot(), 'demo'), new Date(), () => undefined);
  return svc;
}

/** One short JSON answer straight from the server: its generation speed, to read the skill latencies by. */
async function probeSpeed(
  baseUrl: string,
  model: string,
): Promise<{ ms: number; completionTokens: number; tokensPerSecond: number } | null> {
  const t = Date.now();
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model,
      temperature: 0,
      max_tokens: 64,
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'List three colours as JSON: {"colours": [string]}' }],
    }),
    signal: AbortSignal.timeout(120_000),
  }).catch(() => null);
  if (!res?.ok) return null;
  const body = (await res.json()) as { usage?: { completion_tokens?: number } };
  const ms = Date.now() - t;
  const completionTokens = body.usage?.completion_tokens ?? 0;
  return { ms, completionTokens, tokensPerSecond: completionTokens / (ms / 1000) };
}

export async function benchModel(stack: BenchStack, run: RunContext): Promise<BenchOutcome> {
  const models = (process.env.BENCH_MODELS ?? 'qwen2.5-coder-1.5b')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const llmTimeoutMs = Number(process.env.BENCH_LLM_TIMEOUT_MS ?? 120_000);
  const demo = loadDemo();
  const token = benchToken({ projects: [demo.project.id] });
  const agent = keepAliveAgent(2);
  const rows: Row[] = [];
  const notes: string[] = [];
  const details: Record<string, unknown> = { models, llmTimeoutMs, cases: CASES.map(label) };

  // Installed (or found broken) before anything is measured: a failed build ends the benchmark at once.
  for (const model of models) await ensureModelInstalled(model);

  // The baseline first: no model, the same cases, through the same API and worker.
  const baseline = new Map<string, { ms: number; notes: string[]; sections: Map<string, string> }>();
  const plain = await seeded(stack, 'model-baseline');
  try {
    const target = { baseUrl: plain.baseUrl, project: demo.project.id, token };
    for (const c of CASES) {
      const runs: Invoked[] = [];
      for (let i = 0; i < BASELINE_REPEATS; i++)
        runs.push(await invokeAndWait(agent, target, c, { deadline: Date.now() + 60_000, pollMs: POLL_MS.baseline }));
      const bad = runs.find((r) => r.status !== 'completed');
      if (bad) throw new Error(`baseline ${label(c)} ended ${bad.status}: ${JSON.stringify(bad.record.error ?? null).slice(0, 300)}`);
      const result = runs[0]!.record.result as ResultView;
      baseline.set(label(c), {
        ms: median(runs.map((r) => r.ms)),
        notes: result.notes ?? [],
        sections: new Map(result.sections.map((x) => [x.heading, x.markdownWithCitations ?? ''])),
      });
    }
    notes.push(...warningNote(plain.warnings));
  } finally {
    await plain.close();
  }

  for (const model of models) {
    const { runs, speed, warnings } = await runModel(stack, run, model, { agent, project: demo.project.id, token, llmTimeoutMs, baseline });
    details[model] = runs;
    details[`${model}:probe`] = speed;
    rows.push(...modelRows(model, runs));
    notes.push(...modelNotes(model, runs, speed, llmTimeoutMs), ...warnings);
  }
  agent.destroy();
  notes.unshift(
    `Model: demo project ${demo.project.id}, ${CASES.length} invocations per model (${CASES.map(label).join(', ')}), each once; the baseline is the same invocations with no model in this run (median of ${BASELINE_REPEATS}). Latency = POST → completed record, polled every ${POLL_MS.model} ms (baseline ${POLL_MS.baseline} ms).`,
  );
  return { name: NAME, rows, notes, details };
}

async function runModel(
  stack: BenchStack,
  run: RunContext,
  model: string,
  ctx: {
    agent: ReturnType<typeof keepAliveAgent>;
    project: string;
    token: string;
    llmTimeoutMs: number;
    baseline: Map<string, { ms: number; notes: string[]; sections: Map<string, string> }>;
  },
): Promise<{ runs: CaseRun[]; speed: Awaited<ReturnType<typeof probeSpeed>>; warnings: string[] }> {
  let server: ModelServer = await startModelServer({ model, logDir: stack.dataDir });
  const recorder = await recordModelCalls(server.baseUrl);
  let svc: Service | null = null;
  try {
    const speed = await probeSpeed(server.baseUrl, model);
    svc = await seeded(stack, `model-${model}`, {
      LLM_BASE_URL: recorder.baseUrl,
      LLM_MODEL: model,
      LLM_TIMEOUT_MS: String(ctx.llmTimeoutMs),
      // llama.cpp's Python server constrains JSON mode by the schema beside it; it answers json_schema with HTTP 500.
      LLM_RESPONSE_FORMAT: 'json_object',
    });
    const target = { baseUrl: svc.baseUrl, project: ctx.project, token: ctx.token };
    const runs: CaseRun[] = [];
    // The blind order of each pair the rubric scores (model's text shown first or second), seeded per model.
    const nextOrder = seededOrder(model.length * 7919 + 35);
    for (const c of CASES) {
      const base = ctx.baseline.get(label(c))!;
      const deadline = run.deadline - BUDGET_RESERVE_MS;
      if (Date.now() > deadline) {
        runs.push({
          case: label(c),
          baselineMs: base.ms,
          baselineNotes: base.notes,
          status: 'skipped',
          ms: null,
          outcome: null,
          firstMs: null,
          preferences: [],
          calls: [],
          restartedAfter: false,
        });
        continue;
      }
      log(`${model}: ${label(c)}…`);
      const firstCall = recorder.calls.length;
      const got = await invokeAndWait(ctx.agent, target, c, { deadline, pollMs: POLL_MS.model });
      const result = got.record.result as (ResultView & { markdown?: string }) | undefined;
      const outcome = got.status === 'completed' && result ? modelOutcome(result, base.notes) : null;
      const tone: Tone = 'tone' in c.inputs && c.inputs.tone ? (c.inputs.tone as Tone) : 'neutral';
      const preferences = (result?.sections ?? [])
        .filter((x) => x.generator?.startsWith('llm:'))
        .map((x) => ({
          heading: x.heading,
          ...blindPreference(
            { draft: base.sections.get(x.heading) ?? '', model: x.markdownWithCitations ?? '', tone, modelFactsKept: 1 },
            nextOrder(),
          ),
        }));
      const calls = recorder.calls.slice(firstCall);
      // llama-cpp-python's server finishes a call whose client has gone (it notices a disconnect only when
      // streaming), one call at a time: the next skill would queue behind it. A restart takes seconds.
      const restartedAfter = calls.some((k) => k.upstreamDoneAt === null);
      if (restartedAfter) {
        log(`${model}: a call the service gave up on is still being generated; restarting the model server`);
        await server.stop();
        server = await startModelServer({ model, logDir: stack.dataDir });
        recorder.retarget(server.baseUrl);
      }
      runs.push({
        case: label(c),
        baselineMs: base.ms,
        baselineNotes: base.notes,
        status: got.status,
        ms: got.ms,
        outcome,
        firstMs: got.firstMs,
        preferences,
        error: got.record.error,
        markdown: result?.markdown,
        calls,
        restartedAfter,
      });
      log(`${model}: ${label(c)}: ${got.status}${outcome ? `, ${outcome.verdict}` : ''} in ${secs(got.ms)}`);
    }
    return { runs, speed, warnings: warningNote(svc.warnings) };
  } finally {
    await svc?.close();
    await recorder.close();
    await server.stop();
  }
}

function modelRows(model: string, runs: CaseRun[]): Row[] {
  return runs.flatMap((r) => {
    if (r.ms === null) return [row(NAME, `[${model}] ${r.case}: skipped (run budget spent)`, '', Number.NaN)];
    const out = [
      row(NAME, `[${model}] ${r.case}: invoke -> ${r.status}${r.outcome ? ` (${r.outcome.verdict})` : ''}`, 'ms', r.ms, {
        baseline: r.baselineMs,
      }),
    ];
    const sent = (r.outcome?.sections ?? []).filter((x) => !(x.outcome === 'kept' && (x.reason ?? '').includes('nothing to rewrite')));
    const accepted = sent.filter((x) => x.outcome === 'accepted').length;
    if (sent.length)
      out.push(row(NAME, `[${model}] ${r.case}: sections accepted (${accepted}/${sent.length})`, '%', (accepted / sent.length) * 100));
    if (r.firstMs !== null) out.push(row(NAME, `[${model}] ${r.case}: invoke -> deterministic draft stored`, 'ms', r.firstMs));
    if (r.preferences.length)
      out.push(
        row(
          NAME,
          `[${model}] ${r.case}: accepted sections preferred to the draft (blind rubric; ${r.preferences.filter((p) => p.preferred === 'model').length}/${r.preferences.length}, draft ${r.preferences.filter((p) => p.preferred === 'draft').length}, none ${r.preferences.filter((p) => p.preferred === 'none').length})`,
          '%',
          (r.preferences.filter((p) => p.preferred === 'model').length / r.preferences.length) * 100,
        ),
      );
    if (r.outcome?.factScore)
      out.push(
        row(
          NAME,
          `[${model}] ${r.case}: facts kept (${r.outcome.factScore.kept}/${r.outcome.factScore.total})`,
          '%',
          r.outcome.factScore.ratio * 100,
        ),
      );
    return out;
  });
}

function modelNotes(model: string, runs: CaseRun[], speed: Awaited<ReturnType<typeof probeSpeed>>, llmTimeoutMs: number): string[] {
  const lines = [
    '',
    `[${model}] LLM_TIMEOUT_MS ${llmTimeoutMs} (per section); LLM_RESPONSE_FORMAT json_object (JSON mode with the schema beside it); ${speed ? `probe: ${speed.completionTokens} tokens in ${secs(speed.ms)} (${speed.tokensPerSecond.toFixed(1)} tokens/s with its prompt)` : 'probe: no answer'}`,
    '  | skill | outcome | latency (baseline) | fact score | sections (outcome, time, facts) | notes |',
    '  |---|---|---|---|---|---|',
  ];
  for (const r of runs) {
    if (r.ms === null) {
      lines.push(`  | ${r.case} | skipped: run budget spent | | | | |`);
      continue;
    }
    const o = r.outcome;
    const verdict = o ? `${o.verdict} (${o.generator})` : `${r.status}${r.error ? `: ${JSON.stringify(r.error).slice(0, 200)}` : ''}`;
    const fact = o?.factScore ? `${(o.factScore.ratio * 100).toFixed(0)}% (${o.factScore.kept}/${o.factScore.total})` : 'n/a';
    const sections = o?.sections
      ? o.sections
          .map(
            (s) =>
              `${s.heading}: ${s.outcome}${s.reason ? ` (${s.reason})` : ''}, ${secs(s.durationMs)}${s.facts ? `, ${s.facts.kept}/${s.facts.total}` : ''}`,
          )
          .join('; ')
      : 'not reported (a whole-document result)';
    lines.push(
      `  | ${r.case} | ${verdict} | ${secs(r.ms)} (${secs(r.baselineMs)}, ${(r.ms / r.baselineMs).toFixed(0)}×) | ${fact} | ${sections} | ${o?.notes.join(' ') || ''} |`,
    );
  }
  lines.push('  blind preference (lib/preference.ts: readability 0.4, tone 0.4, facts 0.2; model vs draft totals):');
  for (const r of runs.filter((x) => x.preferences.length))
    lines.push(
      `    ${r.case}: ${r.preferences.map((p) => `${p.heading}: ${p.preferred} (${p.model.total.toFixed(2)} vs ${p.draft.total.toFixed(2)}, shown ${p.shownFirst} first)`).join('; ')}`,
    );
  lines.push(`  model calls (from the pass-through between the service and the model server):`);
  for (const r of runs.filter((x) => x.ms !== null)) {
    lines.push(
      `    ${r.case}: ${r.calls.length} call${r.calls.length === 1 ? '' : 's'}${r.restartedAfter ? '; the model server was restarted after it (a call it abandoned was still being generated)' : ''}`,
    );
    r.calls.forEach((k, i) => lines.push(`      ${i + 1}. ${describeCall(k)}`));
  }
  return lines;
}

function describeCall(k: ModelCall): string {
  const tokens = k.promptTokens !== null ? `prompt ${k.promptTokens} tokens, ${k.completionTokens} generated` : 'no token counts';
  const head = k.contentHead ? `; answer begins ${JSON.stringify(k.contentHead.slice(0, 160))}` : '';
  if (k.clientAborted && k.clientDoneAt !== null) {
    const after =
      k.upstreamDoneAt === null
        ? 'still running'
        : k.status === null
          ? `cut ${secs(k.upstreamDoneAt - k.clientDoneAt)} later by the restart`
          : `finished ${secs(k.upstreamDoneAt - k.clientDoneAt)} later (${tokens}, finish ${k.finishReason})`;
    return `the service gave up after ${secs(k.clientDoneAt - k.startedAt)}; the model's generation: ${after}${head}`;
  }
  const took = k.upstreamDoneAt !== null ? secs(k.upstreamDoneAt - k.startedAt) : 'n/a';
  return `HTTP ${k.status ?? '-'} in ${took}: ${tokens} (finish ${k.finishReason ?? 'n/a'})${head}`;
}
