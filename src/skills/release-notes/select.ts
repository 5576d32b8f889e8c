/**
 * Release notes selection: which retrieved documents become entries, in which group, and why the others
 * are left out. Pure; the order of the input never changes the output.
 */
import { citationId } from '../citation-id';
import type { CommitDocument, ProjectDocument, PullRequestDocument, ReleaseDocument, TicketDocument } from '../documents';
import type { ReleaseNotesInputs } from './definition';
import { eachValues } from '../retrieval-plan';
import { compareSemver, inVersionRange, isMajorRelease, isSemver } from '../semver';
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
  /** The change in its author's words: prefixes, scopes, ticket keys and PR references removed. */
  title: string;
  /** The people who made it (pull-request authors, else commit authors and co-authors), bots left out. */
  authors: string[];
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

export interface FirstContribution {
  name: string;
  /** Their first change in the range (the earliest release, then the earliest time). */
  entry: Entry;
  /** The documents of that change that credit them. */
  credits: ProjectDocument[];
}

export interface ReleaseNotesSelection {
  entries: Entry[];
  contributors: Contributor[];
  /** Contributors with no commit or pull request in any release up to fromVersion, in name order. */
  firstContributions: FirstContribution[];
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

/**
 * The title that speaks for the change: its pull request's; else the pull request's title as GitHub writes
 * it on the line after "Merge pull request #N from …"; else its commit's, else its ticket's.
 */
function titleOf(change: Change): string {
  const pr = change.pullRequests.find((p) => !isMergeCommit(p.title));
  if (pr) return pr.title;
  for (const c of change.commits) {
    const prTitle = isPrMerge(c.title) ? c.body.split('\n', 1)[0]!.trim() : '';
    if (prTitle) return prTitle;
  }
  return (change.commits.find((c) => !isMergeCommit(c.title)) ?? change.tickets[0] ?? change.commits[0]!).title;
}

function ticketKeysOf(change: Change): string[] {
  return [
    ...change.tickets.map((t) => t.key),
    ...change.pullRequests.flatMap((p) => p.ticketKeys ?? []),
    ...change.commits.flatMap((c) => c.ticketKeys ?? []),
  ];
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

/** Who made a change, with the document that credits each: its pull requests' authors, else its commits' authors and co-authors. */
function creditsOf(change: Change, excluded: ReadonlySet<string>): { name: string; doc: ProjectDocument }[] {
  const out: { name: string; doc: ProjectDocument }[] = [];
  const prAuthors = new Set(change.pullRequests.map((p) => p.author.trim().toLowerCase()));
  const credit = (name: string, doc: ProjectDocument, email?: string) => {
    if (!isBot(name, email, excluded) && name.trim() !== '') out.push({ name: name.trim(), doc });
  };
  for (const pr of change.pullRequests) credit(pr.author, pr);
  // A commit is cited for the people its pull request does not already credit (its author, co-authors).
  for (const commit of change.commits) {
    for (const { name, email } of [{ name: commit.author }, ...coAuthors(commit.body)])
      if (!prAuthors.has(name.trim().toLowerCase())) credit(name, commit, email);
  }
  return out;
}

function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
}

function creditContributors(entries: Entry[], excluded: ReadonlySet<string>): Contributor[] {
  const byName = new Map<string, Contributor>();
  for (const { change } of entries) {
    for (const { name, doc } of creditsOf(change, excluded)) {
      const key = name.toLowerCase();
      const c = byName.get(key) ?? { name, credits: [] };
      if (!c.credits.includes(doc)) c.credits.push(doc);
      byName.set(key, c);
    }
  }
  return [...byName.values()].sort((a, b) => compareText(a.name, b.name));
}

/**
 * Contributors whose name the plan asked about (eachValues: the authors of the range's commits and pull
 * requests) and for whom no earlier commit or pull request came back. People the plan did not ask about
 * (co-authors, authors past its bound) are never called new: nothing says they are.
 */
function firstContributionsOf(
  entries: Entry[],
  contributors: Contributor[],
  asked: ReadonlySet<string>,
  earlier: ReadonlySet<string>,
): FirstContribution[] {
  const entryOf = new Map<ProjectDocument, Entry>();
  for (const e of entries) for (const d of changeDocuments(e.change)) entryOf.set(d, e);
  const byRelease = (a: Entry, b: Entry) => compareSemver(a.version, b.version) || compareText(changeTime(a.change), changeTime(b.change));
  return contributors
    .filter((c) => asked.has(c.name.toLowerCase()) && !earlier.has(c.name.toLowerCase()))
    .flatMap((c) => {
      const entry = [...new Set(c.credits.map((d) => entryOf.get(d)).filter((e): e is Entry => e !== undefined))].sort(byRelease)[0];
      return entry ? [{ name: c.name, entry, credits: c.credits.filter((d) => entryOf.get(d) === entry) }] : [];
    });
}

export function selectReleaseNotes(inputs: ReleaseNotesInputs, docs: readonly ProjectDocument[]): ReleaseNotesSelection {
  const { fromVersion: from, toVersion: to } = inputs;
  const reasons = new Map<string, string>();
  const inRange = (v: string | undefined) => v !== undefined && isSemver(v) && inVersionRange(v, from, to);
  const keep = <T extends ProjectDocument>(doc: T, ok: boolean, reason: string): boolean => {
    if (!ok) reasons.set(citationId(doc), reason);
    return ok;
  };

  // Commits and pull requests of releases up to `from` come back only to say who contributed before.
  const earlierAuthors = new Set<string>();
  const before = (d: ProjectDocument) =>
    (d.kind === 'commit' || d.kind === 'pull_request') &&
    d.version !== undefined &&
    isSemver(d.version) &&
    compareSemver(d.version, from) <= 0;
  for (const d of docs) {
    if (!before(d)) continue;
    const author = (d as CommitDocument | PullRequestDocument).author;
    earlierAuthors.add(author.trim().toLowerCase());
    reasons.set(citationId(d), `an earlier contribution by ${author}: shows they are not a new contributor`);
  }
  const asked = new Set(
    eachValues(
      docs.filter((d) => (d.kind === 'commit' || d.kind === 'pull_request') && inRange(d.version)),
      [
        { kind: 'commit', field: 'author' },
        { kind: 'pull_request', field: 'author' },
      ],
    ).map((a) => String(a).trim().toLowerCase()),
  );

  const commits = docs
    .filter((d): d is CommitDocument => d.kind === 'commit' && !before(d))
    .filter((c) => keep(c, inRange(c.version), 'version outside the requested range'))
    .sort((a, b) => compareText(a.committedAt, b.committedAt) || compareText(a.sha, b.sha));
  const pullRequests = docs
    .filter((d): d is PullRequestDocument => d.kind === 'pull_request' && !before(d))
    .filter((p) => keep(p, inRange(p.version), 'version outside the requested range') && keep(p, p.mergedAt !== undefined, 'not merged'))
    .sort((a, b) => a.number - b.number);
  const tickets = docs
    .filter((d): d is TicketDocument => d.kind === 'ticket')
    .filter(
      (t) =>
        keep(t, inRange(t.fixVersion), 'fix version outside the requested range') &&
        keep(t, isResolved(t), `not resolved (status: ${t.status})`),
    )
    .sort((a, b) => compareText(a.key, b.key));
  const releases = docs
    .filter((d): d is ReleaseDocument => d.kind === 'release')
    .filter((r) =>
      keep(
        r,
        isSemver(r.version) && compareSemver(r.version, from) >= 0 && compareSemver(r.version, to) <= 0,
        'version outside the requested range',
      ),
    )
    .sort((a, b) => compareSemver(a.version, b.version));

  const excluded = new Set((inputs.excludeContributors ?? []).map((n) => n.trim().toLowerCase()));
  const isBotAuthor = (name: string) => isBot(name, undefined, excluded);
  const forge = forgeOfDocuments(docs);
  // The project's tracker: prefixes of its ticket documents ("WEB" of WEB-7). Keys with other prefixes are words.
  const trackerPrefixes = new Set(
    docs.filter((d): d is TicketDocument => d.kind === 'ticket').map((t) => t.key.slice(0, t.key.lastIndexOf('-'))),
  );

  const entries: Entry[] = [];
  for (const change of groupChanges(commits, pullRequests, tickets)) {
    const keys: TicketKeys = { own: ticketKeysOf(change), trackerPrefixes };
    const title = tidyTitle(titleOf(change), keys);
    const otherTitles = change.commits.filter((c) => !isMergeCommit(c.title)).map((c) => tidyTitle(c.title, keys));
    const version = changeVersion(change);
    const verdict = classify(change, [title, ...otherTitles], isBotAuthor, isMajorRelease(version));
    if ('excluded' in verdict) {
      for (const doc of changeDocuments(change)) reasons.set(citationId(doc), verdict.excluded);
      continue;
    }
    const migration = verdict.category === 'breaking' ? migrationOf(change) : undefined;
    entries.push({
      category: verdict.category,
      change,
      title,
      authors: uniqueNames(creditsOf(change, excluded).map((c) => c.name)),
      version,
      references: entryReferences(change, forge),
      ...(migration ? { migration } : {}),
    });
  }
  entries.sort(compareEntries);
  const contributors = creditContributors(entries, excluded);
  const firstContributions = firstContributionsOf(entries, contributors, asked, earlierAuthors);
  return { entries, contributors, firstContributions, releases, reasons, ...(forge ? { forge } : {}) };
}
