/** The incident's timeline rebuilt from timestamps, in order, and the durations that matter for an RCA. */
import type { ErrorIssueDocument, IncidentDocument, ProjectDocument } from '../documents';
import { oneLine } from '../markdown';
import { DAY_MS, toMillis } from '../time';

export interface TimelineEvent {
  at: string;
  text: string;
  sources: ProjectDocument[];
}

/** For events at the same minute: causes before milestones before notes before the last errors. */
const ORDER = { firstSeen: 0, started: 1, detected: 2, mitigated: 3, resolved: 4, note: 5, lastSeen: 6 };

/** Error first/last-seen times this far from the incident belong to a longer history, told in Contributing factors. */
const NEAR_MS = DAY_MS;

export function buildTimeline(
  incident: IncidentDocument,
  issues: readonly ErrorIssueDocument[],
  withIssueEvents: boolean,
): TimelineEvent[] {
  const events: (TimelineEvent & { rank: number; seq: number })[] = [];
  const add = (at: string | undefined, rank: number, text: string, sources: ProjectDocument[]) => {
    if (at) events.push({ at, rank, text, sources, seq: events.length });
  };
  add(incident.startedAt, ORDER.started, 'Incident started', [incident]);
  add(incident.detectedAt, ORDER.detected, 'Incident detected', [incident]);
  add(incident.mitigatedAt, ORDER.mitigated, 'Impact mitigated', [incident]);
  add(incident.resolvedAt, ORDER.resolved, 'Incident resolved', [incident]);
  for (const note of incident.timeline ?? []) add(note.at, ORDER.note, oneLine(note.text), [incident]);
  if (withIssueEvents) {
    const start = toMillis(incident.startedAt);
    const end = toMillis(incident.resolvedAt ?? incident.mitigatedAt ?? incident.startedAt);
    for (const issue of issues) {
      const release = issue.release ? `, release ${issue.release}` : '';
      if (Math.abs(toMillis(issue.firstSeen) - start) <= NEAR_MS)
        add(issue.firstSeen, ORDER.firstSeen, `First ${issue.issueId} error: ${oneLine(issue.title)}${release}`, [issue]);
      if (Math.abs(toMillis(issue.lastSeen) - end) <= NEAR_MS) add(issue.lastSeen, ORDER.lastSeen, `Last ${issue.issueId} error`, [issue]);
    }
  }
  return events
    .sort((a, b) => toMillis(a.at) - toMillis(b.at) || a.rank - b.rank || a.seq - b.seq)
    .map(({ at, text, sources }) => ({ at, text, sources }));
}

export interface Durations {
  /** startedAt → detectedAt. */
  detect?: number;
  /** startedAt → mitigatedAt. */
  mitigate?: number;
  /** startedAt → resolvedAt; absent while unresolved. */
  resolve?: number;
  /** Earliest first error of a linked issue → detectedAt, when errors came first. */
  firstErrorToDetect?: { ms: number; issue: ErrorIssueDocument };
}

export function computeDurations(incident: IncidentDocument, linkedIssues: readonly ErrorIssueDocument[]): Durations {
  const start = toMillis(incident.startedAt);
  const since = (at: string | undefined) => (at ? toMillis(at) - start : undefined);
  const out: Durations = {};
  const [detect, mitigate, resolve] = [since(incident.detectedAt), since(incident.mitigatedAt), since(incident.resolvedAt)];
  if (detect !== undefined) out.detect = detect;
  if (mitigate !== undefined) out.mitigate = mitigate;
  if (resolve !== undefined) out.resolve = resolve;
  const first = [...linkedIssues].sort((a, b) => toMillis(a.firstSeen) - toMillis(b.firstSeen))[0];
  if (first && incident.detectedAt) {
    const ms = toMillis(incident.detectedAt) - toMillis(first.firstSeen);
    if (ms > 0 && ms <= DAY_MS) out.firstErrorToDetect = { ms, issue: first };
  }
  return out;
}
