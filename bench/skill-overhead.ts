/**
 * Benchmark 3, skill orchestration overhead: POST /v1/agents/acme-web/skills/{skill} → completed, on the demo
 * project with a real worker, against the same work done in-process without Temporal in the same run:
 * retrieval (DocumentRepository.find over the plan's queries, with the worker's whole-kind cache),
 * selectAndDraft, and in the model scenario the same chat-completions call and answer check.
 *
 * Three scenarios, each with its own service (database, task queue):
 *   - in-api:   the worker runs in the API process (API_RUNS_WORKER=true): eager workflow start
 *   - separate: the worker has its own connection, as a worker process does: no eager start (it still runs
 *               in this process, so a Prefer: wait request hears the terminal write here, as in-api does)
 *   - model:    as in-api, with a model configured (the tests' OpenAI-compatible server, answering at once)
 * Each iteration runs the baseline, the product polled with GET, and the product with `Prefer: wait=30`, in
 * rotating order so drift hits all three alike. Sequential invocations rotate through the three skills.
 */
import type { ActivityInboundCallsInterceptor, WorkerOptions } from '@temporalio/worker';
import { Context } from '@temporalio/activity';
import { createChatModel } from '../src/llm/chat-client';
import {
  acceptSectionAnswer,
  composeModelResult,
  rewriteAnchors,
  rewriteTargets,
  sectionMessages,
  selectAndDraft,
} from '../src/skills/run';
import { rewritePart } from '../src/skills/model-rewrite';
import { DocumentRepository, WholeKindCache } from '../src/store/documents';
import { ProjectRepository } from '../src/store/projects';
import { rewrite, startFakeLlm, type FakeLlm } from '../test/support/fake-llm';
import { activitySpans, loadHistory, workflowTaskSpans } from './lib/history';
import { keepAliveAgent, send } from './lib/http-client';
import { DEMO_CASES, loadDemo, type SkillCase } from './lib/demo';
import { ms, row, type BenchOutcome, type Row } from './lib/report';
import { retrieveTimed } from './lib/retrieve';
import { benchToken, startService, warningNote, type Service } from './lib/service';
import type { BenchStack } from './lib/stack';
import { nowMs, sleep, summarize, type Summary } from './lib/stats';

const NAME = 'skill overhead';
const ITERATIONS = 50;
const WARMUP = 3;
const POLL_MS = 10;
const DEADLINE_MS = 30_000;
const TARGETS = { p50: 150, p99: 250, modelP50: 200 };

type Variant = 'baseline' | 'poll' | 'wait';

interface Scenario {
  key: 'in-api' | 'separate' | 'model';
  label: string;
  model: boolean;
  workerInApi: boolean;
}

const SCENARIOS: Scenario[] = [
  { key: 'in-api', label: 'deterministic, worker in the API process (eager start)', model: false, workerInApi: true },
  {
    key: 'separate',
    label: 'deterministic, worker on its own connection, same process (no eager start)',
    model: false,
    workerInApi: false,
  },
  { key: 'model', label: 'with a model (local server, ~0 ms), worker in the API process', model: true, workerInApi: true },
];

interface ProductRun {
  totalMs: number;
  postMs: number;
  workflowId: string;
  sentAt: number;
  seenAt: number;
}

interface ActivityTiming {
  type: string;
  local: boolean;
  start: number;
  ms: number;
}

/** Times every activity execution (local or remote) on the worker, by workflow id. */
function activityTimer() {
  const byWorkflow = new Map<string, ActivityTiming[]>();
  const factory = (ctx: Context): ActivityInboundCallsInterceptor => ({
    async execute(input, next) {
      const t = nowMs();
      try {
        return await next(input);
      } finally {
        const id = ctx.info.workflowExecution?.workflowId ?? '';
        const list = byWorkflow.get(id) ?? [];
        list.push({ type: ctx.info.activityType, local: ctx.info.isLocal, start: t, ms: nowMs() - t });
        byWorkflow.set(id, list);
      }
    },
  });
  const interceptors: WorkerOptions['interceptors'] = { activity: [(ctx) => ({ inbound: factory(ctx) })] };
  return { interceptors, of: (workflowId: string) => byWorkflow.get(workflowId) ?? [] };
}

