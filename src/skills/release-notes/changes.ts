/**
 * "One change, one entry": the commits, pull requests and tickets that describe the same change are joined
 * into one group (a commit of PR #123 that resolves WEB-7 → one change citing all three). Documents are
 * joined by PR number (a pull request and its commits, or commits of the same PR when the project has no
 * pull-request documents, such as a merge commit and its branch), merge-commit sha, or ticket key (with or
 * without a ticket document).
 */
import type { CommitDocument, PullRequestDocument, TicketDocument } from '../documents';

export interface Change {
  commits: CommitDocument[];
  pullRequests: PullRequestDocument[];
  tickets: TicketDocument[];
}

type Member = CommitDocument | PullRequestDocument | TicketDocument;

/** Joins documents linked by PR number, merge-commit sha or ticket key; the order follows the input. */
export function groupChanges(commits: CommitDocument[], pullRequests: PullRequestDocument[], tickets: TicketDocument[]): Change[] {
  const members: Member[] = [...pullRequests, ...commits, ...tickets];
  const parent = members.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const union = (a: number, b: number) => {
    const [x, y] = [find(a), find(b)];
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
  };

  const prIndex = new Map(pullRequests.map((pr, i) => [pr.number, i]));
  const bySha = new Map<string, number[]>();
  pullRequests.forEach((pr, i) => {
    if (!pr.mergeCommitSha) return;
    const short = pr.mergeCommitSha.slice(0, 7).toLowerCase();
    bySha.set(short, [...(bySha.get(short) ?? []), i]);
  });
  // The first member naming each ticket key (its ticket document when there is one) and each PR number.
  const ticketIndex = new Map(tickets.map((t, i) => [t.key, pullRequests.length + commits.length + i]));
  const linkTickets = (keys: string[] | undefined, at: number) => {
    for (const key of keys ?? []) {
      const t = ticketIndex.get(key);
      if (t !== undefined) union(at, t);
      else ticketIndex.set(key, at);
    }
  };

  pullRequests.forEach((pr, i) => linkTickets(pr.ticketKeys, i));
  commits.forEach((commit, c) => {
    const at = pullRequests.length + c;
    const byNumber = commit.prNumber === undefined ? undefined : prIndex.get(commit.prNumber);
    if (byNumber !== undefined) union(at, byNumber);
    else if (commit.prNumber !== undefined) prIndex.set(commit.prNumber, at);
    for (const i of bySha.get(commit.sha.slice(0, 7).toLowerCase()) ?? []) {
      if (sameSha(pullRequests[i].mergeCommitSha ?? '', commit.sha)) union(at, i);
    }
    linkTickets(commit.ticketKeys, at);
  });

  const groups = new Map<number, Change>();
  members.forEach((m, i) => {
    const root = find(i);
    const change = groups.get(root) ?? { commits: [], pullRequests: [], tickets: [] };
    groups.set(root, change);
    if (m.kind === 'commit') change.commits.push(m);
    else if (m.kind === 'pull_request') change.pullRequests.push(m);
    else change.tickets.push(m);
  });
  return [...groups.values()];
}

function sameSha(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n).toLowerCase() === b.slice(0, n).toLowerCase();
}

/** Members in citation order: pull requests, then commits, then tickets. */
export function changeDocuments(change: Change): Member[] {
  return [...change.pullRequests, ...change.commits, ...change.tickets];
}
