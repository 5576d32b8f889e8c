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
    assert.deepEqual(ticketKeysOf('fix(api): WEB-12: nulls\n\nRelated: OPS-3, WEB-12, feature/WEB-40'), ['WEB-12', 'OPS-3', 'WEB-40']);
    assert.deepEqual(ticketKeysOf('Use UTF-8 and SHA-256 per RFC-7231 and ISO-8601; CVE-2024-1234'), []);
    assert.deepEqual(ticketKeysOf('lowercase web-12, xWEB-1, WEB-0, W-1, WEB-12a'), []);
  });

  it('closing keywords with issue numbers become keys with the issue prefix', () => {
    assert.deepEqual(ticketKeysOf('fix: crash on empty cart\n\nFixes #45, closes #46. Resolved: #47'), ['GH-45', 'GH-46', 'GH-47']);
    assert.deepEqual(ticketKeysOf('See #45 (not a closing reference)'), []);
    assert.deepEqual(ticketKeysOf('fixes #9', { issuePrefix: 'ISSUE' }), ['ISSUE-9']);
  });

  it('without configured prefixes, takes a key only where messages put references', () => {
    assert.deepEqual(ticketKeysOf('feat!: Support AIP-193 for GaxiosError (#644)'), []);
    assert.deepEqual(ticketKeysOf('feat: HTML-5 parser for JIRA-1 style imports\n\nSupports SAML-2 assertions'), []);
    assert.deepEqual(ticketKeysOf('SHOP-44: Show ISO-8601 dates'), ['SHOP-44']);
    assert.deepEqual(ticketKeysOf('[SHOP-45] Faster search'), ['SHOP-45']);
    assert.deepEqual(ticketKeysOf('Faster search (SHOP-46, SHOP-47)'), ['SHOP-46', 'SHOP-47']);
    assert.deepEqual(ticketKeysOf('Faster search SHOP-48'), ['SHOP-48']);
    assert.deepEqual(ticketKeysOf('Merge pull request #118 from acme/feature/SHOP-41-csv-export'), ['SHOP-41']);
    assert.deepEqual(
      ticketKeysOf('Faster search\n\nImplements SHOP-49. Part of SHOP-50; relates to SHOP-51.\nJira: SHOP-52, SHOP-53\nSHOP-54'),
      ['SHOP-49', 'SHOP-50', 'SHOP-51', 'SHOP-52', 'SHOP-53', 'SHOP-54'],
    );
  });

  it('restricts keys to the project’s prefixes when given', () => {
    assert.deepEqual(ticketKeysOf('WEB-1 and ABC-2 and UTF-8', { issuePrefix: 'GH', ticketPrefixes: ['WEB', 'UTF'] }), ['WEB-1', 'UTF-8']);
  });
});