export async function benchSkillOverhead(stack: BenchStack): Promise<BenchOutcome> {
  const llm = await startFakeLlm();
  llm.handle((req) => rewrite(req));
  const rows: Row[] = [];
  const notes: string[] = [];
  const details: Record<string, unknown> = { iterations: ITERATIONS };
  try {
    for (const scenario of SCENARIOS) {
      const outcome = await runScenario(stack, scenario, llm);
      rows.push(...outcome.rows);
      notes.push(...outcome.notes);
      details[scenario.key] = outcome.details;
    }
  } finally {
    await llm.close();
  }
  const demo = loadDemo();
  notes.unshift(
    `Skill overhead: demo project ${demo.project.id} (${demo.documents.length} documents), skills rotated ${DEMO_CASES.map((c) => c.skill).join(' / ')}; ${WARMUP} warm-up + ${ITERATIONS} iterations per scenario; GET polled every ${POLL_MS} ms; overhead = product percentile − baseline percentile, same scenario, same run. The Temporal dev server runs with system.enableActivityEagerExecution=true.`,
  );
  return { name: NAME, rows, notes, details };
}

async function runScenario(
  stack: BenchStack,
  scenario: Scenario,
  llm: FakeLlm,
): Promise<{ rows: Row[]; notes: string[]; details: unknown }> {
  const env: Record<string, string> = scenario.model ? { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '10000' } : {};
  const svc = await startService(stack, `skills-${scenario.key}`, { env });
  const timer = activityTimer();
  try {
    if (scenario.workerInApi) await svc.startWorkerInApi({ interceptors: timer.interceptors });
    else await svc.startWorker({ interceptors: timer.interceptors });
    const demo = loadDemo();
    const projects = new ProjectRepository(svc.store.db);
    await projects.upsertOrg(demo.org.id, { name: demo.org.name, ownerEmail: demo.org.ownerEmail }, new Date());
    await projects.upsertProject(demo.project.id, { name: demo.project.name, org: demo.org.id }, new Date());
    // The worker's own repository shape: whole-kind reads cached per project revision (src/activities/skills.ts).
    const repo = new DocumentRepository(svc.store.db, new WholeKindCache());
    await repo.upsertMany(demo.project.id, demo.documents, new Date());
    const agent = keepAliveAgent(4);
    const auth = { Authorization: `Bearer ${benchToken({ projects: [demo.project.id] })}` };
    const project = demo.project.id;
    const model = scenario.model ? createChatModel({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', timeoutMs: 10_000 }) : null;
    const generator = scenario.model ? 'llm:fake-model' : 'deterministic';

    const baseline = async (c: SkillCase) => {
      const t = nowMs();
      const retrieved = await retrieveTimed(repo, project, c.skill, c.inputs as never);
      let result = selectAndDraft(c.skill, c.inputs as never, retrieved.docs, new Date());
      if (model) {
        // What the drafting activity does with a model, in process: one call per section, each answer checked.
        const accepted = new Map<number, string>();
        for (const i of rewriteTargets(c.skill, result)) {
          const answer = await model.complete(sectionMessages(c.skill, c.inputs as never, result, i), {
            signal: new AbortController().signal,
          });
          const verdict = acceptSectionAnswer(answer, result.sections[i]!, retrieved.docs, rewriteAnchors(c.skill, c.inputs as never), {
            rest: rewritePart(result.sections[i]!.markdownWithCitations).rest,
          });
          if (verdict.ok) accepted.set(i, verdict.markdown);
        }
        result = composeModelResult(c.skill, c.inputs as never, result, retrieved.docs, model.model, { accepted, sections: [], notes: [] });
      }
      if (result.generator !== generator) throw new Error(`baseline: unexpected generator ${result.generator}`);
      return nowMs() - t;
    };
    const product = async (c: SkillCase, wait: boolean): Promise<ProductRun> => {
      const t = nowMs();
      const res = await send(agent, `${svc.baseUrl}/v1/agents/${project}/skills/${c.skill}`, 'POST', JSON.stringify(c.inputs), {
        ...auth,
        ...(wait ? { Prefer: 'wait=30' } : {}),
      });
      const postMs = nowMs() - t;
      const body = JSON.parse(res.text) as {
        id: string;
        status: string;
        workflowId?: string;
        links: { self: string };
        result?: { generator: string };
        revision?: { final: boolean } | null;
      };
      if (wait) {
        if (res.status !== 200 || body.status !== 'completed')
          throw new Error(`Prefer: wait answered ${res.status} ${res.text.slice(0, 300)}`);
        // With a model the answer is the deterministic draft; the model's version is polled for below.
        if (body.revision?.final !== false) {
          if (body.result?.generator !== generator) throw new Error(`unexpected generator ${body.result?.generator}`);
          return { totalMs: postMs, postMs, workflowId: body.workflowId!, sentAt: t, seenAt: t + postMs };
        }
      } else if (res.status !== 202) throw new Error(`invoke answered ${res.status} ${res.text.slice(0, 300)}`);
      for (const deadline = Date.now() + DEADLINE_MS; Date.now() < deadline; await sleep(POLL_MS)) {
        const got = await send(agent, `${svc.baseUrl}${body.links.self}`, 'GET', undefined, auth);
        const record = JSON.parse(got.text) as {
          status: string;
          workflowId: string;
          result?: { generator: string };
          revision?: { final: boolean } | null;
        };
        if (record.status === 'completed' && record.revision?.final !== false) {
          const seenAt = nowMs();
          if (record.result?.generator !== generator) throw new Error(`unexpected generator ${record.result?.generator}`);
          return { totalMs: seenAt - t, postMs, workflowId: record.workflowId, sentAt: t, seenAt };
        }
        if (record.status === 'failed' || record.status === 'cancelled')
          throw new Error(`invocation ${record.status}: ${got.text.slice(0, 300)}`);
      }
      throw new Error(`invocation ${body.id} did not complete within ${DEADLINE_MS} ms`);
    };

    const samples: Record<Variant, number[]> = { baseline: [], poll: [], wait: [] };
    const runs: Record<'poll' | 'wait', ProductRun[]> = { poll: [], wait: [] };
    const orders: Variant[][] = [
      ['baseline', 'poll', 'wait'],
      ['poll', 'wait', 'baseline'],
      ['wait', 'baseline', 'poll'],
    ];
    process.stderr.write(`[bench] skills (${scenario.key}): ${WARMUP} warm-up + ${ITERATIONS} iterations × (baseline, poll, wait)\n`);
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const c = DEMO_CASES[i % DEMO_CASES.length]!;
      for (const v of orders[Math.floor(i / DEMO_CASES.length) % orders.length]!) {
        if (v === 'baseline') {
          const took = await baseline(c);
          if (i >= WARMUP) samples.baseline.push(took);
        } else {
          const run = await product(c, v === 'wait');
          if (i >= WARMUP) {
            samples[v].push(run.totalMs);
            runs[v].push(run);
          }
        }
      }
    }
    agent.destroy();

    const b = summarize(samples.baseline);
    const p = summarize(samples.poll);
    const w = summarize(samples.wait);
    const p50Target = scenario.model ? TARGETS.modelP50 : TARGETS.p50;
    const tag = scenario.key;
    const overheadRows = (label: string, s: Summary) => [
      row(NAME, `[${tag}] p50 overhead, ${label}`, 'ms', s.p50 - b.p50, { target: `< ${p50Target} ms`, met: s.p50 - b.p50 < p50Target }),
      row(
        NAME,
        `[${tag}] p99 overhead, ${label}`,
        'ms',
        s.p99 - b.p99,
        scenario.model ? {} : { target: `< ${TARGETS.p99} ms`, met: s.p99 - b.p99 < TARGETS.p99 },
      ),
    ];
    const rows = [
      row(NAME, `[${tag}] p50 invoke -> completed, poll GET`, 'ms', p.p50, { baseline: b.p50 }),
      row(NAME, `[${tag}] p99 invoke -> completed, poll GET`, 'ms', p.p99, { baseline: b.p99 }),
      row(NAME, `[${tag}] p50 invoke with Prefer: wait=30`, 'ms', w.p50, { baseline: b.p50 }),
      row(NAME, `[${tag}] p99 invoke with Prefer: wait=30`, 'ms', w.p99, { baseline: b.p99 }),
      ...overheadRows('poll GET', p),
      ...overheadRows('Prefer: wait', w),
    ];
    const breakdown = await whereTheTimeGoes(svc, runs.wait, timer.of);
    const notes = [
      '',
      `[${tag}] ${scenario.label}: baseline p50 ${ms(b.p50)}, p99 ${ms(b.p99)}; poll GET p50 ${ms(p.p50)}; Prefer: wait p50 ${ms(w.p50)}.`,
      `  where the time of a Prefer: wait invocation goes (p50 of each part over ${runs.wait.length} invocations; parts do not add up to the total's p50):`,
      ...breakdown.lines,
      ...warningNote(svc.warnings),
    ];
    return {
      rows,
      notes,
      details: {
        baseline: b,
        poll: p,
        wait: w,
        overheadP50Ms: { poll: p.p50 - b.p50, wait: w.p50 - b.p50 },
        overheadP99Ms: { poll: p.p99 - b.p99, wait: w.p99 - b.p99 },
        breakdown: breakdown.details,
      },
    };
  } finally {
    await svc.close();
  }
}

async function whereTheTimeGoes(svc: Service, runs: ProductRun[], activitiesOf: (workflowId: string) => ActivityTiming[]) {
  const parts: Record<string, number[]> = {};
  const add = (k: string, v: number) => void (parts[k] ??= []).push(v);
  for (const run of runs) {
    const h = await loadHistory(svc.temporal.client, run.workflowId);
    const started = h.find((e) => e.type === 'WORKFLOW_EXECUTION_STARTED')!.at;
    const closed = h.find((e) => e.type === 'WORKFLOW_EXECUTION_COMPLETED')?.at ?? Number.NaN;
    const spans = activitySpans(h);
    const tasks = workflowTaskSpans(h);
    const timed = activitiesOf(run.workflowId);
    add('client sends POST -> workflow started (API checks, record, start call)', started - run.sentAt);
    add(
      `workflow tasks: queue wait (${tasks.length} task${tasks.length === 1 ? '' : 's'})`,
      tasks.reduce((a, t) => a + (t.startedAt - t.scheduledAt), 0),
    );
    add(
      'workflow tasks: processing (local activities included)',
      tasks.reduce((a, t) => a + (t.completedAt - t.startedAt), 0),
    );
    for (const type of [...new Set(timed.filter((t) => t.local).map((t) => t.type))]) {
      add(
        `  local activity ${type}: run`,
        timed.filter((t) => t.local && t.type === type).reduce((a, t) => a + t.ms, 0),
      );
    }
    // The hops between steps: from the task's start (or the previous step's end) to the next step's start.
    const firstTask = tasks[0];
    let prevEnd = firstTask ? firstTask.startedAt : Number.NaN;
    for (const t of [...timed].sort((x, y) => x.start - y.start)) {
      add(`  hop -> ${t.type}${t.local ? '' : ' (remote)'}: start`, t.start - prevEnd);
      prevEnd = t.start + t.ms;
    }
    add('  hop last step -> workflow task completed', (tasks[tasks.length - 1]?.completedAt ?? Number.NaN) - prevEnd);
    if (spans.length > 0) {
      add(
        `remote activities: queue wait (${spans.length})`,
        spans.reduce((a, s) => a + (s.startedAt - s.scheduledAt), 0),
      );
      for (const name of [...new Set(spans.map((s) => s.name))]) {
        add(
          `remote activity ${name}: scheduled -> completed`,
          spans.filter((s) => s.name === name).reduce((a, s) => a + (s.completedAt - s.scheduledAt), 0),
        );
      }
    }
    add('workflow started -> closed', closed - started);
    // Negative when the answer left on the record's terminal write in this process, before the run closed.
    add('workflow closed -> answer received by the client (< 0: answered first)', run.seenAt - closed);
    add('total (client)', run.totalMs);
  }
  const summaries = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, summarize(v)]));
  return {
    lines: Object.entries(summaries).map(([k, s]) => `    ${k.padEnd(72)} p50 ${ms(s.p50).padStart(9)}   p99 ${ms(s.p99).padStart(9)}`),
    details: summaries,
  };
}
