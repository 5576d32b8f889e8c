/** The deterministic incident RCA: the sections in order, every statement traced to the record, an issue or a runbook. */
import { assembleResult } from '../assemble';
import { citationId } from '../citation-id';
import type { ErrorIssueDocument, ProjectDocument } from '../documents';
import { bulletList, cellText, cite, citeAll, escapeText, oneLine, renderDocument, section } from '../markdown';
import type { DraftSection, SkillResult } from '../result';
import { asSentence, firstSentence, formatCount, joinList } from '../text';
import { formatClock, formatDate, formatDuration, formatTimestamp, toMillis } from '../time';
import type { DocumentKind } from '../types';
import { incidentRca, type IncidentRcaInputs } from './definition';
import { CUSTOMER_SUMMARY, DEPTH, type Depth } from './depth';
import { followUps } from './follow-ups';
import { readNarrative, type IncidentNarrative } from './record';
import type { IncidentSelection } from './select';
import { buildTimeline, computeDurations, type Durations } from './timeline';

/** The headings, in order, from the catalog entry (definition.ts); SEV-1 adds CUSTOMER_SUMMARY after them (depth.ts). */
const [H_SUMMARY, H_IMPACT, H_TIMELINE, H_ROOT_CAUSE, H_CONTRIBUTING, H_FIX, H_FOLLOW_UPS] = incidentRca.output.sections;

interface Context {
  inputs: IncidentRcaInputs;
  sel: IncidentSelection;
  depth: Depth;
  story: IncidentNarrative;
  durations: Durations;
  now: string;
}

const code = (text: string) => `\`${oneLine(text).replace(/`/g, "'")}\``;

function issueName(issue: ErrorIssueDocument): string {
  return `${code(issue.title)} (${escapeText(issue.issueId)})`;
}

function linkedIssues(ctx: Context): ErrorIssueDocument[] {
  return ctx.sel.issues.filter((i) => ctx.sel.linked.has(i.issueId));
}

/** "2 min before the incident started", "at the start", "3 h 5 min after the incident started". */
function relativeToStart(ctx: Context, at: string): string {
  const delta = toMillis(at) - toMillis(ctx.sel.incident.startedAt);
  if (Math.abs(delta) < 60_000) return 'as the incident started';
  return `${formatDuration(Math.abs(delta))} ${delta < 0 ? 'before' : 'after'} the incident started`;
}

function summary(ctx: Context): string {
  const { incident } = ctx.sel;
  const d = ctx.durations;
  const milestones = [
    d.detect !== undefined ? `detected after ${formatDuration(d.detect)}` : '',
    d.mitigate !== undefined ? `mitigated after ${formatDuration(d.mitigate)}` : '',
    d.resolve !== undefined ? `resolved after ${formatDuration(d.resolve)}` : `not resolved as of ${formatTimestamp(ctx.now)}`,
  ].filter(Boolean);
  const lines = [
    `**${escapeText(incident.incidentId)}: ${escapeText(asSentence(oneLine(incident.title)))}** ${escapeText(incident.severity)}, status ${escapeText(incident.status)}. ` +
      `Started ${formatTimestamp(incident.startedAt)} on ${escapeText(joinList(incident.services))}; ${joinList(milestones)}. ${cite(incident)}`,
  ];
  const top = linkedIssues(ctx)[0] ?? ctx.sel.issues[0];
  if (ctx.story.rootCause) lines.push(`Root cause: ${escapeText(firstSentence(ctx.story.rootCause))} ${cite(incident)}`);
  else if (top)
    lines.push(
      `Most likely cause (hypothesis, not confirmed by the incident record): ${issueName(top)}, first seen in ${top.release ? `release ${escapeText(top.release)}` : 'an unrecorded release'}. ${cite(top)}`,
    );
  if (incident.severity.trim().toUpperCase() !== ctx.inputs.severity) {
    lines.push(
      `The incident record classifies it as ${escapeText(incident.severity)}; this analysis is written at ${ctx.inputs.severity} depth. ${cite(incident)}`,
    );
  }
  return lines.join('\n\n');
}

function impact(ctx: Context): string {
  const { incident } = ctx.sel;
  const intro = ctx.story.impact
    ? `${escapeText(ctx.story.impact)} ${cite(incident)}`
    : `The incident record does not describe the impact; the figures below come from the record's timestamps and the error tracker.`;
  const d = ctx.durations;
  const span = [
    d.resolve !== undefined ? `${formatDuration(d.resolve)} from start to resolution` : `ongoing as of ${formatTimestamp(ctx.now)}`,
    d.mitigate !== undefined ? `${formatDuration(d.mitigate)} until mitigation` : '',
  ].filter(Boolean);
  const bullets = [
    `Duration: ${span.join('; ')} ${cite(incident)}`,
    `Services: ${escapeText(incident.services.join(', '))} ${cite(incident)}`,
  ];
  const shown = ctx.depth.customerSummary ? linkedIssues(ctx) : linkedIssues(ctx).slice(0, 1);
  for (const issue of shown) {
    const users = issue.userCount !== undefined ? `, ${formatCount(issue.userCount)} users affected` : '';
    bullets.push(`${escapeText(issue.issueId)}: ${formatCount(issue.count)} error events${users} ${cite(issue)}`);
  }
  return `${intro}\n\n${bulletList(bullets)}`;
}

