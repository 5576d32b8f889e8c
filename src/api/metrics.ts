import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per app instance (not prom-client's global), so tests can build several apps in one process. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
