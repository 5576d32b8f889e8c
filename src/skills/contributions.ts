/**
 * Contributions as GitHub's "New contributors" counts them: the commits and merged pull requests a person
 * authored, over the project's whole history. The store keeps each person's first one in an index it updates
 * with every write (store/documents.ts), and release notes read it for the range they draft: a person is new
 * in a release when their first contribution is in it. Pure.
 */
import type { CommitDocument, ProjectDocument, PullRequestDocument } from './documents';
import { isSemver, semverKey } from './semver';

/** Ranks after every version key (keys start with a digit): a contribution not released yet comes last. */
export const UNRELEASED_RANK = '~';

type Contribution = CommitDocument | PullRequestDocument;

/** A commit, or a merged pull request, with an author. */
export function isContribution(doc: ProjectDocument): doc is Contribution {
  if (doc.kind === 'commit') return doc.author.trim() !== '';
  return doc.kind === 'pull_request' && doc.mergedAt !== undefined && doc.author.trim() !== '';
}

/**
 * One key per person: their forge login when the document knows it ("@d-goog"), else their name, any case
 * ("name:daniel bankhead"). import-git gives every commit of a person whose login it learnt anywhere in the
 * history that login, so one person has one key.
 */
export function contributorKey(doc: Contribution): string {
  const login = doc.authorLogin?.trim();
  return login ? `@${login.toLowerCase()}` : `name:${doc.author.trim().toLowerCase()}`;
}

/**
 * Where the contribution stands in the history, as a string whose plain order is the history's: the first
 * release containing it (semver order; unreleased last), then its time (committed, or merged), then its kind
 * and id. The separator (a space) sorts below every character of a version key, so a key that is a prefix of
 * another ("…-1rc" of "…-1rc!…") still sorts first.
 */
export function contributionRank(doc: Contribution): string {
  const version = doc.version && isSemver(doc.version) ? semverKey(doc.version) : UNRELEASED_RANK;
  const at = doc.kind === 'commit' ? doc.committedAt : (doc.mergedAt ?? '');
  return `${version} ${at} ${doc.kind} ${doc.externalId}`;
}

/** The kind and external id a rank names (contributionRank's last two parts). */
export function rankDocument(rank: string): { kind: string; externalId: string } | undefined {
  const parts = rank.split(' ');
  if (parts.length < 4) return undefined;
  return { kind: parts[2]!, externalId: parts.slice(3).join(' ') };
}

/** Each person's first contribution among `docs`, by key: the lowest rank wins. */
export function firstContributions(docs: Iterable<ProjectDocument>): Map<string, string> {
  const first = new Map<string, string>();
  for (const doc of docs) {
    if (!isContribution(doc)) continue;
    const key = contributorKey(doc);
    const rank = contributionRank(doc);
    const seen = first.get(key);
    if (seen === undefined || rank < seen) first.set(key, rank);
  }
  return first;
}
