import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryLog } from '../../billing-intake/delivery-log';

/** Reads from the store at scrape time (parked work is written by workers as well as by this process). */
export interface StoreGauges {
  parkedDeadLetters(): Promise<Array<{ scope: string; count: number }>>;
  owedTotals(): Promise<Array<{ scope: string; count: number }>>;
}

/** This process's relay from the webhook inbox to the workflows (billing-intake/event-forwarder.ts). */
export interface RelayGauges {
  owed(): number;
  lagMs(): number;
}

/** The task queues' backlog by role, as Temporal reports it (src/temporal/queue-backlog.ts). */
export interface QueueGauges {
  read(): Promise<Record<string, { tasks: number; ageSeconds: number } | null>>;
}

/** One registry per app instance (not prom-client's global), so tests can build several apps in one process. */
export function createMetrics(store?: StoreGauges, relay?: RelayGauges, queues?: QueueGauges) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges whose names end in _total, which Prometheus reserves for counters (`promtool check metrics` refuses
  // them); the same numbers are the sums of nodejs_active_handles, _requests and _resources by type.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhookEvents = new Counter({
    name: 'billing_webhook_events_total',
    help: 'Billing-provider webhook deliveries by scope kind and outcome',
    labelNames: ['scope', 'outcome'] as const,
    registers: [registry],
  });
  const skillInvocations = new Counter({
    name: 'skill_invocations_started_total',
    help: 'Skill invocations started, by skill',
    labelNames: ['skill'] as const,
    registers: [registry],
  });
  if (store) {
    /** A count per scope, read from the store at scrape time; a store outage leaves the last values. */
    const perScope = (name: string, help: string, read: () => Promise<Array<{ scope: string; count: number }>>) =>
      new Gauge({
        name,
        help,
        labelNames: ['scope'] as const,
        registers: [registry],
        async collect() {
          const rows = await read().catch(() => null);
          if (!rows) return;
          this.reset();
          for (const row of rows) this.set({ scope: row.scope }, row.count);
        },
      });
    perScope('billing_dead_letters_parked', 'Billing events and effects parked as dead letters and not yet retried, by scope', () =>
      store.parkedDeadLetters(),
    );
    perScope(
      'billing_totals_owed',
      "Subscribers whose totals delta the scope's totals workflow refuses (owed, tried again), by scope",
      () => store.owedTotals(),
    );
  }
  if (relay) {
    new Gauge({
      name: 'billing_relay_backlog',
      help: 'Webhook events this API instance accepted and has not yet relayed to their workflows',
      registers: [registry],
      collect() {
        this.set(relay.owed());
      },
    });
    new Gauge({
      name: 'billing_relay_lag_seconds',
      help: 'How long the oldest accepted, not yet relayed event of this API instance has waited',
      registers: [registry],
      collect() {
        this.set(relay.lagMs() / 1000);
      },
    });
  }
  if (queues) {
    // One reading serves both gauges (the reader keeps it for 5 s); an unanswered queue keeps its last values.
    const gauge = (name: string, help: string, pick: (q: { tasks: number; ageSeconds: number }) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'] as const,
        registers: [registry],
        async collect() {
          const read = await queues.read().catch(() => ({}) as Awaited<ReturnType<QueueGauges['read']>>);
          for (const [queue, q] of Object.entries(read)) if (q) this.set({ queue }, pick(q));
        },
      });
    gauge('temporal_task_queue_backlog_tasks', 'Workflow tasks waiting in the task queue, by role (billing, skills)', (q) => q.tasks);
    gauge(
      'temporal_task_queue_backlog_age_seconds',
      'How long the oldest workflow task in the task queue has waited, by role (billing, skills)',
      (q) => q.ageSeconds,
    );
  }
  return {
    registry,
    webhookEvents,
    skillInvocations,
    observeRequest(route: string, method: string, status: number, seconds: number) {
      httpDuration.observe({ method, route, status: String(status) }, seconds);
    },
  };
}

export type AppMetrics = ReturnType<typeof createMetrics>;

/** The webhook receivers' refusals by reason (the event log's reasons) and the log entries it could not keep. */
export function registerEventLogMetrics(registry: Registry, log: Pick<DeliveryLog, 'stats'>): void {
  new Counter({
    name: 'billing_webhook_refusals_total',
    help: 'Webhook deliveries refused, by receiver (app, operator) and reason (see the event log): a surge of one reason is a misconfiguration or a probe',
    labelNames: ['endpoint', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const r of log.stats().refusals) this.inc({ endpoint: r.endpoint, reason: r.reason }, r.count);
    },
  });
  new Counter({
    name: 'billing_event_log_dropped_total',
    help: 'Event log entries not kept (a full queue, a failed write); the events themselves are in the inbox',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(log.stats().dropped);
    },
  });
}
