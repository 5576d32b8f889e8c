import assert from 'node:assert/strict';
import { resolveQueries } from '../../../src/skills/retrieval-plan';
import { retrievalPlan } from '../../../src/skills/run';
import { semverKey } from '../../../src/skills/semver';
import { CASES, retrievedFor } from './cases';

describe('skills: retrieval plans', () => {
  it('release notes: commits, PRs and tickets in (from, to] by version key, marked for first contributions, releases from..to; then, before the tag, what is unreleased', () => {
    const plan = retrievalPlan('release_notes_composer', { fromVersion: '1.9.0', toVersion: '1.10.0' });
    assert.equal(plan.steps.length, 2);
    const byKind = Object.fromEntries(plan.steps[0].queries.map((q) => [q.kind, q]));
    const range = { gt: semverKey('1.9.0'), lte: semverKey('1.10.0') };
    assert.deepEqual(byKind.commit!.where, [{ field: 'versionKey', op: 'range', value: range }]);
    assert.deepEqual(byKind.pull_request!.where, [{ field: 'versionKey', op: 'range', value: range }]);
    assert.deepEqual(byKind.ticket!.where, [{ field: 'fixVersionKey', op: 'range', value: range }]);
    assert.deepEqual(byKind.release!.where, [{ field: 'versionKey', op: 'range', value: { gte: range.gt, lte: range.lte } }]);
    // The store marks first contributions from its index: no query per author.
    assert.deepEqual(byKind.commit!.mark, ['firstContribution']);
    assert.deepEqual(byKind.pull_request!.mark, ['firstContribution']);
    // Unreleased changes, newest first, only when nothing fetched says toVersion is tagged.
    const unreleased = (fetched: unknown[]) =>
      resolveQueries(plan.steps[1]!, fetched as never[]).map((q) => [q.kind, q.where, q.sort, q.mark]);
    const asked = [
      ['commit', [{ field: 'versionKey', op: 'absent' }], [{ field: 'createdAt', order: 'desc' }], ['firstContribution']],
      ['pull_request', [{ field: 'versionKey', op: 'absent' }], [{ field: 'createdAt', order: 'desc' }], ['firstContribution']],
    ];
    assert.deepEqual(unreleased([{ kind: 'release', version: '1.9.0' }]), asked, 'only the lower release is tagged: a draft');
    assert.deepEqual(unreleased([{ kind: 'release', version: '1.10.0' }]), [], 'toVersion has its release');
    assert.deepEqual(unreleased([{ kind: 'commit', version: '1.10.0' }]), [], 'a change first shipped in toVersion says it is tagged');
  });

  it('proposals: the whole library of wins, case studies and sales notes, newest first', () => {
    const plan = retrievalPlan('proposal_writer', { customerName: 'X', format: 'email' });
    assert.deepEqual(
      plan.steps[0].queries.map((q) => [q.kind, q.where.length, q.sort]),
      [
        ['case_study', 0, [{ field: 'date', order: 'desc' }]],
        ['win', 0, [{ field: 'date', order: 'desc' }]],
        ['sales_note', 0, [{ field: 'date', order: 'desc' }]],
      ],
    );
  });

  it('incidents: the incident, then its issues and runbooks by id and by service', () => {
    const plan = retrievalPlan('incident_rca', { incidentId: 'INC-7', severity: 'SEV-2' });
    assert.deepEqual(plan.steps[0].queries, [{ kind: 'incident', where: [{ field: 'incidentId', op: 'eq', value: 'INC-7' }], limit: 1 }]);
    const incident = {
      kind: 'incident' as const,
      externalId: 'INC-7',
      title: 't',
      body: '',
      createdAt: '2025-01-01T00:00:00Z',
      incidentId: 'INC-7',
      severity: 'SEV-2',
      status: 'resolved',
      startedAt: '2025-01-01T00:00:00Z',
      services: ['api', 'worker'],
      errorIssueIds: ['S-1'],
      runbookIds: [],
    };
    const queries = resolveQueries(plan.steps[1], [incident]);
    assert.deepEqual(
      queries.map((q) => [q.kind, q.where]),
      [
        ['error_issue', [{ field: 'issueId', op: 'in', value: ['S-1'] }]],
        ['error_issue', [{ field: 'service', op: 'in', value: ['api', 'worker'] }]],
        ['runbook', [{ field: 'service', op: 'in', value: ['api', 'worker'] }]],
      ],
      'the runbook-by-id query is dropped: no ids, nothing to match',
    );
  });

  it('retrieves from the demo project what each skill needs', () => {
    const kinds = (name: string) => new Set(retrievedFor(CASES.find((c) => c.name === name)!).map((d) => d.kind));
    assert.deepEqual([...kinds('neutral-1.2.1-2.0.0')].sort(), ['commit', 'pull_request', 'release', 'ticket']);
    assert.deepEqual([...kinds('sev1-INC-2025-014')].sort(), ['error_issue', 'incident', 'runbook']);
  });
});
