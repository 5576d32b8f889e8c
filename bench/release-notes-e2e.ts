/**
 * Release notes end to end on a project with a real-sized history: a synthetic project of ~10,000 commits
 * (with its pull requests, tickets and ~90 releases), POST /v1/agents/{p}/skills/release_notes_composer with
 * `Prefer: wait=30` until it answers completed, through the API, Temporal and a real worker. The baseline is
 * the same retrieval and drafting called in-process in the same run, so the difference is what the service
 * adds on a large project.
 */
import { selectAndDraft } from '../src/skills/run';
import { DocumentRepository } from '../src/store/documents';
import { ProjectRepository } from '../src/store/projects';
import { keepAliveAgent, send } from './lib/http-client';
import { ms, row, type BenchOutcome } from './lib/report';
import { retrieveTimed } from './lib/retrieve';
import { benchToken, startService, warningNote } from './lib/service';
import type { BenchStack } from './lib/stack';
import { nowMs, summarize } from './lib/stats';
import { syntheticProject } from './lib/synthetic-docs';

const NAME = 'release notes e2e';
/** The synthetic mix is ~44% commits: this size gives ~10,000 of them. */
const PROJECT_SIZE = 23_000;
const ITERATIONS = 30;
const WARMUP = 3;
const TARGET_P50_MS = 400;

export async function benchReleaseNotesE2e(stack: BenchStack): Promise<BenchOutcome> {
  const svc = await startService(stack, 'release-notes');
  try {
    await svc.startWorker();
    const project = 'bench-history';
    const synthetic = syntheticProject(PROJECT_SIZE, 7);
    const commits = synthetic.documents.filter((d) => d.kind === 'commit').length;
    const projects = new ProjectRepository(svc.store.db);
    await projects.upsertOrg('bench-org', { name: 'Bench', ownerEmail: 'owner@example.com' }, new Date());
    await projects.upsertProject(project, { name: 'Bench history', org: 'bench-org' }, new Date());
    const repo = new DocumentRepository(svc.store.db);
    const loadStarted = nowMs();
    for (let i = 0; i < synthetic.documents.length; i += 1000)
      await repo.upsertMany(project, synthetic.documents.slice(i, i + 1000), new Date());
    const loadMs = nowMs() - loadStarted;
    const c = synthetic.cases.find((x) => x.skill === 'release_notes_composer')!;
    const agent = keepAliveAgent(2);
    const headers = { Authorization: `Bearer ${benchToken({ projects: [project] })}`, Prefer: 'wait=30' };

    const baseline = async () => {
      const t = nowMs();
      const retrieved = await retrieveTimed(repo, project, c.skill, c.inputs as never);
      selectAndDraft(c.skill, c.inputs as never, retrieved.docs, new Date());
      return { ms: nowMs() - t, docs: retrieved.docs.length };
    };
    const product = async () => {
      const t = nowMs();
      const res = await send(agent, `${svc.baseUrl}/v1/agents/${project}/skills/${c.skill}`, 'POST', JSON.stringify(c.inputs), headers);
      const body = JSON.parse(res.text) as { status: string };
      if (res.status !== 200 || body.status !== 'completed')
        throw new Error(`Prefer: wait answered ${res.status} ${res.text.slice(0, 300)}`);
      return nowMs() - t;
    };

    const base: number[] = [];
    const e2e: number[] = [];
    let retrieved = 0;
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      // Alternating order, so drift on a shared machine hits both alike.
      const b = i % 2 === 0 ? await baseline() : null;
      const p = await product();
      const b2 = b ?? (await baseline());
      retrieved = b2.docs;
      if (i >= WARMUP) {
        base.push(b2.ms);
        e2e.push(p);
      }
    }
    const sb = summarize(base);
    const sp = summarize(e2e);
    return {
      name: NAME,
      rows: [
        row(NAME, `POST (Prefer: wait) → completed p50, ${commits.toLocaleString('en-US')}-commit project`, 'ms', sp.p50, {
          target: `< ${TARGET_P50_MS} ms`,
          met: sp.p50 < TARGET_P50_MS,
        }),
        row(NAME, 'same, p95', 'ms', sp.p95),
        row(NAME, 'in-process retrieval + drafting p50 (baseline)', 'ms', sb.p50),
        row(NAME, 'service overhead p50 (product − baseline)', 'ms', sp.p50 - sb.p50),
      ],
      notes: [
        `  ${synthetic.documents.length.toLocaleString('en-US')} documents (${commits.toLocaleString('en-US')} commits) loaded in ${ms(loadMs)}; the range ${String((c.inputs as { fromVersion: string }).fromVersion)} → ${String((c.inputs as { toVersion: string }).toVersion)} retrieves ${retrieved} documents`,
        ...warningNote(svc.warnings),
      ],
      details: { documents: synthetic.documents.length, commits, loadMs, retrieved, baseline: sb, product: sp },
    };
  } finally {
    await svc.close();
  }
}
