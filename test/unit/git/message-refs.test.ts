import assert from 'node:assert/strict';
import { prNumberOf, ticketKeysOf } from '../../../src/git/message-refs';

describe('git: references in commit messages', () => {
  it('PR numbers from merge commits and squash merges', () => {
    assert.equal(prNumberOf('Merge pull request #123 from acme/feature-x'), 123);
    assert.equal(prNumberOf('feat(orders): status filters (#45)'), 45);
    assert.equal(prNumberOf('Revert "feat: x (#12)" (#15)'), 15);
    assert.equal(prNumberOf('fix: handle #3 in the parser'), undefined);
    assert.equal(prNumberOf('Merge branch main into feature'), undefined);
    assert.equal(prNumberOf('chore: (#0)'), undefined);
  });

  it('Jira-style keys in order of mention, once each; standards are not tickets', () => {
    assert.deepEqual(ticketKeysOf('fix(api): WEB-12 nulls\n\nRelated: OPS-3, WEB-12, feature/WEB-40'), ['WEB-12', 'OPS-3', 'WEB-40']);
    assert.deepEqual(ticketKeysOf('Use UTF-8 and SHA-256 per RFC-7231 and ISO-8601; CVE-2024-1234'), []);
    assert.deepEqual(ticketKeysOf('lowercase web-12, xWEB-1, WEB-0, W-1, WEB-12a'), []);
  });

  it('closing keywords with issue numbers become keys with the issue prefix', () => {
    assert.deepEqual(ticketKeysOf('fix: crash on empty cart\n\nFixes #45, closes #46. Resolved: #47'), ['GH-45', 'GH-46', 'GH-47']);
    assert.deepEqual(ticketKeysOf('See #45 (not a closing reference)'), []);
    assert.deepEqual(ticketKeysOf('fixes #9', { issuePrefix: 'ISSUE' }), ['ISSUE-9']);
  });

  it('restricts keys to the project’s prefixes when given', () => {
    assert.deepEqual(ticketKeysOf('WEB-1 and ABC-2 and UTF-8', { issuePrefix: 'GH', ticketPrefixes: ['WEB', 'UTF'] }), ['WEB-1', 'UTF-8']);
  });
});