function timeline(ctx: Context): string {
  const { incident } = ctx.sel;
  const events = buildTimeline(incident, ctx.sel.issues, ctx.depth.issueEventsInTimeline);
  const rows = events.map((e) => `| ${formatTimestamp(e.at).replace(' UTC', '')} | ${cellText(e.text)} | ${citeAll(e.sources)} |`);
  const table = ['| Time (UTC) | Event | Source |', '|---|---|---|', ...rows].join('\n');
  const d = ctx.durations;
  const from = (label: string, at: string | undefined) => (at ? `${label} ${formatClock(at)}` : '');
  const measure = (name: string, ms: number | undefined, endLabel: string, endAt: string | undefined) =>
    ms !== undefined
      ? `${name}: ${formatDuration(ms)} (${from('started', incident.startedAt)} → ${from(endLabel, endAt)}) ${cite(incident)}`
      : `${name}: not recorded ${cite(incident)}`;
  const durations = [
    measure('Time to detect', d.detect, 'detected', incident.detectedAt),
    measure('Time to mitigate', d.mitigate, 'mitigated', incident.mitigatedAt),
    d.resolve !== undefined || incident.resolvedAt
      ? measure('Time to resolve', d.resolve, 'resolved', incident.resolvedAt)
      : `Time to resolve: not resolved as of ${formatTimestamp(ctx.now)} ${cite(incident)}`,
  ];
  if (d.firstErrorToDetect) {
    const { ms, issue } = d.firstErrorToDetect;
    durations.push(
      `First error to detection: ${formatDuration(ms)} (first ${escapeText(issue.issueId)} error ${formatClock(issue.firstSeen)} → detected ${formatClock(incident.detectedAt!)}) ${citeAll([issue, incident])}`,
    );
  }
  return `${table}\n\n${bulletList(durations)}`;
}

function evidenceFor(ctx: Context, issue: ErrorIssueDocument): string {
  const release = issue.release ? `first seen in release ${escapeText(issue.release)}` : 'first seen';
  const where = issue.culprit ? ` in ${code(issue.culprit)}` : '';
  return `${issueName(issue)}${where}, ${release} at ${formatTimestamp(issue.firstSeen)}, ${relativeToStart(ctx, issue.firstSeen)}; ${formatCount(issue.count)} events`;
}

function rootCause(ctx: Context): string {
  const { incident } = ctx.sel;
  const top = linkedIssues(ctx)[0];
  if (ctx.story.rootCause) {
    const support = top ? `\n\nSupporting evidence from the error tracker: ${evidenceFor(ctx, top)}. ${cite(top)}` : '';
    return `${escapeText(ctx.story.rootCause)} ${cite(incident)}${support}`;
  }
  const candidate = top ?? ctx.sel.issues[0];
  if (!candidate)
    return `The incident record names no root cause and no error issue points to one; the cause is still to be established. ${cite(incident)}`;
  return (
    `**Hypothesis** (the incident record names no root cause): the failure comes from ${evidenceFor(ctx, candidate)}. ${cite(candidate)}\n\n` +
    `Confirm or replace this hypothesis in the review.`
  );
}

function contributingFactors(ctx: Context): string {
  const { incident } = ctx.sel;
  const items = ctx.sel.issues.map((issue) => {
    const users = issue.userCount !== undefined ? `, ${formatCount(issue.userCount)} users` : '';
    const release = issue.release ? `, first seen in release ${escapeText(issue.release)}` : '';
    const service = issue.service ? ` on ${escapeText(issue.service)}` : '';
    const where = issue.culprit ? ` in ${code(issue.culprit)}` : '';
    const facts = `${issueName(issue)}${where}${service}: ${formatCount(issue.count)} events${users}${release} (${formatTimestamp(issue.firstSeen)})`;
    return ctx.sel.linked.has(issue.issueId)
      ? `${facts}. ${cite(issue)}`
      : `**Hypothesis:** ${facts}; active during the incident on an affected service but not linked to it. ${cite(issue)}`;
  });
  for (const note of ctx.story.notes) items.push(`From the incident notes: ${escapeText(note)} ${cite(incident)}`);
  if (items.length === 0)
    return `No error issue was active on ${escapeText(joinList(incident.services))} during the incident, and the record has no notes. ${cite(incident)}`;
  return bulletList(items);
}

