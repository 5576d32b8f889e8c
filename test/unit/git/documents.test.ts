import assert from 'node:assert/strict';
import { screenDocuments } from '../../../src/documents/screen';
import { commitDocument, releaseDocument } from '../../../src/git/documents';
import { DEFAULT_REF_OPTIONS } from '../../../src/git/message-refs';
import type { GitCommit } from '../../../src/git/log';

const commit = (over: Partial<GitCommit> = {}): GitCommit => ({
  sha: '1234567890abcdef1234567890abcdef12345678',
  parents: [],
  author: 'Priya Raman',
  authorEmail: 'priya@acme.test',
  committedAt: '2024-08-20T10:12:00.000Z',
  subject: 'feat(orders): status filters (#3)',
  body: 'Closes WEB-1.\n\nfixes #9',
  ...over,
});

describe('git: documents from history', () => {
  it('a commit document carries version, PR number and ticket keys, and passes the API’s schema', () => {
    const doc = commitDocument(commit(), '1.0.0', DEFAULT_REF_OPTIONS);
    assert.deepEqual(doc, {
      kind: 'commit',
      externalId: '1234567890abcdef1234567890abcdef12345678',
      title: 'feat(orders): status filters (#3)',
      body: 'Closes WEB-1.\n\nfixes #9',
      createdAt: '2024-08-20T10:12:00.000Z',
      sha: '1234567890abcdef1234567890abcdef12345678',
      author: 'Priya Raman',
      committedAt: '2024-08-20T10:12:00.000Z',
      version: '1.0.0',
      prNumber: 3,
      ticketKeys: ['WEB-1', 'GH-9'],
    });
    assert.deepEqual(screenDocuments([doc], new Date()).rejected, []);
  });

  it('an unreleased commit with an empty message, no author name and a huge body still passes the schema', () => {
    const doc = commitDocument(commit({ subject: '', author: ' ', body: 'x'.repeat(30_000) }), undefined, DEFAULT_REF_OPTIONS);
    assert.equal(doc.version, undefined);
    assert.equal(doc.prNumber, undefined);
    assert.equal(doc.title, '(no commit message)');
    assert.equal(doc.author, 'priya@acme.test');
    assert.equal(doc.body.length, 20_000);
    assert.deepEqual(screenDocuments([doc], new Date()).rejected, []);
  });

  it('a release document names its tag, version, commit and date, and passes the schema', () => {
    const doc = releaseDocument({
      version: '2.0.0',
      tag: 'v2.0.0',
      commit: 'abcdef1234567',
      releasedAt: '2024-10-01T10:00:00.000Z',
      message: 'Version 2',
    });
    assert.deepEqual(doc, {
      kind: 'release',
      externalId: 'v2.0.0',
      title: 'v2.0.0',
      body: 'Version 2',
      createdAt: '2024-10-01T10:00:00.000Z',
      version: '2.0.0',
      tag: 'v2.0.0',
      sha: 'abcdef1234567',
      releasedAt: '2024-10-01T10:00:00.000Z',
    });
    assert.deepEqual(screenDocuments([doc], new Date()).rejected, []);
  });
});
