/** What POST …/documents accepts: what clients have, not more; misspelt fields are still refused by name. */
import assert from 'node:assert/strict';
import { screenDocuments } from '../../../src/documents/screen';
import type { ProjectDocument } from '../../../src/skills/documents';
import { selectAndDraft } from '../../../src/skills/run';
import { RETAIL } from './cases';
import { DEMO_NOW, loadDemoDocuments } from './demo';

const NOW = new Date('2026-01-05T12:00:00.000Z');
const screen = (doc: Record<string, unknown>) => screenDocuments([doc], NOW);

describe('skills: documents as clients send them', () => {
  it('createdAt defaults to the document’s own time, else the upload time', () => {
    const base = { externalId: 'x', title: 'T', body: '' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, kind: 'commit', sha: 'abcdef1', author: 'A', committedAt: '2025-01-02T03:04:05Z' }, '2025-01-02T03:04:05Z'],
      [{ ...base, kind: 'pull_request', number: 1, author: 'A', mergedAt: '2025-02-01T00:00:00Z' }, '2025-02-01T00:00:00Z'],
      [{ ...base, kind: 'pull_request', number: 2, author: 'A' }, NOW.toISOString()],
      [{ ...base, kind: 'ticket', key: 'W-1', type: 'bug', status: 'Done', resolvedAt: '2025-03-01T00:00:00Z' }, '2025-03-01T00:00:00Z'],
      [{ ...base, kind: 'release', version: '1.0.0', releasedAt: '2025-04-01T00:00:00Z' }, '2025-04-01T00:00:00Z'],
      [{ ...base, kind: 'win', customer: 'C', industry: 'Retail', date: '2025-05-01T00:00:00Z' }, '2025-05-01T00:00:00Z'],
      [
        {
          ...base,
          kind: 'incident',
          incidentId: 'I',
          severity: 'SEV-1',
          status: 'resolved',
          startedAt: '2025-06-01T00:00:00Z',
          services: ['api'],
        },
        '2025-06-01T00:00:00Z',
      ],
      [
        { ...base, kind: 'error_issue', issueId: 'E', firstSeen: '2025-07-01T00:00:00Z', lastSeen: '2025-07-02T00:00:00Z', count: 1 },
        '2025-07-01T00:00:00Z',
      ],
      [{ ...base, kind: 'runbook', service: 'api', steps: ['a'] }, NOW.toISOString()],
      [{ ...base, kind: 'runbook', service: 'api', steps: ['a'], createdAt: '2024-01-01T00:00:00Z' }, '2024-01-01T00:00:00Z'],
    ];
    for (const [doc, createdAt] of cases) {
      const { accepted, rejected } = screen(doc);
      assert.deepEqual(rejected, [], JSON.stringify(doc));
      assert.equal(accepted[0]!.createdAt, createdAt, String(doc.kind));
    }
  });

  it('empty optional text fields count as absent; a sales note needs no customer', () => {
    const note = { kind: 'sales_note', externalId: 'sn', title: 'Call', body: 'Notes', industry: 'Retail', date: '2025-01-01T00:00:00Z' };
    for (const over of [{}, { customer: '' }, { outcome: '' }, { url: '' }, { customer: '', outcome: '', createdAt: '' }]) {
      const { accepted, rejected } = screen({ ...note, ...over });
      assert.deepEqual(rejected, [], JSON.stringify(over));
      assert.ok(!('customer' in accepted[0]!) && !('outcome' in accepted[0]!) && !('url' in accepted[0]!), JSON.stringify(accepted[0]));
    }
    assert.deepEqual(
      screen({ ...note, kind: 'win', customer: '' }).rejected[0]!.errors.map((e) => e.path),
      ['/customer'],
      'a win still names its customer',
    );
  });

  it('still refuses misspelt fields, naming them, and links other than http(s) and mailto', () => {
    const commit = {
      kind: 'commit',
      externalId: 'c',
      title: 'T',
      body: '',
      sha: 'abcdef1',
      author: 'A',
      committedAt: '2025-01-01T00:00:00Z',
    };
    assert.match(screen({ ...commit, commitedAt: 'x' }).rejected[0]!.errors[0]!.message, /unknown member "commitedAt"/);
    assert.deepEqual(
      screen({ ...commit, createdat: '2025-01-01T00:00:00Z' }).rejected[0]!.errors.map((e) => e.path),
      ['/createdat'],
    );
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'http://', 'https://x y']) {
      assert.deepEqual(
        screen({ ...commit, url }).rejected[0]?.errors.map((e) => e.path),
        ['/url'],
        url,
      );
    }
    for (const url of ['https://github.com/o/r/commit/abc', 'http://intranet/x?y=1#z', 'mailto:ops@acme.test'])
      assert.deepEqual(screen({ ...commit, url }).rejected, [], url);
  });

  it('a stored sales note without a customer takes part in a proposal like any other', () => {
    const { accepted } = screen({
      kind: 'sales_note',
      externalId: 'sn-anon',
      title: 'Prospect call',
      body: 'Checkout pages slow down during seasonal peaks.',
      industry: 'Retail',
      date: '2025-05-01T00:00:00Z',
    });
    const docs: ProjectDocument[] = [...loadDemoDocuments(), ...accepted];
    const result = selectAndDraft('proposal_writer', { ...RETAIL, format: 'one-pager' }, docs, DEMO_NOW);
    assert.ok(result.retrieval.excluded.some((e) => e.id === 'sales_note:sn-anon'));
  });
});
