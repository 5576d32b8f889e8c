/**
 * Reads a workflow's history as timed events, to say where an end-to-end latency went: signal received,
 * workflow tasks, activities scheduled / started / completed. Times are the server's, on the same host clock
 * as this process (loopback), so they line up with client-side timestamps to well under a millisecond.
 */
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

/* eslint-disable @typescript-eslint/no-explicit-any -- history JSON is read field by field */
export interface HistoryEvent {
  id: number;
  /** e.g. WORKFLOW_EXECUTION_SIGNALED (the EVENT_TYPE_ prefix dropped). */
  type: string;
  at: number;
  attrs: any;
}

export interface ActivitySpan {
  name: string;
  scheduledId: number;
  scheduledAt: number;
  startedAt: number;
  completedAt: number;
}

export interface TaskSpan {
  scheduledAt: number;
  startedAt: number;
  completedAt: number;
}

/** "2026-11-22T00:33:09.337111778Z" to epoch ms with the sub-millisecond part kept. */
export function isoToMs(iso: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (!m) return Date.parse(iso);
  return Date.parse(`${m[1]}Z`) + (m[2] ? Number(`0.${m[2]}`) * 1000 : 0);
}

export async function loadHistory(client: Client, workflowId: string): Promise<HistoryEvent[]> {
  const json = JSON.parse(historyToJSON(await client.workflow.getHandle(workflowId).fetchHistory())) as { events: any[] };
  return json.events.map((e) => {
    const key = Object.keys(e).find((k) => k.endsWith('EventAttributes'));
    return {
      id: Number(e.eventId),
      type: String(e.eventType).replace(/^EVENT_TYPE_/, ''),
      at: isoToMs(e.eventTime),
      attrs: key ? e[key] : {},
    };
  });
}

export function decodePayload(payload: { data?: string } | undefined): unknown {
  return payload?.data ? JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8')) : undefined;
}

export function activitySpans(events: HistoryEvent[]): ActivitySpan[] {
  const byScheduled = new Map<number, ActivitySpan>();
  for (const e of events) {
    if (e.type === 'ACTIVITY_TASK_SCHEDULED') {
      byScheduled.set(e.id, {
        name: e.attrs.activityType.name,
        scheduledId: e.id,
        scheduledAt: e.at,
        startedAt: Number.NaN,
        completedAt: Number.NaN,
      });
    } else if (e.type === 'ACTIVITY_TASK_STARTED') {
      const span = byScheduled.get(Number(e.attrs.scheduledEventId));
      if (span) span.startedAt = e.at;
    } else if (e.type === 'ACTIVITY_TASK_COMPLETED' || e.type === 'ACTIVITY_TASK_FAILED') {
      const span = byScheduled.get(Number(e.attrs.scheduledEventId));
      if (span) span.completedAt = e.at;
    }
  }
  return [...byScheduled.values()];
}

export function workflowTaskSpans(events: HistoryEvent[]): TaskSpan[] {
  const spans: TaskSpan[] = [];
  const open = new Map<number, TaskSpan>();
  for (const e of events) {
    if (e.type === 'WORKFLOW_TASK_SCHEDULED') open.set(e.id, { scheduledAt: e.at, startedAt: Number.NaN, completedAt: Number.NaN });
    else if (e.type === 'WORKFLOW_TASK_STARTED') {
      const span = open.get(Number(e.attrs.scheduledEventId));
      if (span) span.startedAt = e.at;
    } else if (e.type === 'WORKFLOW_TASK_COMPLETED') {
      const span = open.get(Number(e.attrs.scheduledEventId));
      if (span) {
        span.completedAt = e.at;
        spans.push(span);
      }
    }
  }
  return spans;
}
