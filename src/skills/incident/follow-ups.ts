/**
 * Follow-up actions, each typed (prevent / detect / mitigate) and traced to the documents that call for it.
 * The owner is left for a person to fill: assigning work is not the drafter's call.
 */
import type { ErrorIssueDocument, IncidentDocument, ProjectDocument, RunbookDocument } from '../documents';
import { oneLine } from '../markdown';
import { formatDuration } from '../time';
import type { Durations } from './timeline';

export type FollowUpType = 'prevent' | 'detect' | 'mitigate';

export interface FollowUp {
  type: FollowUpType;
  action: string;
  owner: '';
  sources: ProjectDocument[];
}

/** Detection slower than this is worth an action of its own. */
const SLOW_DETECTION_MS = 5 * 60 * 1000;

export interface FollowUpFacts {
  incident: IncidentDocument;
  issues: readonly ErrorIssueDocument[];
  linked: ReadonlySet<string>;
  runbooks: readonly RunbookDocument[];
  durations: Durations;
  limit: number;
}

export function followUps(f: FollowUpFacts): FollowUp[] {
  const out: FollowUp[] = [];
  const add = (type: FollowUpType, action: string, sources: ProjectDocument[]) => out.push({ type, action, owner: '', sources });

  for (const issue of f.issues) {
    const where = issue.culprit ? ` in ${oneLine(issue.culprit)}` : '';
    if (f.linked.has(issue.issueId))
      add('prevent', `Fix the cause of ${issue.issueId} (${oneLine(issue.title)})${where} and add a test that reproduces it.`, [issue]);
    else add('prevent', `Confirm whether ${issue.issueId} (${oneLine(issue.title)}) contributed; fix it if it did.`, [issue]);
  }

  const detect = f.durations.detect;
  const early = f.durations.firstErrorToDetect;
  if (early && early.ms > SLOW_DETECTION_MS) {
    add(
      'detect',
      `Alert on the errors themselves: the first ${early.issue.issueId} error came ${formatDuration(early.ms)} before the incident was detected.`,
      [f.incident, early.issue],
    );
  } else if (detect !== undefined && detect > SLOW_DETECTION_MS) {
    add('detect', `Detect sooner on ${f.incident.services.join(', ')}: detection took ${formatDuration(detect)} from the start.`, [
      f.incident,
    ]);
  }

  for (const rb of f.runbooks)
    add(
      'mitigate',
      `Rehearse the runbook "${oneLine(rb.title)}" (${rb.steps.length} steps) for ${rb.service} and update it with what this incident taught.`,
      [rb],
    );
  const covered = new Set(f.runbooks.map((r) => r.service));
  for (const service of f.incident.services)
    if (!covered.has(service)) add('mitigate', `Write a runbook for ${service}: none was found.`, [f.incident]);

  // Keep a mix when the list is cut: the first of each type, then the rest in order.
  const firsts = (['prevent', 'detect', 'mitigate'] as const)
    .map((t) => out.find((a) => a.type === t))
    .filter((a): a is FollowUp => a !== undefined);
  const kept = [...firsts, ...out.filter((a) => !firsts.includes(a))].slice(0, f.limit);
  return out.filter((a) => kept.includes(a));
}
