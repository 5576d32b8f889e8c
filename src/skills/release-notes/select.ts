/**
 * Release notes selection: which retrieved documents become entries, in which group, and why the others
 * are left out. Pure; the order of the input never changes the output.
 */
import { citationId } from '../citation-id';
import type { CommitDocument, ProjectDocument, PullRequestDocument, ReleaseDocument, TicketDocument } from '../documents';
import type { ReleaseNotesInputs } from './definition';
import { compareSemver, inVersionRange, isSemver } from '../semver';
import { compareText } from '../text';
import type { Forge } from '../forge';
import { isBot } from './bots';
import { groupChanges, changeDocuments, type Change } from './changes';
import { classify, type Category } from './classify';
import { coAuthors, isMergeCommit, isPrMerge, tidyTitle, type TicketKeys } from './conventional';
import { migrationNote } from './migration';
import { entryReferences, forgeOfDocuments, type Reference } from './references';

export interface Entry {
  category: Category;
  change: Change;
  /** The change in users' words, before tone: prefixes, scopes, ticket keys and PR references removed. */
  title: string;
  /** The title is a ticket's: it states the problem, not the change. */
  problem: boolean;
  /** What users must do, from a BREAKING CHANGE footer or a migration section; breaking entries only. */
  migration?: string;
  /** The first release containing the change. */
  version: string;
  /** Its pull requests and tickets, linked where the repository's web address is known. */
  references: Reference[];
}

export interface Contributor {
  name: string;
  /** What they are credited for: a pull request, or the commit when the change has none. */
  credits: ProjectDocument[];
}

export interface ReleaseNotesSelection {
  entries: Entry[];
  contributors: Contributor[];
  /** Release records from fromVersion to toVersion inclusive, in version order. */
  releases: ReleaseDocument[];
  /** Why each left-out document was left out, by citation id. */
  reasons: Map<string, string>;
  /** The repository the documents link to, when they link to one on GitHub, GitLab or Bitbucket. */
  forge?: Forge;
}

const RESOLVED_STATUSES = new Set(['done', 'resolved', 'closed', 'fixed', 'released', 'complete', 'completed', 'shipped']);

function isResolved(ticket: TicketDocument): boolean {
  return ticket.resolvedAt !== undefined || RESOLVED_STATUSES.has(ticket.status.trim().toLowerCase());
}

const versionOf = (d: CommitDocument | PullRequestDocument | TicketDocument) => (d.kind === 'ticket' ? d.fixVersion : d.version);

function changeVersion(change: Change): string {
  const versions = changeDocuments(change)
    .map(versionOf)
    .filter((v): v is string => v !== undefined);
  return versions.sort(compareSemver)[0];
}

function changeTime(change: Change): string {
  const times = [
    ...change.pullRequests.map((p) => p.mergedAt),
    ...change.commits.map((c) => c.committedAt),
    ...change.tickets.map((t) => t.resolvedAt),
  ].filter((t): t is string => t !== undefined);
  return times.sort()[0] ?? '';
}

/** The document that speaks for the change: its pull request, else its commit, else its ticket. */
/**
 * The document that speaks for the change, and its title: its pull request; else the pull request's title
 * as GitHub writes it on the line after "Merge pull request #N from …"; else its commit, else its ticket.
 */
function titleSource(change: Change): { doc: ProjectDocument; title: string } {
  const pr = change.pullRequests.find((p) => !isMergeCommit(p.title));
  if (pr) return { doc: pr, title: pr.title };
  for (const c of change.commits) {
    const prTitle = isPrMerge(c.title) ? c.body.split('\n', 1)[0]!.trim() : '';
    if (prTitle) return { doc: c, title: prTitle };
  }
  const doc = change.commits.find((c) => !isMergeCommit(c.title)) ?? change.tickets[0] ?? change.commits[0]!;
  return { doc, title: doc.title };
}

function ticketKeysOf(change: Change): string[] {
  return [...change.tickets.map((t) => t.key), ...change.pullRequests.flatMap((p) => p.ticketKeys ?? []), ...change.commits.flatMap((c) => c.ticketKeys ?? [])];
}

/** The first thing the change's pull requests, then commits, say users must do. */
function migrationOf(change: Change): string | undefined {
  for (const doc of [...change.pullRequests, ...change.commits]) {
    const note = migrationNote(doc);
    if (note) return note;
  }
  return undefined;
}

const CATEGORY_ORDER: Category[] = ['breaking', 'feature', 'improvement', 'fix', 'other'];

function compareEntries(a: Entry, b: Entry): number {
  return (
    CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category) ||
    compareSemver(a.version, b.version) ||
    compareText(changeTime(a.change), changeTime(b.change)) ||
    compareText(a.title, b.title)
  );
}

