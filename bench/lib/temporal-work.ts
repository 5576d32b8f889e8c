/**
 * What a stretch of a workflow's history cost Temporal: workflow tasks, activities (remote and local), timers,
 * signals, search-attribute upserts, history events and payload bytes, and the Temporal Cloud billable actions
 * those add up to under its documented rules (a workflow started, by a start, signal-with-start or
 * continue-as-new; each activity attempt; the local activities of one workflow task together; each timer
 * started, condition() timeouts included; each signal received from a client or sent by a workflow; each
 * UpsertSearchAttributes command; version markers are exempt).
 */
import type { HistoryEvent } from './history';

/* eslint-disable @typescript-eslint/no-explicit-any -- history JSON is read field by field */
export interface TemporalWork {
  workflowTasks: number;
  activities: number;
  localActivities: number;
  timers: number;
  signalsReceived: number;
  signalsSent: number;
  searchAttributeUpserts: number;
  historyEvents: number;
  payloadBytes: number;
  billableActions: number;
}

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

export function temporalWork(events: readonly HistoryEvent[]): TemporalWork {
  const work: TemporalWork = {
    workflowTasks: 0,
    activities: 0,
    localActivities: 0,
    timers: 0,
    signalsReceived: 0,
    signalsSent: 0,
    searchAttributeUpserts: 0,
    historyEvents: events.length,
    payloadBytes: 0,
    billableActions: 0,
  };
  let started = 0;
  // Local activities are billed once per workflow task that recorded any: group their markers by the task.
  const tasksWithLocalActivities = new Set<number>();
  let currentTask = 0;
  for (const e of events) {
    work.payloadBytes += payloadBytes(e.attrs);
    switch (e.type) {
      case 'WORKFLOW_EXECUTION_STARTED':
        started += 1;
        break;
      case 'WORKFLOW_TASK_COMPLETED':
        work.workflowTasks += 1;
        currentTask = e.id;
        break;
      case 'ACTIVITY_TASK_STARTED':
        work.activities += 1;
        break;
      case 'MARKER_RECORDED':
        if (e.attrs.markerName === LOCAL_ACTIVITY_MARKER) {
          work.localActivities += 1;
          tasksWithLocalActivities.add(currentTask);
        }
        break;
      case 'TIMER_STARTED':
        work.timers += 1;
        break;
      case 'WORKFLOW_EXECUTION_SIGNALED':
        work.signalsReceived += 1;
        break;
      case 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED':
        work.signalsSent += 1;
        break;
      case 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES':
        if (!isVersionMarkerOnly(e.attrs)) work.searchAttributeUpserts += 1;
        break;
    }
  }
  work.billableActions =
    started +
    work.activities +
    tasksWithLocalActivities.size +
    work.timers +
    work.signalsReceived +
    work.signalsSent +
    work.searchAttributeUpserts;
  return work;
}

/** The events after the last one `before` had: what one more event cost. */
export function since(events: readonly HistoryEvent[], lastSeenId: number): HistoryEvent[] {
  return events.filter((e) => e.id > lastSeenId);
}

// patched() records TemporalChangeVersion, which Temporal Cloud does not bill.
function isVersionMarkerOnly(attrs: any): boolean {
  const fields = Object.keys(attrs?.searchAttributes?.indexedFields ?? {});
  return fields.length > 0 && fields.every((f) => f === 'TemporalChangeVersion');
}

function payloadBytes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + payloadBytes(v), 0);
  const obj = value as Record<string, unknown>;
  if (typeof obj.data === 'string' && obj.metadata !== undefined) return Buffer.byteLength(obj.data, 'base64');
  return Object.values(obj).reduce((sum: number, v) => sum + payloadBytes(v), 0);
}
