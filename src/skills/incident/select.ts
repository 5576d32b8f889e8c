/** Which error issues and runbooks an RCA discusses, and why the others are left out. */
import { citationId } from '../citation-id';
import type { ErrorIssueDocument, IncidentDocument, ProjectDocument, RunbookDocument } from '../documents';
import type { IncidentRcaInputs } from './definition';
import { compareText } from '../text';
import { formatDate, toMillis } from '../time';
import { DEPTH } from './depth';

export interface IncidentSelection {
  incident: IncidentDocument;
  /** Busiest first. */
  issues: ErrorIssueDocument[];
  /** Issue ids the incident record links; the others were found by service and are hypotheses. */
  linked: Set<string>;
  runbooks: RunbookDocument[];
  reasons: Map<string, string>;
}

/** Errors that started shortly before the incident was declared started still belong to it. */
const LEAD_IN_MS = 60 * 60 * 1000;

const byCount = (a: ErrorIssueDocument, b: ErrorIssueDocument) => b.count - a.count || compareText(a.issueId, b.issueId);

export function selectIncidentDocuments(inputs: IncidentRcaInputs, docs: readonly ProjectDocument[], now: string): IncidentSelection {
  const incident = docs.find((d): d is IncidentDocument => d.kind === 'incident' && d.incidentId === inputs.incidentId);
  if (!incident) throw new Error(`incident ${inputs.incidentId} is not among the retrieved documents`);
  const depth = DEPTH[inputs.severity];
  const reasons = new Map<string, string>();
  for (const other of docs) if (other.kind === 'incident' && other !== incident) reasons.set(citationId(other), 'a different incident');

  const linked = new Set(incident.errorIssueIds ?? []);
  const services = new Set(incident.services);
  const windowStart = toMillis(incident.startedAt) - LEAD_IN_MS;
  const windowEnd = toMillis(incident.resolvedAt ?? now);
  const issues = docs.filter((d): d is ErrorIssueDocument => d.kind === 'error_issue').sort(byCount);
  const linkedIssues = issues.filter((i) => linked.has(i.issueId));
  const room = Math.max(0, depth.issues - linkedIssues.length);
  const candidates: ErrorIssueDocument[] = [];
  for (const issue of issues) {
    if (linked.has(issue.issueId)) continue;
    const id = citationId(issue);
    if (!issue.service || !services.has(issue.service)) reasons.set(id, 'another service');
    else if (toMillis(issue.lastSeen) < windowStart || toMillis(issue.firstSeen) > windowEnd)
      reasons.set(id, `not active during the incident (seen ${formatDate(issue.firstSeen)} to ${formatDate(issue.lastSeen)})`);
    else if (candidates.length >= room)
      reasons.set(id, `fewer events than the ${depth.issues} issues discussed at ${inputs.severity} depth`);
    else candidates.push(issue);
  }

  const linkedRunbooks = new Set(incident.runbookIds ?? []);
  const runbooks: RunbookDocument[] = [];
  const allRunbooks = docs
    .filter((d): d is RunbookDocument => d.kind === 'runbook')
    .sort(
      (a, b) =>
        Number(linkedRunbooks.has(b.externalId)) - Number(linkedRunbooks.has(a.externalId)) || compareText(a.externalId, b.externalId),
    );
  for (const rb of allRunbooks) {
    const id = citationId(rb);
    if (linkedRunbooks.has(rb.externalId)) runbooks.push(rb);
    else if (!services.has(rb.service)) reasons.set(id, 'another service');
    else if (runbooks.length >= depth.runbooks) reasons.set(id, `beyond the ${depth.runbooks} runbooks shown at ${inputs.severity} depth`);
    else runbooks.push(rb);
  }

  return { incident, issues: [...linkedIssues, ...candidates].sort(byCount), linked, runbooks, reasons };
}
