/**
 * Benchmark 3, skill orchestration overhead: POST /v1/agents/acme-web/skills/{skill} → completed, on the demo
 * project with the deterministic drafter and a real in-process worker, against the same retrieval
 * (DocumentRepository.find over the plan's queries) and selectAndDraft called in-process without Temporal.
 * Sequential invocations rotating through the three skills; each iteration runs the baseline, the product
 * polled with GET, and the product with `Prefer: wait=30`, in rotating order so drift hits all three alike.
 */
import { selectAndDraft } from '../src/skills/run';
import { DocumentRepository } from '../src/store/documents';
import { ProjectRepository } from '../src/store/projects';
import { activitySpans, loadHistory, workflowTaskSpans } from './lib/history';
import { keepAliveAgent, send } from './lib/http-client';
import { DEMO_CASES, loadDemo, type SkillCase } from './lib/demo';
import { ms, row, type BenchOutcome } from './lib/report';
import { retrieveTimed } from './lib/retrieve';
import { benchToken, startService, warningNote, type Service } from './lib/service';
import type { BenchStack } from './lib/stack';
import { nowMs, sleep, summarize, type Summary } from './lib/stats';
import { rewrite, startFakeLlm } from '../test/support/fake-llm';

const NAME = 'skill overhead';
const ITERATIONS = 50;
const WARMUP = 3;
const POLL_MS = 10;
const DEADLINE_MS = 30_000;
const TARGET_OVERHEAD_MS = 150;
const TARGET_MODEL_OVERHEAD_MS = 200;
const MODEL_ITERATIONS = 21;

type Variant = 'baseline' | 'poll' | 'wait';

interface ProductRun {
  totalMs: number;
  postMs: number;
  workflowId: string;
  startedAt: number;
  seenAt: number;
}

