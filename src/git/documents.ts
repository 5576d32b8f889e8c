/** Project documents (api.md "Project data") made from git history. Pure. */
import type { Changeset, CommitDocument, ReleaseDocument } from '../skills/documents';
import { commitUrl, releaseUrl, type Forge } from '../skills/forge';
import type { GitCommit } from './log';
import { prNumberOf, ticketKeysOf, type RefOptions } from './message-refs';
import type { Release } from './tags';

// The document schema's limits: longer text is cut rather than the commit rejected.
const TITLE_MAX = 500;
const BODY_MAX = 20_000;
const NAME_MAX = 200;
const TICKET_KEYS_MAX = 50;

/** The document schema's login form; a bot's "name[bot]" is no login to show. */
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * `forge`: the repository's web address, for the commit's URL (null or absent: no URL). `prNumber`: the PR
 * the commit belongs to when its subject does not say (a branch commit of a merged PR, branch-prs.ts).
 * `authorLogin`: the author's forge login, when the history tells it (logins.ts). `extra.changesets`: the changesets
 * it adds (changeset-files.ts).
 */
export function commitDocument(
  commit: GitCommit,
  version: string | undefined,
  refs: RefOptions,
  forge?: Forge | null,
  prNumber = prNumberOf(commit.subject),
  authorLogin?: string,
  extra: { changesets?: Changeset[] | undefined } = {},
): CommitDocument {
  const ticketKeys = ticketKeysOf(`${commit.subject}\n${commit.body}`, refs).slice(0, TICKET_KEYS_MAX);
  return {
    kind: 'commit',
    externalId: commit.sha,
    title: cut(commit.subject.trim() || '(no commit message)', TITLE_MAX),
    body: cut(commit.body, BODY_MAX),
    ...(forge ? { url: commitUrl(forge, commit.sha) } : {}),
    createdAt: commit.committedAt,
    sha: commit.sha,
    author: cut(commit.author.trim() || commit.authorEmail.trim() || 'unknown', NAME_MAX),
    ...(authorLogin && LOGIN.test(authorLogin) ? { authorLogin } : {}),
    committedAt: commit.committedAt,
    ...(version ? { version } : {}),
    ...(prNumber ? { prNumber } : {}),
    ...(ticketKeys.length ? { ticketKeys } : {}),
    ...(extra.changesets ? { changesets: extra.changesets } : {}),
  };
}

export function releaseDocument(release: Release, forge?: Forge | null): ReleaseDocument {
  return {
    kind: 'release',
    externalId: release.tag,
    title: cut(release.tag, TITLE_MAX),
    body: cut(release.message, BODY_MAX),
    ...(forge ? { url: releaseUrl(forge, release.tag) } : {}),
    createdAt: release.releasedAt,
    version: release.version,
    tag: release.tag,
    sha: release.commit,
    releasedAt: release.releasedAt,
  };
}
