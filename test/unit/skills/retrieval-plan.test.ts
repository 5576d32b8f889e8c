import assert from 'node:assert/strict';
import { resolveQueries } from '../../../src/skills/retrieval-plan';
import { retrievalPlan } from '../../../src/skills/run';
import { semverKey } from '../../../src/skills/semver';
import { CASES, retrievedFor } from './cases';

describe('skills: retrieval plans', () => {
  it('release notes: commits, PRs and tickets in (from, to] by version key, releases from..to; then who contributed before', () => {
    const plan = retrievalPlan('release_notes_composer', { fromVersion: '1.9.0', toVersion: '1.10.0' });
    assert.equal(plan.steps.length, 2);
    const byKind = Object.fromEntries(plan.steps[0].queries.map((q) => [q.kind, q.where]));
    const range = { gt: semverKey('1.9.0'), lte: semverKey('1.10.0') };
    assert.deepEqual(byKind.commit, [{ field: 'versionKey', op: 'range', value: range }]);
    assert.deepEqual(byKind.pull_request, [{ field: 'versionKey', op: 'range', value: range }]);
    assert.deepEqual(byKind.ticket, [{ field: 'fixVersionKey', op: 'range', value: range }]);
    assert.deepEqual(byKind.release, [{ field: 'versionKey', op: 'range', value: { gte: range.gt, lte: range.lte } }]);
    // One query per author (and kind), limit 1: "any commit or pull request of theirs up to fromVersion?"
    const fetched = [
      { kind: 'commit', author: 'Ada' },
      { kind: 'commit', author: 'Bo' },
      { kind: 'pull_request', author: 'Ada' },
    ] as never[];
    const earlier = resolveQueries(plan.steps[1]!, fetched);
    assert.deepEqual(
      earlier.map((q) => [q.kind, q.where, q.limit]),
      [
        [
          'commit',
          [
            { field: 'author', op: 'eq', value: 'Ada' },
            { field: 'versionKey', op: 'range', value: { lte: range.gt } },
          ],
          1,
        ],
        [
          'commit',
          [
            { field: 'author', op: 'eq', value: 'Bo' },
            { field: 'versionKey', op: 'range', value: { lte: range.gt } },
          ],
          1,
        ],
        [
          'pull_request',
          [
            { field: 'author', op: 'eq', value: 'Ada' },
            { field: 'versionKey', op: 'range', value: { lte: range.gt } },
          ],
          1,
        ],
        [
          'pull_request',
          [
            { field: 'author', op: 'eq', value: 'Bo' },
            { field: 'versionKey', op: 'range', value: { lte: range.gt } },
          ],
          1,
        ],
      ],
    );
    const many = Array.from({ length: 150 }, (_, i) => ({ kind: 'commit', author: `a${String(i).padStart(3, '0')}` })) as never[];
    assert.equal(resolveQueries(plan.steps[1]!, many).length, 2 * 100, 'at most EACH_MAX authors are asked about');
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