export async function benchSkillOverhead(stack: BenchStack): Promise<BenchOutcome> {
  const svc = await startService(stack, 'skills');
  try {
    await svc.startWorker();
    const demo = loadDemo();
    const projects = new ProjectRepository(svc.store.db);
    await projects.upsertOrg(demo.org.id, { name: demo.org.name, ownerEmail: demo.org.ownerEmail }, new Date());
    await projects.upsertProject(demo.project.id, { name: demo.project.name, org: demo.org.id }, new Date());
    const repo = new DocumentRepository(svc.store.db);
    await repo.upsertMany(demo.project.id, demo.documents, new Date());
    const agent = keepAliveAgent(4);
    const auth = { Authorization: `Bearer ${benchToken({ projects: [demo.project.id] })}` };
    const project = demo.project.id;

    const baseline = async (c: SkillCase) => {
      const t = nowMs();
      const retrieved = await retrieveTimed(repo, project, c.skill, c.inputs as never);
      const result = selectAndDraft(c.skill, c.inputs as never, retrieved.docs, new Date());
      if (result.generator !== 'deterministic') throw new Error(`unexpected generator ${result.generator}`);
      return nowMs() - t;
    };
    const product = async (c: SkillCase, wait: boolean): Promise<ProductRun> => {
      const t = nowMs();
      const res = await send(agent, `${svc.baseUrl}/v1/agents/${project}/skills/${c.skill}`, 'POST', JSON.stringify(c.inputs), { ...auth, ...(wait ? { Prefer: 'wait=30' } : {}) });
      const postMs = nowMs() - t;
      const body = JSON.parse(res.text) as { id: string; status: string; workflowId?: string; links: { self: string } };
      if (wait) {
        if (res.status !== 200 || body.status !== 'completed') throw new Error(`Prefer: wait answered ${res.status} ${res.text.slice(0, 300)}`);
        return { totalMs: postMs, postMs, workflowId: body.workflowId!, startedAt: t, seenAt: t + postMs };
      }
      if (res.status !== 202) throw new Error(`invoke answered ${res.status} ${res.text.slice(0, 300)}`);
      for (const deadline = Date.now() + DEADLINE_MS; Date.now() < deadline; await sleep(POLL_MS)) {
        const got = await send(agent, `${svc.baseUrl}${body.links.self}`, 'GET', undefined, auth);
        const record = JSON.parse(got.text) as { status: string; workflowId: string };
        if (record.status === 'completed') {
          const seenAt = nowMs();
          return { totalMs: seenAt - t, postMs, workflowId: record.workflowId, startedAt: t, seenAt };
        }
        if (record.status === 'failed' || record.status === 'cancelled') throw new Error(`invocation ${record.status}: ${got.text.slice(0, 300)}`);
      }
      throw new Error(`invocation ${body.id} did not complete within ${DEADLINE_MS} ms`);
    };

    const samples: Record<Variant, number[]> = { baseline: [], poll: [], wait: [] };
    const polled: ProductRun[] = [];
    const orders: Variant[][] = [['baseline', 'poll', 'wait'], ['poll', 'wait', 'baseline'], ['wait', 'baseline', 'poll']];
    process.stderr.write(`[bench] skills: ${WARMUP} warm-up + ${ITERATIONS} iterations × (baseline, poll, wait)\n`);
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
            if (v === 'poll') polled.push(run);
          }
        }
      }
    }
    agent.destroy();
    const withModel = await modelVariant(stack, demo, samples.baseline);

    const b = summarize(samples.baseline);
    const p = summarize(samples.poll);
    const w = summarize(samples.wait);
    const overhead = p.p50 - b.p50;
    const breakdown = await whereTheTimeGoes(svc, polled);
    const rows = [
      row(NAME, `p50 invoke -> completed, poll GET (${ITERATIONS} seq.)`, 'ms', p.p50, { baseline: b.p50 }),
      row(NAME, 'p99 invoke -> completed, poll GET', 'ms', p.p99, { baseline: b.p99 }),
      row(NAME, 'p50 overhead (product - baseline)', 'ms', overhead, { target: `< ${TARGET_OVERHEAD_MS} ms`, met: overhead < TARGET_OVERHEAD_MS }),
      row(NAME, 'p50 invoke with Prefer: wait=30', 'ms', w.p50, { baseline: b.p50 }),
      row(NAME, 'p99 invoke with Prefer: wait=30', 'ms', w.p99, { baseline: b.p99 }),
      row(NAME, `p50 overhead with a model configured (local model answering at once, ${MODEL_ITERATIONS} seq.)`, 'ms', withModel.p50 - b.p50, { target: `< ${TARGET_MODEL_OVERHEAD_MS} ms`, met: withModel.p50 - b.p50 < TARGET_MODEL_OVERHEAD_MS }),
    ];
    const notes = [
      `Skill overhead: demo project ${project} (${demo.documents.length} documents), skills rotated ${DEMO_CASES.map((c) => c.skill).join(' / ')}; ${WARMUP} warm-up iterations; GET polled every ${POLL_MS} ms. Baseline = retrieval + selectAndDraft in this process: p50 ${ms(b.p50)}, p99 ${ms(b.p99)}.`,
      `  Prefer: wait=30 costs ${ms(w.p50 - p.p50)} more than polling every ${POLL_MS} ms at p50: the route long-polls the run, which Temporal answers as the run closes, then reads the record once.`,
      '  where the product time goes (p50 per invocation, from the client clock and the workflow history):',
      ...breakdown.lines,
      ...warningNote(svc.warnings),
    ];
    return { name: NAME, rows, notes, details: { iterations: ITERATIONS, baseline: b, poll: p, wait: w, overheadP50Ms: overhead, breakdown: breakdown.details } };
  } finally {
    await svc.close();
  }
}