function fix(ctx: Context): string {
  const { incident } = ctx.sel;
  const resolution = ctx.story.resolution
    ? `${escapeText(ctx.story.resolution)} ${cite(incident)}`
    : `The incident record does not describe the fix. ${cite(incident)}`;
  if (ctx.sel.runbooks.length === 0) return resolution;
  const runbooks = ctx.sel.runbooks.map((rb) => {
    const steps = rb.steps.map((s, i) => `${i + 1}. ${escapeText(oneLine(s))}`).join('\n');
    return `**${escapeText(oneLine(rb.title))}** (${escapeText(rb.service)}) ${cite(rb)}\n\n${steps}`;
  });
  return `${resolution}\n\nRunbooks for the affected services:\n\n${runbooks.join('\n\n')}`;
}

function followUpActions(ctx: Context): string {
  const actions = followUps({
    incident: ctx.sel.incident,
    issues: ctx.sel.issues,
    linked: ctx.sel.linked,
    runbooks: ctx.sel.runbooks,
    durations: ctx.durations,
    limit: ctx.depth.followUps,
  });
  const rows = actions.map((a) => `| ${a.type} | ${cellText(a.action)} | ${a.owner} | ${citeAll(a.sources)} |`);
  return ['Owners are left blank for the review to assign.', '', '| Type | Action | Owner | Source |', '|---|---|---|---|', ...rows].join(
    '\n',
  );
}

/**
 * What a status page can say: when, what customers noticed, that it is fixed. It links nothing: every source is
 * the incident tool's internal page, which customers cannot open (the internal sections above cite it). The
 * section still names the incident as its source in `citations`, so a reader of the result can trace it.
 */
function customerSummary(ctx: Context): DraftSection {
  const { incident } = ctx.sel;
  const day = formatDate(incident.startedAt);
  // Times on the day the incident started read as times; a later day is named.
  const when = (at: string) => (formatDate(at) === day ? `${formatClock(at)} UTC` : formatTimestamp(at));
  const lines = [`On ${day}, starting at ${formatClock(incident.startedAt)} UTC, some of our services were disrupted.`];
  if (incident.mitigatedAt && incident.resolvedAt) {
    lines.push(
      `Service was restored at ${when(incident.mitigatedAt)}, and the incident was fully resolved at ${when(incident.resolvedAt)}.`,
    );
  } else if (incident.mitigatedAt) lines.push(`Service was restored at ${when(incident.mitigatedAt)}.`);
  else if (incident.resolvedAt) lines.push(`The incident was resolved at ${when(incident.resolvedAt)}.`);
  const what = ctx.story.impact ? `\n\nWhat you may have noticed: ${escapeText(ctx.story.impact)}` : '';
  const cause = !ctx.story.rootCause
    ? 'We are still confirming the cause.'
    : ctx.story.resolution && incident.resolvedAt
      ? 'We have identified the cause and fixed it.'
      : 'We have identified the cause.';
  return {
    ...section(CUSTOMER_SUMMARY, `${lines.join(' ')}${what}\n\n${cause} We apologise for the disruption.`),
    citations: [citationId(incident)],
  };
}

export function draftIncidentRca(
  inputs: IncidentRcaInputs,
  sel: IncidentSelection,
  documents: readonly ProjectDocument[],
  searchedKinds: readonly DocumentKind[],
  now: string,
): SkillResult {
  const depth = DEPTH[inputs.severity];
  const ctx: Context = {
    inputs,
    sel,
    depth,
    story: readNarrative(sel.incident.body),
    durations: computeDurations(
      sel.incident,
      sel.issues.filter((i) => sel.linked.has(i.issueId)),
    ),
    now,
  };
  const sections: DraftSection[] = [
    section(H_SUMMARY, summary(ctx)),
    section(H_IMPACT, impact(ctx)),
    section(H_TIMELINE, timeline(ctx)),
    section(H_ROOT_CAUSE, rootCause(ctx)),
    section(H_CONTRIBUTING, contributingFactors(ctx)),
    section(H_FIX, fix(ctx)),
    section(H_FOLLOW_UPS, followUpActions(ctx)),
    ...(depth.customerSummary ? [customerSummary(ctx)] : []),
  ];
  return assembleResult({
    title: `Incident RCA: ${escapeText(sel.incident.incidentId)}, ${escapeText(oneLine(sel.incident.title))}`,
    sections,
    render: renderDocument,
    documents,
    searchedKinds,
    reasons: sel.reasons,
    generator: 'deterministic',
  });
}
