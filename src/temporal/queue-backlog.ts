import type { Client } from '@temporalio/client';

/** How many tasks wait in a task queue and how old the oldest is (Temporal's approximate figures). */
export interface QueueBacklog {
  tasks: number;
  ageSeconds: number;
}

/** A reading is reused this long: /readyz and /metrics may be asked often, Temporal need not be. */
const FRESH_MS = 5_000;
const DESCRIBE_TIMEOUT_MS = 2_000;
/** temporal.api.enums.v1 values (the proto package is not a runtime dependency of the API). */
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/**
 * Reads the workflow-task backlog of the service's task queues (DescribeTaskQueue with stats), at most every
 * 5 s, for the API's /readyz detail, /metrics and the console: the lag the relay cannot see once an event has been
 * handed to Temporal. A failed reading is null (the server down, or too old to report stats); the service goes on.
 */
export class QueueBacklogReader {
  private last: { atMs: number; value: Promise<Record<string, QueueBacklog | null>> } | null = null;

  constructor(
    private readonly client: Pick<Client, 'workflowService' | 'connection'>,
    private readonly namespace: string,
    /** Queue names by the role they serve (billing, skills). */
    private readonly queues: Record<string, string>,
  ) {}

  read(nowMs: number = Date.now()): Promise<Record<string, QueueBacklog | null>> {
    if (this.last && nowMs - this.last.atMs < FRESH_MS) return this.last.value;
    const value = Promise.all(
      Object.entries(this.queues).map(async ([role, name]) => [role, await this.describe(name).catch(() => null)] as const),
    ).then((pairs) => Object.fromEntries(pairs));
    this.last = { atMs: nowMs, value };
    return value;
  }

  private async describe(name: string): Promise<QueueBacklog> {
    const res = await this.client.connection.withDeadline(Date.now() + DESCRIBE_TIMEOUT_MS, () =>
      this.client.workflowService.describeTaskQueue({
        namespace: this.namespace,
        taskQueue: { name, kind: TASK_QUEUE_KIND_NORMAL },
        taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
        reportStats: true,
      }),
    );
    const stats = res.stats;
    const age = stats?.approximateBacklogAge;
    return {
      tasks: Number(stats?.approximateBacklogCount ?? 0),
      ageSeconds: age ? Number(age.seconds ?? 0) + (age.nanos ?? 0) / 1e9 : 0,
    };
  }
}

/**
 * Past this, the service says it runs behind (/readyz `backlog.status`, the console's banner): still accepting and
 * losing nothing, but effects come late. The alert rules in ops/ use their own, longer thresholds.
 */
export const LAGGING_AFTER_SECONDS = 30;

export interface BacklogReport {
  status: 'ok' | 'lagging';
  /** Accepted webhook events this API instance has not yet handed to Temporal, and the oldest one's wait. */
  relay: { events: number; lagSeconds: number };
  /** Workflow tasks waiting in each role's task queue (null: Temporal did not report). */
  queues: Record<string, QueueBacklog | null>;
}

export function backlogReport(relay: { events: number; lagMs: number }, queues: Record<string, QueueBacklog | null>): BacklogReport {
  const lagSeconds = Math.round(relay.lagMs / 100) / 10;
  const lagging =
    lagSeconds > LAGGING_AFTER_SECONDS || Object.values(queues).some((q) => q !== null && q.ageSeconds > LAGGING_AFTER_SECONDS);
  return { status: lagging ? 'lagging' : 'ok', relay: { events: relay.events, lagSeconds }, queues };
}
