import assert from 'node:assert/strict';
import {
  commitUrl,
  compareUrl,
  forgeFromPageUrl,
  forgeFromRemote,
  forgeFromWebUrl,
  issueUrl,
  pullRequestUrl,
  releaseUrl,
  tagOfReleaseUrl,
} from '../../../src/skills/forge';
import type { CommitDocument, TicketDocument } from '../../../src/skills/documents';
import { entryReferences, forgeOfDocuments, renderReferences } from '../../../src/skills/release-notes/references';

describe('skills: repository web pages (GitHub, GitLab, Bitbucket)', () => {
  it('reads the web address from a remote, dropping credentials; other hosts are unknown', () => {
    const base = (r: string) => forgeFromRemote(r)?.base;
    assert.equal(base('git@github.com:googleapis/gaxios.git'), 'https://github.com/googleapis/gaxios');
    assert.equal(base('https://x-access-token:ghs_secret@github.com/acme/web.git'), 'https://github.com/acme/web');
    assert.equal(base('ssh://git@gitlab.com/group/sub/project.git'), 'https://gitlab.com/group/sub/project');
    assert.equal(base('https://bitbucket.org/team/repo'), 'https://bitbucket.org/team/repo');
    assert.equal(base('git@git.internal:acme/web.git'), undefined);
    assert.equal(base('https://github.com/only-owner'), undefined);
    assert.equal(base('file:///srv/repo.git'), undefined);
    assert.equal(forgeFromWebUrl('https://git.acme.test/group/web', 'gitlab')?.base, 'https://git.acme.test/group/web');
  });

  it('makes the pages of each forge, and finds the repository again in them', () => {
    const gh = forgeFromRemote('git@github.com:o/r.git')!;
    const gl = forgeFromRemote('git@gitlab.com:g/r.git')!;
    const bb = forgeFromRemote('git@bitbucket.org:t/r.git')!;
    assert.deepEqual(
      [commitUrl(gh, 'abc'), pullRequestUrl(gh, 7), issueUrl(gh, 9), releaseUrl(gh, 'v1.0.0'), compareUrl(gh, 'v1', 'v2')],
      [
        'https://github.com/o/r/commit/abc',
        'https://github.com/o/r/pull/7',
        'https://github.com/o/r/issues/9',
        'https://github.com/o/r/releases/tag/v1.0.0',
        'https://github.com/o/r/compare/v1...v2',
      ],
    );
    assert.deepEqual(
      [commitUrl(gl, 'abc'), pullRequestUrl(gl, 7), compareUrl(gl, 'v1', 'v2')],
      ['https://gitlab.com/g/r/-/commit/abc', 'https://gitlab.com/g/r/-/merge_requests/7', 'https://gitlab.com/g/r/-/compare/v1...v2'],
    );
    assert.deepEqual(
      [commitUrl(bb, 'abc'), pullRequestUrl(bb, 7), compareUrl(bb, 'a', 'b')],
      ['https://bitbucket.org/t/r/commits/abc', 'https://bitbucket.org/t/r/pull-requests/7', undefined],
    );
    for (const f of [gh, gl, bb]) assert.deepEqual(forgeFromPageUrl(commitUrl(f, 'abc')), f);
    assert.deepEqual(forgeFromPageUrl('https://git.acme.test/g/r/-/merge_requests/3'), {
      kind: 'gitlab',
      base: 'https://git.acme.test/g/r',
    });
    assert.equal(forgeFromPageUrl('https://acme.atlassian.net/browse/WEB-1'), undefined);
    assert.equal(tagOfReleaseUrl(gh, releaseUrl(gh, 'release/1.0')), 'release/1.0');
  });

  it('references: pull requests and tickets of a change, linked where known, GitHub issues as #N', () => {
    const gh = forgeFromRemote('git@github.com:o/r.git')!;
    const commit: CommitDocument = {
      kind: 'commit',
      externalId: 'a',
      title: 't',
      body: '',
      createdAt: '',
      sha: 'a',
      author: 'A',
      committedAt: '',
      prNumber: 12,
      ticketKeys: ['WEB-3', 'GH-45'],
    };
    const ticket: TicketDocument = {
      kind: 'ticket',
      externalId: 'WEB-3',
      title: 't',
      body: '',
      createdAt: '',
      key: 'WEB-3',
      type: 'bug',
      status: 'Done',
      url: 'https://acme.atlassian.net/browse/WEB-3',
    };
    const refs = entryReferences({ commits: [{ ...commit }], pullRequests: [], tickets: [{ ...ticket }] }, gh);
    assert.equal(
      renderReferences(refs),
      '[#12](https://github.com/o/r/pull/12), [#45](https://github.com/o/r/issues/45), [WEB-3](https://acme.atlassian.net/browse/WEB-3)',
    );
    assert.equal(
      renderReferences(
        entryReferences({ commits: [{ ...commit }], pullRequests: [], tickets: [{ ...ticket, url: 'javascript:alert(1)' }] }, undefined),
      ),
      '#12, GH-45, WEB-3',
    );
  });

  it('finds the repository in the first page URL that names one, past pages on no forge and a URL too long to read', () => {
    const commit = (sha: string, url: string): CommitDocument => ({
      kind: 'commit',
      externalId: sha,
      title: 't',
      body: '',
      url,
      createdAt: '',
      sha,
      author: 'A',
      committedAt: '',
    });
    const onNoForge = [1, 2, 3].map((i) => commit(`n${i}`, `https://git.example.com/bench/commit/n${i}`));
    assert.equal(forgeOfDocuments(onNoForge), undefined);
    assert.equal(forgeOfDocuments([...onNoForge, commit('a', 'https://github.com/o/r/commit/a')])?.base, 'https://github.com/o/r');
    // A URL longer than forgeFromPageUrl reads names nothing, and says nothing of a shorter one with its prefix.
    const long = commit('l', `https://github.com/o/r/commit/${'f'.repeat(2_100)}`);
    assert.equal(forgeOfDocuments([long]), undefined);
    assert.equal(forgeOfDocuments([long, commit('b', 'https://github.com/o/r/commit/b')])?.base, 'https://github.com/o/r');
  });
});
