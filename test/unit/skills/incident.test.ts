import assert from 'node:assert/strict';
import type { IncidentDocument } from '../../../src/skills/documents';
import { buildTimeline, computeDurations } from '../../../src/skills/incident/timeline';
import type { SkillResult } from '../../../src/skills/result';
import { selectAndDraft } from '../../../src/skills/run';
import { formatDuration } from '../../../src/skills/time';
import { CASES, retrievedFor, runCase, type DemoCase } from './cases';
import { DEMO_NOW } from './demo';

const result = (name: string) => runCase(CASES.find((c) => c.skill === 'incident_rca' && c.name === name) as DemoCase);
const sectionOf = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)!;
const RCA = ['Summary', 'Impact', 'Timeline', 'Root cause', 'Contributing factors', 'Fix', 'Follow-up actions'];

const incident: IncidentDocument = {
  kind: 'incident',
  externalId: 'INC-1',
  title: 'Outage',
  body: '',
  createdAt: '2025-01-01T10:00:00Z',
  incidentId: 'INC-1',
  severity: 'SEV-2',
  status: 'resolved',
  startedAt: '2025-01-01T10:00:00Z',
  detectedAt: '2025-01-01T10:12:30Z',
  mitigatedAt: '2025-01-01T11:05:00Z',
  resolvedAt: '2025-01-02T13:00:00Z',
  services: ['api'],
  timeline: [
    { at: '2025-01-01T10:30:00Z', text: 'Rolled back' },
    { at: '2025-01-01T09:55:00Z', text: 'Deploy started' },
  ],
};