function creditContributors(entries: Entry[], excluded: ReadonlySet<string>): Contributor[] {
  const byName = new Map<string, Contributor>();
  const credit = (name: string, doc: ProjectDocument, email?: string) => {
    if (isBot(name, email, excluded)) return;
    const key = name.trim().toLowerCase();
    const c = byName.get(key) ?? { name: name.trim(), credits: [] };
    if (!c.credits.includes(doc)) c.credits.push(doc);
    byName.set(key, c);
  };
  for (const { change } of entries) {
    const prAuthors = new Set(change.pullRequests.map((p) => p.author.trim().toLowerCase()));
    for (const pr of change.pullRequests) credit(pr.author, pr);
    // A commit is cited for the people its pull request does not already credit (its author, co-authors).
    for (const commit of change.commits) {
      for (const { name, email } of [{ name: commit.author }, ...coAuthors(commit.body)]) if (!prAuthors.has(name.trim().toLowerCase())) credit(name, commit, email);
    }
  }
  return [...byName.values()].sort((a, b) => compareText(a.name, b.name));
}

export function selectReleaseNotes(inputs: ReleaseNotesInputs, docs: readonly ProjectDocument[]): ReleaseNotesSelection {
  const { fromVersion: from, toVersion: to } = inputs;
  const reasons = new Map<string, string>();
  const inRange = (v: string | undefined) => v !== undefined && isSemver(v) && inVersionRange(v, from, to);
  const keep = <T extends ProjectDocument>(doc: T, ok: boolean, reason: string): boolean => {
    if (!ok) reasons.set(citationId(doc), reason);
    return ok;
  };

  const commits = docs
    .filter((d): d is CommitDocument => d.kind === 'commit')
    .filter((c) => keep(c, inRange(c.version), 'version outside the requested range'))
    .sort((a, b) => compareText(a.committedAt, b.committedAt) || compareText(a.sha, b.sha));
  const pullRequests = docs
    .filter((d): d is PullRequestDocument => d.kind === 'pull_request')
    .filter((p) => keep(p, inRange(p.version), 'version outside the requested range') && keep(p, p.mergedAt !== undefined, 'not merged'))
    .sort((a, b) => a.number - b.number);
  const tickets = docs
    .filter((d): d is TicketDocument => d.kind === 'ticket')
    .filter((t) => keep(t, inRange(t.fixVersion), 'fix version outside the requested range') && keep(t, isResolved(t), `not resolved (status: ${t.status})`))
    .sort((a, b) => compareText(a.key, b.key));
  const releases = docs
    .filter((d): d is ReleaseDocument => d.kind === 'release')
    .filter((r) => keep(r, isSemver(r.version) && compareSemver(r.version, from) >= 0 && compareSemver(r.version, to) <= 0, 'version outside the requested range'))
    .sort((a, b) => compareSemver(a.version, b.version));

  const excluded = new Set((inputs.excludeContributors ?? []).map((n) => n.trim().toLowerCase()));
  const isBotAuthor = (name: string) => isBot(name, undefined, excluded);
  const forge = forgeOfDocuments(docs);
  // The project's tracker: prefixes of its ticket documents ("WEB" of WEB-7). Keys with other prefixes are words.
  const trackerPrefixes = new Set(docs.filter((d): d is TicketDocument => d.kind === 'ticket').map((t) => t.key.slice(0, t.key.lastIndexOf('-'))));

  const entries: Entry[] = [];
  for (const change of groupChanges(commits, pullRequests, tickets)) {
    const source = titleSource(change);
    const keys: TicketKeys = { own: ticketKeysOf(change), trackerPrefixes };
    const title = tidyTitle(source.title, keys);
    const otherTitles = change.commits.filter((c) => !isMergeCommit(c.title)).map((c) => tidyTitle(c.title, keys));
    const verdict = classify(change, [title, ...otherTitles], isBotAuthor);
    if ('excluded' in verdict) {
      for (const doc of changeDocuments(change)) reasons.set(citationId(doc), verdict.excluded);
      continue;
    }
    const migration = verdict.category === 'breaking' ? migrationOf(change) : undefined;
    entries.push({
      category: verdict.category,
      change,
      title,
      problem: source.doc.kind === 'ticket',
      version: changeVersion(change),
      references: entryReferences(change, forge),
      ...(migration ? { migration } : {}),
    });
  }
  entries.sort(compareEntries);
  return { entries, contributors: creditContributors(entries, excluded), releases, reasons, ...(forge ? { forge } : {}) };
}
