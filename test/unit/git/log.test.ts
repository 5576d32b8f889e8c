import assert from 'node:assert/strict';
import { RecordSplitter, parseLogRecord } from '../../../src/git/log';

const SHA = 'a'.repeat(40);
const P1 = 'b'.repeat(40);
const P2 = 'c'.repeat(40);
const record = (fields: string[]) => fields.join('\x1f');

describe('git: log records', () => {
  it('parses a merge commit: parents, mailmapped author, UTC date, subject and trimmed body', () => {
    const c = parseLogRecord(
      record([
        SHA,
        `${P1} ${P2}`,
        'Priya Raman',
        'priya@acme.test',
        '2024-08-20T12:12:00+02:00',
        'Merge pull request #7 from acme/x',
        'Orders list\n\n',
      ]),
    );
    assert.deepEqual(c, {
      sha: SHA,
      parents: [P1, P2],
      author: 'Priya Raman',
      authorEmail: 'priya@acme.test',
      committedAt: '2024-08-20T10:12:00.000Z',
      subject: 'Merge pull request #7 from acme/x',
      body: 'Orders list',
    });
  });

  it('a root commit has no parents; a leading newline between records is ignored', () => {
    const c = parseLogRecord(`\n${record([SHA, '', 'A', 'a@b', '2024-01-01T00:00:00Z', 'init', ''])}`);
    assert.deepEqual(c.parents, []);
    assert.equal(c.body, '');
  });

  it('refuses what is not a log record', () => {
    assert.throws(() => parseLogRecord('fatal: bad revision'), /unexpected git log record/);
  });

  it('splits a stream into records however the chunks fall', () => {
    const s = new RecordSplitter('\0');
    assert.deepEqual(s.push('one\0tw'), ['one']);
    assert.deepEqual(s.push('o'), []);
    assert.deepEqual(s.push('\0three\0'), ['two', 'three']);
    assert.deepEqual(s.end(), []);
    s.push('tail');
    assert.deepEqual(s.end(), ['tail']);
  });
});