describe('skills: incident RCA', () => {
  it('computes time to detect, mitigate and resolve from the timestamps', () => {
    const d = computeDurations(incident, []);
    assert.deepEqual(
      [d.detect, d.mitigate, d.resolve].map((ms) => formatDuration(ms!)),
      ['12 min', '1 h 5 min', '1 d 3 h'],
    );
    assert.equal(formatDuration(45_000), '45 s');
    assert.equal(formatDuration(2 * 3600_000), '2 h');
  });

  it('rebuilds the timeline in time order, notes included', () => {
    const events = buildTimeline(incident, [], false);
    assert.deepEqual(
      events.map((e) => e.text),
      ['Deploy started', 'Incident started', 'Incident detected', 'Rolled back', 'Impact mitigated', 'Incident resolved'],
    );
    const times = events.map((e) => Date.parse(e.at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
  });

  it('writes the demo SEV-1 timeline with error first/last seen and durations', () => {
    const timeline = sectionOf(result('sev1-INC-2025-014'), 'Timeline').markdownWithCitations;
    const rows = timeline.split('\n').filter((l) => /^\| \d{4}/.test(l));
    const stamps = rows.map((r) => r.slice(2, 18));
    assert.deepEqual(stamps, [...stamps].sort());
    assert.match(rows[1], /First SENTRY-88 error/);
    assert.match(timeline, /Time to detect: 18 min \(started 14:07 → detected 14:25\)/);
    assert.match(timeline, /Time to mitigate: 51 min/);
    assert.match(timeline, /Time to resolve: 2 h 33 min/);
  });

  it('scales depth with severity: SEV-1 adds a customer-facing summary, SEV-3 is short', () => {
    const sev1 = result('sev1-INC-2025-014');
    const sev2 = result('sev2-INC-2025-014');
    const sev3 = result('sev3-INC-2025-022');
    assert.deepEqual(
      sev1.sections.map((s) => s.heading),
      [...RCA, 'Customer-facing summary'],
    );
    assert.deepEqual(
      sev2.sections.map((s) => s.heading),
      RCA,
    );
    assert.deepEqual(
      sev3.sections.map((s) => s.heading),
      RCA,
    );
    assert.ok(sev3.markdown.length < sev1.markdown.length / 1.5);
    assert.match(sectionOf(sev2, 'Summary').markdownWithCitations, /classifies it as SEV-1; this analysis is written at SEV-2 depth/);
    assert.doesNotMatch(sectionOf(sev1, 'Customer-facing summary').markdownWithCitations, /SENTRY|checkout-api|\.ts\b/);
  });

  it('8. keeps the customer-facing summary free of internal sources: no link, footnote or marker, the source named in its citations only', () => {
    const sev1 = result('sev1-INC-2025-014');
    const customer = sectionOf(sev1, 'Customer-facing summary');
    assert.doesNotMatch(customer.markdown, /\]\(|https?:|\[\^\d+\]|pagerduty/i, 'a status page can take it as it is');
    assert.doesNotMatch(customer.markdownWithCitations, /\[[a-z_]+:[^\]]+\]/, 'no citation marker either');
    assert.deepEqual(customer.citations, ['incident:INC-2025-014'], 'the result still says where it comes from');
    const published = sev1.markdown.slice(sev1.markdown.indexOf('## Customer-facing summary'));
    assert.doesNotMatch(published, /pagerduty|\[\^\d+\]/);
    assert.match(
      sectionOf(sev1, 'Summary').markdown,
      /\(\[INC-2025-014\]\(https:\/\/acme\.pagerduty\.com\/incidents\/INC-2025-014\)\)/,
      'the internal sections cite it',
    );
  });

  it('takes the root cause from the record, else labels a hypothesis from the busiest linked issue', () => {
    assert.match(sectionOf(result('sev1-INC-2025-014'), 'Root cause').markdownWithCitations, /^Release 2\.1\.0 retried payment captures/);
    assert.match(
      sectionOf(result('sev3-INC-2025-022'), 'Root cause').markdownWithCitations,
      /^\*\*Hypothesis\*\* \(the incident record names no root cause\).*SENTRY-102/,
    );
  });

  it('finds contributing issues by service, busiest first, and labels unlinked ones as hypotheses', () => {
    const r = result('sev1-INC-2025-014');
    const factors = sectionOf(r, 'Contributing factors').markdownWithCitations.split('\n');
    assert.deepEqual(
      factors.slice(0, 3).map((l) => /\(SENTRY-\d+\)/.exec(l)?.[0]),
      ['(SENTRY-88)', '(SENTRY-73)', '(SENTRY-91)'],
    );
    assert.match(factors[1], /^- \*\*Hypothesis:\*\*/);
    assert.match(factors[3], /^- From the incident notes: The checkout alert fires only above a 25% error rate/);
    assert.match(r.retrieval.excluded.find((e) => e.id === 'error_issue:SENTRY-40')!.reason, /^not active during the incident/);
  });

  it('types every follow-up action and leaves the owner for a person', () => {
    const rows = sectionOf(result('sev1-INC-2025-014'), 'Follow-up actions')
      .markdownWithCitations.split('\n')
      .filter((l) => /^\| (prevent|detect|mitigate) \|/.test(l));
    assert.ok(rows.length >= 3);
    for (const type of ['prevent', 'detect', 'mitigate'])
      assert.ok(
        rows.some((r) => r.startsWith(`| ${type} |`)),
        type,
      );
    for (const row of rows) assert.equal(row.split(' | ')[2], '', `owner empty in ${row}`);
    assert.ok(
      sectionOf(result('sev3-INC-2025-022'), 'Follow-up actions')
        .markdownWithCitations.split('\n')
        .filter((l) => /^\| (prevent|detect|mitigate) \|/.test(l)).length <= 3,
    );
  });

  it('takes the fix from the resolution and the runbooks’ steps', () => {
    const fix = sectionOf(result('sev1-INC-2025-014'), 'Fix').markdownWithCitations;
    assert.match(fix, /^Rolled back checkout-api and payments-worker to 2\.0\.0 at 14:58/);
    assert.match(fix, /\*\*Roll back checkout-api\*\* \(checkout-api\) \[runbook:rb-checkout-rollback\]\n\n1\. Confirm the bad release/);
  });

  it('says an unresolved incident is ongoing as of now', () => {
    const open = { ...incident, resolvedAt: undefined, status: 'investigating' };
    const r = selectAndDraft('incident_rca', { incidentId: 'INC-1', severity: 'SEV-3' }, [open], DEMO_NOW);
    assert.match(sectionOf(r, 'Timeline').markdownWithCitations, /Time to resolve: not resolved as of 2025-06-01 09:00 UTC/);
  });

  it('refuses to draft without the incident', () => {
    const docs = retrievedFor(CASES.find((c) => c.name === 'sev3-INC-2025-022')!).filter((d) => d.kind !== 'incident');
    assert.throws(() => selectAndDraft('incident_rca', { incidentId: 'INC-2025-022', severity: 'SEV-3' }, docs, DEMO_NOW), /INC-2025-022/);
  });
});
