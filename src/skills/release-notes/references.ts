/**
 * The references readers expect beside each release-notes entry, as GitHub's generated notes,
 * release-drafter and release-please write them: the pull request "(#650)" and the tickets the change
 * resolves, linked when the repository's web address is known.
 */
import type { ProjectDocument } from '../documents';
import { forgeFromPageUrl, issueUrl, MAX_PAGE_URL, pullRequestUrl, type Forge } from '../forge';
import { safeUrl } from '../markdown';
import { compareText } from '../text';
import type { Change } from './changes';

export interface Reference {
  /** "#650", "WEB-7". */
  label: string;
  url?: string;
}

/** Per entry: a change that names more than this is shown with its first ones (the citations list them all). */
const MAX_PULL_REQUESTS = 5;
const MAX_TICKETS = 5;

/** Closing references to GitHub issues ("fixes #45") are stored as GH-45 (import-git's default issue prefix). */
const GITHUB_ISSUE_PREFIX = 'GH-';

/**
 * The repository the documents link to, found in the first commit, pull request or release URL that names one.
 * What forgeFromPageUrl reads of a page URL is all before its last "/" (the host, and the page path that ends in
 * "/"), so a URL whose part before the last "/" named no repository is not parsed again: a project whose pages
 * are on no forge would otherwise parse every URL.
 */
export function forgeOfDocuments(docs: readonly ProjectDocument[]): Forge | undefined {
  const tried = new Set<string>();
  for (const doc of docs) {
    if ((doc.kind === 'commit' || doc.kind === 'pull_request' || doc.kind === 'release') && doc.url) {
      const before = doc.url.slice(0, doc.url.lastIndexOf('/') + 1);
      if (tried.has(before)) continue;
      const forge = forgeFromPageUrl(doc.url);
      if (forge) return forge;
      // A URL too long to read says nothing of the others with its prefix.
      if (doc.url.length <= MAX_PAGE_URL) tried.add(before);
    }
  }
  return undefined;
}

export function entryReferences(change: Change, forge: Forge | undefined): Reference[] {
  const prUrls = new Map<number, string | undefined>();
  for (const pr of change.pullRequests) prUrls.set(pr.number, safeUrl(pr.url));
  for (const c of change.commits) if (c.prNumber !== undefined && !prUrls.has(c.prNumber)) prUrls.set(c.prNumber, undefined);
  const pulls = [...prUrls.entries()]
    .sort((a, b) => a[0] - b[0])
    .slice(0, MAX_PULL_REQUESTS)
    .map(([n, url]) => ({ label: `#${n}`, url: url ?? (forge && pullRequestUrl(forge, n)) }));

  const ticketUrls = new Map<string, string | undefined>();
  for (const t of change.tickets) ticketUrls.set(t.key, safeUrl(t.url));
  for (const d of [...change.pullRequests, ...change.commits])
    for (const key of d.ticketKeys ?? []) if (!ticketUrls.has(key)) ticketUrls.set(key, undefined);
  const tickets = [...ticketUrls.entries()]
    .sort((a, b) => compareText(a[0], b[0]))
    .slice(0, MAX_TICKETS)
    .map(([key, url]): Reference => {
      const issue =
        key.startsWith(GITHUB_ISSUE_PREFIX) && forge?.kind === 'github' ? Number(key.slice(GITHUB_ISSUE_PREFIX.length)) : undefined;
      if (issue && Number.isSafeInteger(issue)) return { label: `#${issue}`, url: url ?? issueUrl(forge!, issue) };
      return { label: key, url };
    });
  return [...pulls, ...tickets.filter((t) => !pulls.some((p) => p.label === t.label))];
}

/** "[#650](https://…), WEB-7": labels linked where a URL is known. */
export function renderReferences(refs: readonly Reference[]): string {
  return refs.map((r) => (r.url ? `[${r.label}](${r.url.replace(/[()<>\s]/g, encodeURIComponent)})` : r.label)).join(', ');
}
