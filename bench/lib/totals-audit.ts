/**
 * Where a scope's running totals part from what its subscribers hold: the soak calls it when app A's totals do
 * not reach the model. It compares three sums that must agree once everything is applied: the model's, the stored
 * records' contributions, and the deltas the subscriber workflows sent (read from their histories, every run), and
 * the deltas the totals workflow received. Each disagreement names subscribers to look at in the Temporal UI.
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Collection } from 'mongodb';
import { metricsWorkflowId } from '../../src/contracts/workflows/billing-metrics';
import { workflowIdFor, type BillingScope } from '../../src/billing/subscriber-id';
import type { SubscriberRecord } from '../../src/store/subscribers';

type Payloads = temporal.api.common.v1.IPayloads | null | undefined;

/** The sum of the mrrMicros of every delta-shaped payload an event list carries, picked by `pick`. */
function sumMrr(events: temporal.api.history.v1.IHistoryEvent[], pick: (e: temporal.api.history.v1.IHistoryEvent) => Payloads): number {
  let sum = 0;
  for (const e of events) {
    const payload = pick(e)?.payloads?.[0];
    if (!payload) continue;
    const value = defaultPayloadConverter.fromPayload<{ mrrMicros?: number }>(payload);
    sum += typeof value?.mrrMicros === 'number' ? value.mrrMicros : 0;
  }
  return sum;
}

/** Every run's history of a workflow id, oldest run first. */
async function runsOf(client: Client, workflowId: string): Promise<temporal.api.history.v1.IHistoryEvent[][]> {
  const runs: { runId: string; start: number }[] = [];
  for await (const w of client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    runs.push({ runId: w.runId, start: w.startTime.getTime() });
  }
  runs.sort((a, b) => a.start - b.start);
  const out: temporal.api.history.v1.IHistoryEvent[][] = [];
  for (const r of runs) out.push((await client.workflow.getHandle(workflowId, r.runId).fetchHistory()).events ?? []);
  return out;
}

export async function auditTotals(o: {
  client: Client;
  subscribers: Collection<SubscriberRecord>;
  scope: BillingScope;
  /** The model: what each subscriber id must contribute, in micro-dollars of MRR. */
  expectedMicros: Map<string, number>;
  runningMicros: number | null;
  /** How many subscribers' histories to read (each costs a list and a history fetch per run). */
  sample: number;
}): Promise<string[]> {
  const lines: string[] = [];
  const stored = new Map<string, number>();
  for await (const r of o.subscribers.find({ scope: o.scope }, { projection: { subscriberId: 1, contribution: 1 } })) {
    stored.set(r.subscriberId, r.contribution?.mrrMicros ?? 0);
  }
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const wrongRecords = [...o.expectedMicros].filter(([id, micros]) => stored.get(id) !== micros);
  lines.push(
    `totals audit (${o.scope}): model ${total(o.expectedMicros)} µ$, records ${total(stored)} µ$ (${stored.size} records), running ${o.runningMicros ?? 'none'} µ$; ` +
      `${wrongRecords.length} records differ from the model${
        wrongRecords.length
          ? ` (e.g. ${wrongRecords
              .slice(0, 3)
              .map(([id, m]) => `${id} holds ${stored.get(id) ?? 'nothing'} for ${m}`)
              .join(', ')})`
          : ''
      }`,
  );

  // The deltas each sampled subscriber sent, over all its runs, against what its record holds.
  const ids = [...o.expectedMicros.keys()].slice(0, o.sample);
  const off: string[] = [];
  const refusals: string[] = [];
  let failedRuns = 0;
  for (const id of ids) {
    const runs = await runsOf(o.client, workflowIdFor(o.scope, id));
    // A signal the server refused is recorded as initiated, then failed (with its cause): only the others count.
    const causes: string[] = [];
    const sent = runs.reduce((sum, events) => {
      const failed = new Set<string>();
      for (const e of events) {
        const f = e.signalExternalWorkflowExecutionFailedEventAttributes;
        if (!f) continue;
        failed.add(String(f.initiatedEventId));
        causes.push(temporal.api.enums.v1.SignalExternalWorkflowExecutionFailedCause[f.cause ?? 0] ?? String(f.cause));
      }
      return (
        sum +
        sumMrr(
          events.filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes && !failed.has(String(e.eventId))),
          (e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.input,
        )
      );
    }, 0);
    refusals.push(...causes);
    const closed = runs.at(-1)?.find((e) => e.workflowExecutionFailedEventAttributes);
    if (closed) failedRuns += 1;
    if (sent !== (stored.get(id) ?? 0)) {
      const name = (e: temporal.api.history.v1.IHistoryEvent) =>
        (temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? String(e.eventType)).replace('EVENT_TYPE_', '');
      const shape = runs.map((events) => events.map(name).join(',')).join(' | ');
      off.push(`${id}: sent ${sent} µ$, record ${stored.get(id) ?? 0} µ$, ${runs.length} run(s): ${shape.slice(0, 2_000)}`);
    }
  }
  const byCause = new Map<string, number>();
  for (const c of refusals) byCause.set(c, (byCause.get(c) ?? 0) + 1);
  lines.push(
    `  ${off.length} of ${ids.length} sampled subscribers sent deltas that do not sum to their record; ${failedRuns} ended failed; ` +
      `deltas refused: ${refusals.length ? [...byCause].map(([c, n]) => `${n} ${c}`).join(', ') : 'none'}`,
  );
  for (const l of off.slice(0, 5)) lines.push(`  - ${l}`);

  // What the totals workflow received, over all its runs.
  const metricsRuns = await runsOf(o.client, metricsWorkflowId(o.scope));
  const received = metricsRuns.reduce(
    (sum, events) =>
      sum +
      sumMrr(
        events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'totalsDelta'),
        (e) => e.workflowExecutionSignaledEventAttributes?.input,
      ),
    0,
  );
  lines.push(`  the totals workflow received ${received} µ$ of deltas over ${metricsRuns.length} run(s)`);
  return lines;
}
