import type { MetricMeter } from '@temporalio/common';

/**
 * What operators alert on from the worker, beside the Temporal SDK's own metrics (task latencies, slots, polls):
 * skill invocations that finished and how long they took, mail that could not be sent, and how outbound
 * deliveries fare. Created on the runtime's meter, so they are served by the same Prometheus endpoint as the
 * SDK's (WORKER_METRICS_ADDRESS); without an exporter the meter records nothing.
 */
export interface WorkerMetrics {
  invocationFinished(skill: string, status: string, seconds: number): void;
  mailFailed(kind: string): void;
  outboundAttempt(outcome: 'sent' | 'retried' | 'failed', latencyMs: number | null): void;
}

export function workerMetrics(meter: MetricMeter): WorkerMetrics {
  const finished = meter.createCounter(
    'skill_invocations_finished',
    '1',
    'Skill invocations that reached a terminal status, by skill and status',
  );
  const duration = meter.createHistogram(
    'skill_invocation_duration',
    'float',
    'seconds',
    'From the request to the terminal status, by skill and status',
  );
  const mailFailures = meter.createCounter(
    'mail_send_failures',
    '1',
    'Attempts to send a mail that failed (each is retried; see the outbox)',
  );
  const attempts = meter.createCounter('outbound_delivery_attempts', '1', 'Outbound webhook attempts by outcome');
  const latency = meter.createHistogram(
    'outbound_delivery_latency',
    'float',
    'seconds',
    "Receivers' answer time for outbound webhook attempts that got an answer",
  );
  return {
    invocationFinished(skill, status, seconds) {
      finished.add(1, { skill, status });
      duration.record(seconds, { skill, status });
    },
    mailFailed(kind) {
      mailFailures.add(1, { kind });
    },
    outboundAttempt(outcome, latencyMs) {
      attempts.add(1, { outcome });
      if (latencyMs !== null) latency.record(latencyMs / 1000, { outcome });
    },
  };
}

/** For activities run without a worker runtime (tests that call them directly). */
export const NO_METRICS: WorkerMetrics = {
  invocationFinished: () => undefined,
  mailFailed: () => undefined,
  outboundAttempt: () => undefined,
};
