/**
 * Project documents: the retrieval sources of the skills, in the shapes validated by document-schema.ts.
 * Timestamps are ISO 8601 strings; versions are semver strings without a leading "v".
 */
import type { DocumentKind } from './types';

export { DOCUMENT_SCHEMA, DOCUMENT_KIND_SCHEMAS } from './document-schema';

/** How a changeset releases the project's package (the changesets tool: major → breaking, minor → feature, patch → fix). */
export type ChangesetBump = 'major' | 'minor' | 'patch';

/** A changeset a commit adds (`.changeset/*.md`): the summary its changelog line is written from. */
export interface Changeset {
  summary: string;
  /** The bump it gives the project's package; absent when it releases only other packages of the repository. */
  bump?: ChangesetBump;
  /**
   * Without a bump of its own: the package's dependencies of the same repository that it releases, for which the
   * changesets tool bumps the package too and writes "Updated dependencies" into its changelog.
   */
  dependencies?: string[];
}

interface DocumentBase<K extends DocumentKind> {
  kind: K;
  /** Upsert key within (project, kind). */
  externalId: string;
  title: string;
  body: string;
  url?: string;
  createdAt: string;
}

export interface CommitDocument extends DocumentBase<'commit'> {
  sha: string;
  author: string;
  /** The author's login on the forge, when known (import-git reads it from GitHub no-reply addresses). */
  authorLogin?: string;
  committedAt: string;
  /** The first release containing the commit; absent while unreleased. */
  version?: string;
  prNumber?: number;
  ticketKeys?: string[];
  /**
   * The changesets the commit adds, in a repository that uses the changesets tool (import-git reads them); an
   * empty list: the repository used changesets when the commit landed, and it adds none. Absent: not known.
   */
  changesets?: Changeset[];
  /** Set by the store when it returns the document to a plan that asks: the author's first contribution. */
  firstContribution?: boolean;
}

export interface PullRequestDocument extends DocumentBase<'pull_request'> {
  number: number;
  labels?: string[];
  author: string;
  /** The author's login on the forge, when `author` is a name. */
  authorLogin?: string;
  /** Absent while the pull request is open or when it was closed unmerged. */
  mergedAt?: string;
  mergeCommitSha?: string;
  version?: string;
  ticketKeys?: string[];
  /** Set by the store when it returns the document to a plan that asks: the author's first contribution. */
  firstContribution?: boolean;
}

export interface TicketDocument extends DocumentBase<'ticket'> {
  key: string;
  /** bug, feature, story, improvement, task, chore, ... */
  type: string;
  status: string;
  resolvedAt?: string;
  fixVersion?: string;
  labels?: string[];
}

export interface ReleaseDocument extends DocumentBase<'release'> {
  version: string;
  tag?: string;
  sha?: string;
  releasedAt: string;
}

/** Wins, case studies and sales notes share one shape. */
export interface EvidenceDocument<
  K extends 'win' | 'case_study' | 'sales_note' = 'win' | 'case_study' | 'sales_note',
> extends DocumentBase<K> {
  customer: string;
  industry: string;
  outcome?: string;
  metrics?: string[];
  /** When the win, study or note happened; drives recency. */
  date: string;
}

export interface TimelineNote {
  at: string;
  text: string;
}

export interface IncidentDocument extends DocumentBase<'incident'> {
  incidentId: string;
  severity: string;
  status: string;
  startedAt: string;
  detectedAt?: string;
  mitigatedAt?: string;
  resolvedAt?: string;
  services: string[];
  errorIssueIds?: string[];
  runbookIds?: string[];
  timeline?: TimelineNote[];
}

export interface ErrorIssueDocument extends DocumentBase<'error_issue'> {
  issueId: string;
  /** The code location the error tracker blames, e.g. "payments/capture.ts in captureWithRetry". */
  culprit?: string;
  level?: string;
  firstSeen: string;
  lastSeen: string;
  count: number;
  userCount?: number;
  /** The release the issue first appeared in. */
  release?: string;
  service?: string;
}

export interface RunbookDocument extends DocumentBase<'runbook'> {
  service: string;
  steps: string[];
}

export type ProjectDocument =
  | CommitDocument
  | PullRequestDocument
  | TicketDocument
  | ReleaseDocument
  | EvidenceDocument<'win'>
  | EvidenceDocument<'case_study'>
  | EvidenceDocument<'sales_note'>
  | IncidentDocument
  | ErrorIssueDocument
  | RunbookDocument;