async function whereTheTimeGoes(svc: Service, runs: ProductRun[]) {
  const parts: Record<string, number[]> = {};
  const add = (k: string, v: number) => void (parts[k] ??= []).push(v);
  for (const run of runs) {
    const h = await loadHistory(svc.temporal.client, run.workflowId);
    const started = h.find((e) => e.type === 'WORKFLOW_EXECUTION_STARTED')!.at;
    const spans = activitySpans(h);
    const tasks = workflowTaskSpans(h);
    const store = spans.find((s) => s.name === 'storeSkillResult');
    add('API: POST -> 202 (validate, data checks, record, start)', run.postMs);
    add(`workflow tasks: queue wait (${tasks.length} tasks)`, tasks.reduce((a, t) => a + (t.startedAt - t.scheduledAt), 0));
    add('workflow tasks: processing', tasks.reduce((a, t) => a + (t.completedAt - t.startedAt), 0));
    add(`activities: queue wait (${spans.length} activities)`, spans.reduce((a, s) => a + (s.startedAt - s.scheduledAt), 0));
    for (const name of [...new Set(spans.map((s) => s.name))]) {
      const mine = spans.filter((s) => s.name === name);
      add(`activity ${name}${mine.length > 1 ? ` ×${mine.length}` : ''}: run`, mine.reduce((a, s) => a + (s.completedAt - s.startedAt), 0));
    }
    if (store) {
      add('between steps (task completed -> next scheduled, etc.)', store.completedAt - started - tasks.filter((t) => t.completedAt <= store.completedAt).reduce((a, t) => a + (t.completedAt - t.scheduledAt), 0) - spans.reduce((a, s) => a + (s.completedAt - s.scheduledAt), 0));
      add('result stored -> seen by the client poll', run.seenAt - store.completedAt);
    }
    add('total (client)', run.totalMs);
  }
  const summaries = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, summarize(v)]));
  return { lines: Object.entries(summaries).map(([k, s]) => `    ${k.padEnd(58)} p50 ${ms(s.p50).padStart(9)}   p99 ${ms(s.p99).padStart(9)}`), details: summaries };
}

/**
 * The same invocations with a model configured: drafting then runs as a heartbeating activity (a trip through
 * the activity task queue) and calls a local OpenAI-compatible server that answers at once with a valid
 * rewrite, so the difference from the baseline is the orchestration a model adds, not a model's latency.
 */
async function modelVariant(stack: BenchStack, demo: ReturnType<typeof loadDemo>, baseline: number[]): Promise<Summary> {
  const llm = await startFakeLlm();
  llm.handle((req) => rewrite(req));
  const svc = await startService(stack, 'skills-model', { env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' } });
  try {
    await svc.startWorker();
    const projects = new ProjectRepository(svc.store.db);
    await projects.upsertOrg(demo.org.id, { name: demo.org.name, ownerEmail: demo.org.ownerEmail }, new Date());
    await projects.upsertProject(demo.project.id, { name: demo.project.name, org: demo.org.id }, new Date());
    await new DocumentRepository(svc.store.db).upsertMany(demo.project.id, demo.documents, new Date());
    const agent = keepAliveAgent(2);
    const headers = { Authorization: `Bearer ${benchToken({ projects: [demo.project.id] })}`, Prefer: 'wait=30' };
    const times: number[] = [];
    for (let i = 0; i < WARMUP + MODEL_ITERATIONS; i++) {
      const c = DEMO_CASES[i % DEMO_CASES.length]!;
      const t = nowMs();
      const res = await send(agent, `${svc.baseUrl}/v1/agents/${demo.project.id}/skills/${c.skill}`, 'POST', JSON.stringify(c.inputs), headers);
      const body = JSON.parse(res.text) as { status: string; result?: { generator: string } };
      if (res.status !== 200 || body.result?.generator !== 'llm:fake-model') throw new Error(`model variant answered ${res.status} ${res.text.slice(0, 300)}`);
      if (i >= WARMUP) times.push(nowMs() - t);
    }
    agent.destroy();
    process.stderr.write(`[bench] skills with a model: p50 ${summarize(times).p50.toFixed(1)} ms (baseline p50 ${summarize(baseline).p50.toFixed(1)} ms)\n`);
    return summarize(times);
  } finally {
    await svc.close();
    await llm.close();
  }
}
