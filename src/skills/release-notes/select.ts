/**
 * Release notes selection: which retrieved documents become entries, in which group, and why the others
 * are left out; who is credited, and who contributes for the first time; whether the notes are a draft before
 * the tag, and which version the changes call for. Pure; the order of the input never changes the output.
 */
import { citationId } from '../citation-id';
import { contributionRank } from '../contributions';
import type { CommitDocument, ProjectDocument, PullRequestDocument, ReleaseDocument, TicketDocument } from '../documents';
import type { ReleaseNotesInputs } from './definition';
import { compareSemver, inVersionRange, isMajorRelease, isSemver } from '../semver';
import { compareText } from '../text';
import type { Forge } from '../forge';
import { isBot } from './bots';
import { groupChanges, changeDocuments, type Change } from './changes';
import { listingOf, type Listing } from './listing';
import {
  BUMP_CATEGORY,
  changesetDetail,
  changesetsOf,
  changesetTitle,
  releasingChangesets,
  updatedDependencies,
  updatedDependenciesTitle,
} from './changesets';
import { classify, type Category, type Classification } from './classify';
import { coAuthors, isMergeCommit, isPrMerge, revertOf, tidyTitle, type TicketKeys } from './conventional';
import { migrationNote } from './migration';
import { agreesWith, proposeVersion, type Bump, type Proposal } from './next-version';
import { People } from './people';
import { taggedAs } from './plan';
import { entryReferences, forgeOfDocuments, type Reference } from './references';
import { joinRepeatedTitles } from './repeats';

export interface Entry {
  category: Category;
  change: Change;
  /** The change in its author's words: prefixes, scopes, ticket keys and PR references removed. */
  title: string;
  /** The people who made it (pull-request authors, else commit authors and co-authors), bots left out, as People names them. */
  authors: string[];
  /** What users must do, from a BREAKING CHANGE footer or a migration section; breaking entries only. */
  migration?: string;
  /** The first release containing the change; undefined while it is not released (a draft before the tag). */
  version: string | undefined;
  /** Its pull requests and tickets, linked where the repository's web address is known. */
  references: Reference[];
}

export interface Contributor {
  /** As People names them: "@login", else the name. */
  name: string;
  /** What they are credited for: a pull request, or the commit when the change has none. */
  credits: ProjectDocument[];
}

export interface FirstContribution {
  name: string;
  /** The references of the change that was their first contribution (listed or not: a test fix counts too). */
  references: Reference[];
  /** The document that is their first contribution. */
  credits: ProjectDocument[];
}

/** A draft before the tag: toVersion is not tagged, and the range runs to the newest imported commit. */
export interface ReleaseDraft {
  /** The newest release in the range (fromVersion when there is none after it): what the proposal follows. */
  base: string;
  /** The newest commit not released yet, when there is one: where the range ends. */
  head?: CommitDocument;
  /** The version the changes since `base` call for; undefined when nothing listed is waiting for a release. */
  proposal?: Proposal;
  /** Why: the strongest kind of change since `base`. */
  strongest?: 'breaking' | 'feature' | 'other';
  /** Where toVersion disagrees with the proposal, for the reader (result.notes). */
  warnings: string[];
}

export interface ReleaseNotesSelection {
  entries: Entry[];
  contributors: Contributor[];
  /** People whose first contribution to the project (over its whole history) is in the range, in name order. */
  firstContributions: FirstContribution[];
  /** Release records from fromVersion to toVersion inclusive, in version order. */
  releases: ReleaseDocument[];
  /** Why each left-out document was left out, by citation id. */
  reasons: Map<string, string>;
  /** The repository the documents link to, when they link to one on GitHub, GitLab or Bitbucket. */
  forge?: Forge;
  /** Present when toVersion is not tagged. */
  draft?: ReleaseDraft;
}

const RESOLVED_STATUSES = new Set(['done', 'resolved', 'closed', 'fixed', 'released', 'complete', 'completed', 'shipped']);

