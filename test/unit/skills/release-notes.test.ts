import assert from 'node:assert/strict';
import type { CommitDocument, PullRequestDocument, TicketDocument } from '../../../src/skills/documents';
import { tidyTitle } from '../../../src/skills/release-notes/conventional';
import type { SkillResult } from '../../../src/skills/result';
import { selectAndDraft } from '../../../src/skills/run';
import { CASES, runCase, type DemoCase } from './cases';
import { DEMO_NOW } from './demo';

const result = (name: string) => runCase(CASES.find((c) => c.skill === 'release_notes_composer' && c.name === name) as DemoCase);
const sectionOf = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)!;
const reasonOf = (r: SkillResult, id: string) => r.retrieval.excluded.find((e) => e.id === id)?.reason;

const at = '2025-01-01T10:00:00Z';
const commit = (over: Partial<CommitDocument>): CommitDocument => ({
  kind: 'commit',
  externalId: over.sha ?? 'aaaaaaa1',
  title: 'feat: thing',
  body: '',
  createdAt: at,
  sha: 'aaaaaaa1',
  author: 'Ada',
  committedAt: at,
  version: '1.1.0',
  ...over,
});
const pr = (over: Partial<PullRequestDocument>): PullRequestDocument => ({
  kind: 'pull_request',
  externalId: String(over.number ?? 1),
  title: 'feat: thing',
  body: '',
  createdAt: at,
  number: 1,
  author: 'Ada',
  mergedAt: at,
  version: '1.1.0',
  ...over,
});
const ticket = (over: Partial<TicketDocument>): TicketDocument => ({
  kind: 'ticket',
  externalId: over.key ?? 'WEB-1',
  title: 'Thing',
  body: '',
  createdAt: at,
  key: 'WEB-1',
  type: 'feature',
  status: 'Done',
  resolvedAt: at,
  fixVersion: '1.1.0',
  ...over,
});
const draft = (docs: Parameters<typeof selectAndDraft>[2], tone: 'casual' | 'neutral' | 'formal' = 'neutral') =>
  selectAndDraft('release_notes_composer', { fromVersion: '1.0.0', toVersion: '1.1.0', tone }, docs, DEMO_NOW);

