/**
 * Benchmark: what each billing event type and a skill invocation cost Temporal, read from the workflows' real
 * histories (bench/lib/temporal-work.ts): workflow tasks, activities (remote, local), timers, signals, search-
 * attribute upserts, history events, payload bytes and Temporal Cloud billable actions. Counts, not times; the
 * median of several subscribers per event type. Targets: a purchase, a renewal and a cancellation at most 2
 * workflow tasks and 5 billable actions each.
 */
import { APP_WEBHOOK_PATH } from '../src/contracts/webhook-paths';
import { workflowIdFor, appScope } from '../src/billing/subscriber-id';
import type { BillingEvent } from '../src/billing/provider-events';
import { AppRepository } from '../src/store/apps';
import { ProjectRepository } from '../src/store/projects';
import { DocumentRepository } from '../src/store/documents';
import { loadDemo, DEMO_CASES } from './lib/demo';
import { loadHistory, type HistoryEvent } from './lib/history';
import { keepAliveAgent, send } from './lib/http-client';
import { DAY, envelope, providerEvent } from './lib/provider-events';
import { row, type BenchOutcome } from './lib/report';
import { benchToken, startService } from './lib/service';
import type { BenchStack } from './lib/stack';
import { median, sleep } from './lib/stats';
import { since, temporalWork, type TemporalWork } from './lib/temporal-work';

const NAME = 'temporal work';
const SAMPLES = 5;
const APP = 'work';
const TARGETED = new Set(['INITIAL_PURCHASE', 'RENEWAL', 'CANCELLATION']);

type Step = { type: string; event: (user: string, t: number) => BillingEvent };

let counter = 0;
/** An event for `user` with its own id, and any members the lifecycle step sets. */
const ev = (
  type: string,
  user: string,
  at: number,
  period: { purchasedAt?: number; expiresAt?: number },
  more: Partial<BillingEvent> = {},
): BillingEvent => ({
  ...providerEvent(type, user, { id: `work-${type.toLowerCase()}-${counter++}`, at, ...period }),
  ...more,
});

// Each subscriber goes through these in order; each step is measured on its own.
const LIFECYCLE: Step[] = [
  { type: 'INITIAL_PURCHASE', event: (u, t) => ev('INITIAL_PURCHASE', u, t, { purchasedAt: t, expiresAt: t + 30 * DAY }) },
  { type: 'RENEWAL', event: (u, t) => ev('RENEWAL', u, t + 1, { purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }) },
  { type: 'BILLING_ISSUE', event: (u, t) => ev('BILLING_ISSUE', u, t + 2, { purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }) },
  {
    type: 'CANCELLATION',
    event: (u, t) => ev('CANCELLATION', u, t + 3, { purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }, { cancel_reason: 'UNSUBSCRIBE' }),
  },
  { type: 'UNCANCELLATION', event: (u, t) => ev('UNCANCELLATION', u, t + 4, { purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }) },
  { type: 'SUBSCRIBER_ALIAS', event: (u, t) => ev('SUBSCRIBER_ALIAS', u, t + 5, {}, { aliases: [u, `${u}-device`] }) },
  {
    type: 'EXPIRATION',
    event: (u, t) =>
      ev('EXPIRATION', u, t + 6, { purchasedAt: t + 30 * DAY, expiresAt: t + 60 * DAY }, { expiration_reason: 'UNSUBSCRIBE' }),
  },
];