function isResolved(ticket: TicketDocument): boolean {
  return ticket.resolvedAt !== undefined || RESOLVED_STATUSES.has(ticket.status.trim().toLowerCase());
}

/** Semver order, a change not released yet after every release. */
export function compareVersions(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return compareSemver(a, b);
}

/**
 * The first release containing the change: its commits' and pull requests' lowest version (none: not released
 * yet); a change known only from tickets takes their fix version, unless that version is not tagged (a draft).
 */
function changeVersion(change: Change, isTagged: (v: string) => boolean): string | undefined {
  const shipped = [...change.commits, ...change.pullRequests];
  const versions = (shipped.length > 0 ? shipped.map((d) => d.version) : change.tickets.map((t) => t.fixVersion)).filter(
    (v): v is string => v !== undefined && (shipped.length > 0 || isTagged(v)),
  );
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

const CATEGORY_ORDER: Category[] = ['breaking', 'feature', 'improvement', 'fix', 'revert', 'other', 'docs'];

/**
 * Entries by category, then release, then when the change landed, then title. Each entry's keys are computed
 * once, not in every comparison (a range of a large project sorts hundreds of entries).
 */
function sortEntries(entries: readonly Entry[]): Entry[] {
  const keyed = entries.map((entry) => ({
    entry,
    rank: CATEGORY_ORDER.indexOf(entry.category),
    time: changeTime(entry.change).toLowerCase(),
    title: entry.title.toLowerCase(),
  }));
  // compareText on the lower-cased forms computed above; the original strings break ties as it does.
  const compareKeyed = (x: string, y: string, a: string, b: string) => (x !== y ? (x < y ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0);
  keyed.sort(
    (a, b) =>
      a.rank - b.rank ||
      compareVersions(a.entry.version, b.entry.version) ||
      compareKeyed(a.time, b.time, changeTime(a.entry.change), changeTime(b.entry.change)) ||
      compareKeyed(a.title, b.title, a.entry.title, b.entry.title),
  );
  return keyed.map((k) => k.entry);
}

/** Who is never credited: bots, and the names (or logins) the caller listed in excludeContributors. */
interface Crediting {
  people: People;
  excluded: ReadonlySet<string>;
}

const creditable = (c: Crediting, name: string, email?: string, login?: string) =>
  name.trim() !== '' && !isBot(name, email) && !c.people.aliases(name, login).some((a) => c.excluded.has(a));

/**
 * Who made a change, with the document that credits each: its pull requests' authors, else its commits' authors
 * and co-authors. The author of a "Merge pull request" commit merged the branch; its commits' authors made it.
 */
function creditsOf(change: Change, c: Crediting): { name: string; doc: ProjectDocument }[] {
  const out: { name: string; doc: ProjectDocument }[] = [];
  const prAuthors = new Set(change.pullRequests.map((p) => c.people.display(p.author, p.authorLogin).toLowerCase()));
  const credit = (name: string, doc: ProjectDocument, email?: string, login?: string) => {
    if (creditable(c, name, email, login)) out.push({ name: c.people.display(name, login), doc });
  };
  for (const pr of change.pullRequests) credit(pr.author, pr, undefined, pr.authorLogin);
  const branch = change.commits.filter((commit) => !isPrMerge(commit.title));
  const authored = branch.length > 0 ? branch : change.commits;
  // A commit is cited for the people its pull request does not already credit (its author, co-authors).
  for (const commit of authored) {
    for (const { name, email, login } of [{ name: commit.author, login: commit.authorLogin }, ...coAuthors(commit.body)] as {
      name: string;
      email?: string;
      login?: string;
    }[])
      if (!prAuthors.has(c.people.display(name, login).toLowerCase())) credit(name, commit, email, login);
  }
  return out;
}

function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
}

/** People in name order, "@login" sorted by the login. */
const compareNames = (a: string, b: string) => compareText(a.replace(/^@/, ''), b.replace(/^@/, ''));

function creditContributors(entries: Entry[], c: Crediting): Contributor[] {
  const byName = new Map<string, Contributor>();
  for (const { change } of entries) {
    for (const { name, doc } of creditsOf(change, c)) {
      const key = name.toLowerCase();
      const contributor = byName.get(key) ?? { name, credits: [] };
      if (!contributor.credits.includes(doc)) contributor.credits.push(doc);
      byName.set(key, contributor);
    }
  }
  return [...byName.values()].sort((a, b) => compareNames(a.name, b.name));
}

/**
 * The people whose first contribution to the project is in the range: the store marks each commit or pull
 * request that is its author's first over the whole history (contributions.ts), whether or not the change is
 * listed (a first pull request that fixes a test counts, as on GitHub). One per person, their earliest.
 */
function firstContributionsOf(changes: readonly Change[], forge: Forge | undefined, c: Crediting): FirstContribution[] {
  const byName = new Map<string, { rank: string; first: FirstContribution }>();
  for (const change of changes) {
    for (const doc of [...change.pullRequests, ...change.commits]) {
      if (!doc.firstContribution || !creditable(c, doc.author, undefined, doc.authorLogin)) continue;
      const name = c.people.display(doc.author, doc.authorLogin);
      const rank = contributionRank(doc);
      const seen = byName.get(name.toLowerCase());
      if (seen && seen.rank <= rank) continue;
      // Cited as GitHub names it: by the pull request that person authored, when the change has one.
      const theirs = change.pullRequests.filter((p) => c.people.display(p.author, p.authorLogin) === name);
      byName.set(name.toLowerCase(), {
        rank,
        first: { name, references: entryReferences(change, forge), credits: theirs.length ? theirs : [doc] },
      });
    }
  }
  return [...byName.values()].map((f) => f.first).sort((a, b) => compareNames(a.name, b.name));
}

/**
 * Reverts of changes in the same range undo what users never had: both are left out, each saying why. Matched
 * by the reverted commit's sha (git's "This reverts commit …") or, failing that, by the reverted title.
 */
function revertsWithinRange(changes: readonly { change: Change; title: string }[], reasons: Map<string, string>): Set<Change> {
  const bySha = new Map<string, Change>();
  const byTitle = new Map<string, Change>();
  for (const { change, title } of changes) {
    for (const c of change.commits) bySha.set(c.sha.toLowerCase(), change);
    if (!byTitle.has(title.toLowerCase())) byTitle.set(title.toLowerCase(), change);
  }
  const gone = new Set<Change>();
  for (const { change } of changes) {
    for (const doc of [...change.pullRequests, ...change.commits]) {
      const revert = revertOf(doc.title, doc.body);
      if (!revert) continue;
      const sha = revert.sha;
      const target =
        (sha && [...bySha.entries()].find(([full]) => full.startsWith(sha) || sha.startsWith(full))?.[1]) ||
        byTitle.get(tidyTitle(revert.title).toLowerCase());
      if (!target || target === change || gone.has(target)) continue;
      gone.add(change).add(target);
      const revertId = citationId(doc);
      for (const d of changeDocuments(target)) reasons.set(citationId(d), `reverted in the same range (${revertId})`);
      for (const d of changeDocuments(change)) reasons.set(citationId(d), 'reverts a change of the same range');
      break;
    }
  }
  return gone;
}

/**
 * The project's listing policy applied to a verdict: its own work on the code listed under Other changes when it
 * lists it (its CI and repository automation never), documentation listed there one by one (a typo fix still only
 * counted), or left out.
 */
function listed(verdict: Classification, listing: Required<Listing>): Classification {
  if ('excluded' in verdict) return verdict.internal === 'work' && listing.internalWork === 'list' ? { category: 'other' } : verdict;
  if (verdict.category !== 'docs' || listing.docs === 'count') return verdict;
  if (listing.docs === 'omit') return { excluded: 'documentation (the project lists none)' };
  return verdict.countOnly ? verdict : { category: 'other' };
}

/** Why a version is proposed, by the strongest kind of change waiting for a release. */
export const STRONGEST_WORDS: Record<'breaking' | 'feature' | 'other', string> = {
  breaking: 'a breaking change',
  feature: 'new features and nothing breaking',
  other: 'fixes and other changes, no new feature',
};

/** The strongest kind among the entries not released yet, and the bump it calls for. */
function strongestUnreleased(entries: readonly Entry[]): { strongest: 'breaking' | 'feature' | 'other'; bump: Bump } | undefined {
  const waiting = entries.filter((e) => e.version === undefined);
  if (waiting.length === 0) return undefined;
  if (waiting.some((e) => e.category === 'breaking')) return { strongest: 'breaking', bump: 'major' };
  if (waiting.some((e) => e.category === 'feature')) return { strongest: 'feature', bump: 'minor' };
  return { strongest: 'other', bump: 'patch' };
}

function draftOf(
  to: string,
  from: string,
  releases: readonly ReleaseDocument[],
  unreleased: readonly CommitDocument[],
  entries: readonly Entry[],
): ReleaseDraft {
  const base = releases.map((r) => r.version).reduce((a, b) => (compareSemver(b, a) > 0 ? b : a), from);
  const head = [...unreleased].sort((a, b) => compareText(b.committedAt, a.committedAt) || compareText(a.sha, b.sha))[0];
  const strongest = strongestUnreleased(entries);
  const warnings: string[] = [];
  if (!strongest) {
    warnings.push(`Nothing listed has changed since ${base}: no version to propose for ${to}.`);
    return { base, ...(head ? { head } : {}), warnings };
  }
  const proposal = proposeVersion(base, strongest.bump);
  if (!agreesWith(to, proposal)) {
    warnings.push(
      `toVersion ${to} disagrees with the changes since ${base}, which call for ${proposal.version} (${proposal.bump}: ${STRONGEST_WORDS[strongest.strongest]}).`,
    );
  }
  return { base, ...(head ? { head } : {}), proposal, strongest: strongest.strongest, warnings };
}

export function selectReleaseNotes(inputs: ReleaseNotesInputs, docs: readonly ProjectDocument[]): ReleaseNotesSelection {
  const { fromVersion: from, toVersion: to } = inputs;
  const listing = listingOf(inputs.listing);
  const reasons = new Map<string, string>();
  const tagged = taggedAs(to).some((u) =>
    docs.some((d) => d.kind === u.kind && (d as unknown as Record<string, unknown>)[u.field] === u.value),
  );
  const inRange = (v: string | undefined) => v !== undefined && isSemver(v) && inVersionRange(v, from, to);
  // A draft before the tag also takes what is not released yet.
  const inChanges = (v: string | undefined) => inRange(v) || (!tagged && v === undefined);
  const keep = <T extends ProjectDocument>(doc: T, ok: boolean, reason: string): boolean => {
    if (!ok) reasons.set(citationId(doc), reason);
    return ok;
  };

  const commits = docs
    .filter((d): d is CommitDocument => d.kind === 'commit')
    .filter((c) => keep(c, inChanges(c.version), 'version outside the requested range'))
    .sort((a, b) => compareText(a.committedAt, b.committedAt) || compareText(a.sha, b.sha));
  const pullRequests = docs
    .filter((d): d is PullRequestDocument => d.kind === 'pull_request')
    .filter((p) => keep(p, inChanges(p.version), 'version outside the requested range') && keep(p, p.mergedAt !== undefined, 'not merged'))
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
  const releaseVersions = new Set(releases.map((r) => r.version));

  const people = new People(docs);
  const crediting: Crediting = { people, excluded: new Set((inputs.excludeContributors ?? []).map((n) => n.trim().toLowerCase())) };
  const isBotAuthor = (name: string) => isBot(name) || crediting.excluded.has(name.trim().toLowerCase());
  const forge = forgeOfDocuments(docs);
  // The project's tracker: prefixes of its ticket documents ("WEB" of WEB-7). Keys with other prefixes are words.
  const trackerPrefixes = new Set(
    docs.filter((d): d is TicketDocument => d.kind === 'ticket').map((t) => t.key.slice(0, t.key.lastIndexOf('-'))),
  );

  const changes = groupChanges(commits, pullRequests, tickets).map((change) => {
    const keys: TicketKeys = { own: ticketKeysOf(change), trackerPrefixes };
    return { change, title: tidyTitle(titleOf(change), keys), keys };
  });
  const reverted = revertsWithinRange(changes, reasons);
  const entries: Entry[] = [];
  // Entries in a changeset's own words: one line per changeset, as the tool writes them, never joined.
  const ownLines = new Set<Entry>();
  for (const { change, title, keys } of changes) {
    if (reverted.has(change)) continue;
    const otherTitles = () => change.commits.filter((c) => !isMergeCommit(c.title)).map((c) => tidyTitle(c.title, keys));
    const version = changeVersion(change, (v) => tagged || releaseVersions.has(v));
    const verdict = listed(classify(change, title, otherTitles, isBotAuthor, version !== undefined && isMajorRelease(version)), listing);
    if ('excluded' in verdict) {
      for (const doc of changeDocuments(change)) reasons.set(citationId(doc), verdict.excluded);
      continue;
    }
    const authors = uniqueNames(creditsOf(change, crediting).map((c) => c.name));
    const references = entryReferences(change, forge);
    // One line per changeset, in its own group and words, as the changesets tool writes the changelog.
    const changesets = releasingChangesets(changesetsOf(change) ?? []);
    if (changesets.length > 0) {
      for (const c of changesets) {
        const category = BUMP_CATEGORY[c.bump];
        // A major changeset's words after its first paragraph are what users must do.
        const migration = category === 'breaking' ? changesetDetail(c.summary) : undefined;
        const entry: Entry = {
          category,
          change,
          title: changesetTitle(c.summary),
          authors,
          version,
          references,
          ...(migration ? { migration } : {}),
        };
        entries.push(entry);
        ownLines.add(entry);
      }
      continue;
    }
    const dependencies = updatedDependencies(changesetsOf(change) ?? []);
    if (dependencies.length > 0) {
      const entry: Entry = { category: 'fix', change, title: updatedDependenciesTitle(dependencies), authors, version, references };
      entries.push(entry);
      ownLines.add(entry);
      continue;
    }
    const migration = verdict.category === 'breaking' ? migrationOf(change) : undefined;
    // Under Reverts, the change it undoes, as release-please lists it ("revert: Undeprecate `adapter`").
    const reverts = verdict.category === 'revert' ? revertOf(titleOf(change), '') : undefined;
    entries.push({
      category: verdict.category,
      change,
      title: reverts ? tidyTitle(reverts.title, keys) : title,
      authors,
      version,
      references,
      ...(migration ? { migration } : {}),
    });
  }
  const sorted = sortEntries(
    joinRepeatedTitles(
      entries,
      (e) => !ownLines.has(e),
      compareVersions,
      (e) => ({ ...e, references: entryReferences(e.change, forge) }),
    ),
  );
  const contributors = creditContributors(sorted, crediting);
  const firstContributions = firstContributionsOf(
    changes.map((c) => c.change),
    forge,
    crediting,
  );
  const draft = tagged
    ? undefined
    : draftOf(
        to,
        from,
        releases,
        commits.filter((c) => c.version === undefined),
        entries,
      );
  return {
    entries: sorted,
    contributors,
    firstContributions,
    releases,
    reasons,
    ...(forge ? { forge } : {}),
    ...(draft ? { draft } : {}),
  };
}