describe('skills: release notes', () => {
  it('makes one entry of a commit, its pull request and its ticket, citing all three', () => {
    const r = draft([
      commit({ title: 'feat(ui): add dark mode (#7)', prNumber: 7, ticketKeys: ['WEB-7'] }),
      pr({ number: 7, title: 'feat(ui): add dark mode', ticketKeys: ['WEB-7'] }),
      ticket({ key: 'WEB-7', title: 'Dark mode' }),
    ]);
    const features = sectionOf(r, 'New features').markdownWithCitations.split('\n');
    assert.deepEqual(features, ['- Add dark mode (#7, WEB-7) by Ada [pr:7] [commit:aaaaaaa] [ticket:WEB-7]']);
  });

  it('joins a non-squash merge: the merge commit, the branch commits (by ticket key) and the pull request', () => {
    const r = result('neutral-1.0.0-1.2.1');
    const bulk = sectionOf(r, 'New features')
      .markdownWithCitations.split('\n')
      .filter((l) => l.includes('[pr:39]'));
    assert.equal(bulk.length, 1);
    assert.match(
      bulk[0],
      /^- Bulk edit order status from the orders list \(\[#39\]\(https:\/\/github\.com\/acme\/acme-web\/pull\/39\), \[WEB-25\]\([^)]+\); 1\.2\.0\) by Marco Bianchi and Sara Lindqvist \[pr:39\] (\[commit:\w{7}\] ){3}\[ticket:WEB-25\]$/,
    );
  });

  it('groups breaking changes with what users must do, then features, improvements, fixes; documentation is counted', () => {
    const r = result('neutral-1.2.1-2.0.0');
    assert.deepEqual(
      r.sections.map((s) => s.heading),
      ['Highlights', 'Breaking changes', 'New features', 'Improvements', 'Fixes', 'Contributors', 'Full changelog'],
      'no empty section (no Reverts, no Other changes)',
    );
    const breaking = sectionOf(r, 'Breaking changes').markdownWithCitations;
    assert.match(
      breaking,
      /\*\*Remove the deprecated v1 orders endpoints\*\* \(\[#50\]\([^)]+\), \[WEB-30\]\([^)]+\)\) by Marco Bianchi\. Action required: \/api\/v1\/orders .* Call \/api\/v2\/orders instead/,
    );
    assert.match(
      breaking,
      /Sign webhook payloads with HMAC-SHA256\*\* \([^)]*\)[^)]*\)\) by Lena Fischer\. Action required: Verify the `X-Acme-Signature` header/,
      'a BREAKING CHANGE footer without "!" counts',
    );
    assert.match(
      sectionOf(r, 'Fixes').markdownWithCitations,
      /- Invoice PDF shows the wrong tax rate for Canadian stores \(\[WEB-37\]\([^)]+\)\) \[ticket:WEB-37\]/,
      'a resolved ticket alone is a change',
    );
    assert.match(
      sectionOf(r, 'Improvements').markdownWithCitations,
      /Improve the error message when a coupon has expired \(\[WEB-36\]/,
      'wording decides when there is no convention',
    );
    assert.match(
      sectionOf(result('neutral-1.0.0-1.2.1'), 'Other changes').markdownWithCitations,
      /^Documentation: 1 change\. \[pr:40\] \[commit:\w{7}\]$/,
    );
  });

  it('leaves out what users never see, with the reason', () => {
    const r = result('neutral-1.0.0-1.2.1');
    const reasons = new Set(r.retrieval.excluded.map((e) => e.reason));
    for (const reason of ['chore', 'ci', 'build', 'test', 'refactor', 'dependency bump by a bot', 'internal docs'])
      assert.ok(reasons.has(reason), reason);
    assert.equal(reasonOf(r, 'pr:24'), 'dependency bump by a bot');
    assert.equal(reasonOf(result('neutral-1.2.1-2.0.0'), 'ticket:WEB-42'), 'not resolved (status: In Progress)');
    assert.match(reasonOf(result('neutral-1.2.1-2.0.0'), 'commit:6e8624a') ?? '', /^merge commit$/);
    for (const s of r.sections) assert.doesNotMatch(s.markdown, /\[pr:(24|25|27|35|36|37|38|44)\]/);
  });

  it('keeps the range half-open: nothing from the lower version, everything up to the upper one', () => {
    const r = result('neutral-1.2.1-2.0.0');
    const cited = new Set(r.citations.map((c) => c.id));
    for (const id of ['pr:42', 'pr:43', 'pr:60']) assert.ok(!cited.has(id), id);
    for (const id of ['pr:50', 'pr:57', 'ticket:WEB-37']) assert.ok(cited.has(id), id);
  });

  it('strips conventional prefixes, scopes, ticket keys and PR references from the prose; shows them as references', () => {
    for (const name of ['neutral-1.2.1-2.0.0', 'neutral-1.0.0-1.2.1']) {
      for (const s of result(name).sections) {
        // The references in parentheses at the end of an entry are the only place PR numbers and keys appear.
        const prose = s.markdown.replace(/ \((\[?(#\d+|WEB-\d+)(\]\([^)]*\))?(, )?)+(; [\d.]+)?\)| in \[#\d+\]\([^)]*\)/g, '');
        assert.doesNotMatch(prose, /\b(feat|fix|chore|perf|docs)(\([^)]*\))?!?:|\bWEB-\d+|#\d+/, `${name} ${s.heading}`);
      }
    }
    assert.equal(tidyTitle('fix(auth)!: handle expired sessions (#12) WEB-7', { own: ['WEB-7'] }), 'Handle expired sessions');
    assert.equal(tidyTitle('[WEB-9] Support UTF-8 filenames', { own: ['WEB-9'] }), 'Support UTF-8 filenames');
    assert.equal(tidyTitle('WEB-3: fixes WEB-4 crash on save', { own: ['WEB-3'] }), 'Crash on save');
  });

  it('changes wording with the tone, never the facts', () => {
    const tones = ['neutral', 'casual', 'formal'].map((t) => result(`${t}-1.2.1-2.0.0`));
    const facts = (r: SkillResult) => ({
      sections: r.sections.map((s) => [s.heading, s.citations]),
      citations: r.citations,
      retrieval: r.retrieval,
    });
    assert.deepEqual(facts(tones[1]), facts(tones[0]));
    assert.deepEqual(facts(tones[2]), facts(tones[0]));
    assert.notEqual(tones[1].markdown, tones[0].markdown);
    assert.match(tones[1].markdown, /^# What's new in 2\.0\.0\n[^]*New things for you to try:\n\n- Add single sign-on with SAML 2\.0 \(/);
    assert.match(tones[2].markdown, /^# Release Notes: Version 2\.0\.0\n[^]*\n- Add single sign-on with SAML 2\.0 \(/);
  });

  it('writes the framing of formal notes without contractions or exclamation marks', () => {
    // Entries are their authors' words in every tone; only the framing is the tone's.
    const framing = result('formal-1.2.1-2.0.0')
      .markdown.split('\n')
      .filter((l) => !l.startsWith('- '))
      .join('\n')
      .replace(/\]\([^)]*\)/g, '');
    assert.doesNotMatch(framing, /\b\w+'(t|s|re|ve|ll|d|m)\b|!(\s|$)/i);
  });

  it('credits contributors (people, not bots) and names both versions in the full changelog', () => {
    const r = result('neutral-1.0.0-1.2.1');
    const contributors = sectionOf(r, 'Contributors').markdownWithCitations;
    assert.match(
      contributors,
      /^Thanks to the people who contributed to this release: Marco Bianchi, Priya Raman, Sara Lindqvist and Tom Okafor\.$/m,
      'each once',
    );
    assert.doesNotMatch(contributors, /\[bot\]/);
    const cited = r.sections.map((s) => s.markdownWithCitations).join('\n');
    assert.match(cited, /by [^\n]*Sara Lindqvist[^\n]*\[commit:7b442b4\]/, 'a co-author is credited on the entry, through the commit');
    assert.match(
      contributors,
      /New contributors:\n\n- Marco Bianchi made their first contribution in \[#26\]\(https:\/\/github\.com\/acme\/acme-web\/pull\/26\) \[pr:26\]\n- Sara Lindqvist made their first contribution in \[#31\]/,
    );
    assert.doesNotMatch(
      sectionOf(result('neutral-1.2.1-2.0.0'), 'Contributors').markdownWithCitations,
      /New contributors/,
      'everyone in 2.0.0 contributed before 1.2.1',
    );
    // The store's first-contribution index answers "who is new": no earlier document is read for it.
    const outside = result('neutral-1.2.1-2.0.0').retrieval.excluded.filter((e) => e.reason === 'version outside the requested range');
    assert.deepEqual(outside, []);
    assert.match(
      sectionOf(r, 'Full changelog').markdownWithCitations,
      /^\*\*Full changelog:\*\* \[1\.0\.0\.\.\.1\.2\.1\]\(https:\/\/github\.com\/acme\/acme-web\/compare\/v1\.0\.0\.\.\.v1\.2\.1\)/,
    );
  });

  it('names the release each entry first shipped in when the range spans several', () => {
    assert.match(
      sectionOf(result('neutral-1.0.0-1.2.1'), 'Fixes').markdownWithCitations,
      /Escape commas and quotes in CSV exports \([^;]*; 1\.2\.1\) by /,
    );
    assert.doesNotMatch(sectionOf(result('neutral-1.2.1-2.0.0'), 'Fixes').markdownWithCitations, /2\.0\.0\)/);
  });

  it('leaves an empty group out, and classifies by labels and ticket types too', () => {
    const r = draft([
      commit({ sha: 'bbbbbbb1', title: 'Tidy the settings page', prNumber: 2 }),
      pr({ number: 2, title: 'Tidy the settings page', labels: ['bug'] }),
      commit({ sha: 'ccccccc1', title: 'refactor: split the router', ticketKeys: ['WEB-2'] }),
      ticket({ key: 'WEB-2', type: 'story', title: 'Router split' }),
      commit({ sha: 'ddddddd1', title: 'chore(deps): bump left-pad', author: 'renovate[bot]' }),
      pr({ number: 3, title: 'Rewrite docs', labels: ['skip-changelog'] }),
    ]);
    assert.match(sectionOf(r, 'Fixes').markdownWithCitations, /^- Tidy the settings page \(#2\) by Ada \[pr:2\] \[commit:bbbbbbb\]$/m);
    assert.match(
      sectionOf(r, 'New features').markdownWithCitations,
      /^- Split the router \(WEB-2\) by Ada \[commit:ccccccc\] \[ticket:WEB-2\]$/m,
    );
    assert.deepEqual(
      r.sections.map((s) => s.heading),
      ['New features', 'Fixes', 'Contributors', 'Full changelog'],
    );
    assert.equal(reasonOf(r, 'commit:ddddddd'), 'dependency bump by a bot');
    assert.equal(reasonOf(r, 'pr:3'), 'labelled skip-changelog');
  });

  it('leaves out unmerged pull requests', () => {
    const r = draft([pr({ number: 9, mergedAt: undefined })]);
    assert.equal(reasonOf(r, 'pr:9'), 'not merged');
  });
});