export async function benchTemporalWork(stack: BenchStack): Promise<BenchOutcome> {
  const svc = await startService(stack, 'work');
  try {
    await svc.startWorker();
    const authorization = (await new AppRepository(svc.store.db).create(APP, 'Work app', new Date()))!.authorization;
    const agent = keepAliveAgent(4);
    const hook = `${svc.baseUrl}${APP_WEBHOOK_PATH}?app=${APP}`;
    const client = svc.temporal.client;

    /** Sends one event and returns what it cost the subscriber's workflow once that is idle again. */
    const measure = async (user: string, event: BillingEvent): Promise<TemporalWork> => {
      const workflowId = workflowIdFor(appScope(APP), user);
      const before = await loadHistory(client, workflowId).catch(() => [] as HistoryEvent[]);
      const lastId = before.at(-1)?.id ?? 0;
      const res = await send(agent, hook, 'POST', envelope(event), { Authorization: authorization });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text.slice(0, 200)}`);
      return temporalWork(since(await idleHistory(workflowId, lastId), lastId));
    };
    const idleHistory = async (workflowId: string, lastId: number): Promise<HistoryEvent[]> => {
      let previous = -1;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
        const h = await loadHistory(client, workflowId).catch(() => [] as HistoryEvent[]);
        const last = h.at(-1);
        if (h.length === previous && last && last.id > lastId && !['WORKFLOW_TASK_SCHEDULED', 'WORKFLOW_TASK_STARTED'].includes(last.type))
          return h;
        previous = h.length;
      }
      throw new Error(`${workflowId} did not go idle`);
    };

    // The scope's first subscriber also starts the scope's totals workflow: a one-off, kept out of the samples.
    const t = Date.now();
    await measure('warmup', LIFECYCLE[0]!.event('warmup', t));
    const samples = new Map<string, TemporalWork[]>();
    for (let i = 0; i < SAMPLES; i++) {
      const user = `sub-${i}`;
      for (const step of LIFECYCLE) {
        const list = samples.get(step.type) ?? [];
        list.push(await measure(user, step.event(user, t)));
        samples.set(step.type, list);
      }
    }

    // A skill invocation (deterministic drafter), its whole history.
    const demo = loadDemo();
    const projects = new ProjectRepository(svc.store.db);
    await projects.upsertOrg(demo.org.id, { name: demo.org.name, ownerEmail: demo.org.ownerEmail }, new Date());
    await projects.upsertProject(demo.project.id, { name: demo.project.name, org: demo.org.id }, new Date());
    await new DocumentRepository(svc.store.db).upsertMany(demo.project.id, demo.documents, new Date());
    const auth = { Authorization: `Bearer ${benchToken({ projects: [demo.project.id] })}`, Prefer: 'wait=30' };
    const skillWork: TemporalWork[] = [];
    for (const c of DEMO_CASES.slice(0, 3)) {
      const res = await send(
        agent,
        `${svc.baseUrl}/v1/agents/${demo.project.id}/skills/${c.skill}`,
        'POST',
        JSON.stringify(c.inputs),
        auth,
      );
      const body = JSON.parse(res.text) as { workflowId?: string; status: string };
      if (res.status !== 200 || !body.workflowId) throw new Error(`invoke answered ${res.status}: ${res.text.slice(0, 200)}`);
      skillWork.push(temporalWork(await idleHistory(body.workflowId, 0)));
    }
    samples.set('skill invocation', skillWork);

    const rows = [...samples].flatMap(([type, list]) => {
      const tasks = median(list.map((w) => w.workflowTasks));
      const actions = median(list.map((w) => w.billableActions));
      const targeted = TARGETED.has(type);
      return [
        row(NAME, `${type}: workflow tasks (median of ${list.length})`, 'tasks', tasks, targeted ? { target: '≤ 2', met: tasks <= 2 } : {}),
        row(
          NAME,
          `${type}: billable actions (median of ${list.length})`,
          'actions',
          actions,
          targeted ? { target: '≤ 5', met: actions <= 5 } : {},
        ),
      ];
    });
    const columns = [
      'workflowTasks',
      'activities',
      'localActivities',
      'timers',
      'signalsReceived',
      'signalsSent',
      'searchAttributeUpserts',
      'historyEvents',
      'payloadBytes',
      'billableActions',
    ] as const;
    const notes = [
      "Temporal work per event (median over subscribers; from each workflow's history):",
      `  ${['type', ...columns].join(' | ')}`,
      ...[...samples].map(([type, list]) => `  ${[type, ...columns.map((c) => String(median(list.map((w) => w[c]))))].join(' | ')}`),
    ];
    return { name: NAME, rows, notes, details: Object.fromEntries(samples) };
  } finally {
    await svc.close();
  }
}
