/** The result of a skill invocation (the `result` of an invocation record; checked by check-result.ts). */
import type { DocumentKind } from './types';

/** A section as drafters write it: facts cite their sources with inline markers ([pr:12], [ticket:WEB-7]). */
export interface DraftSection {
  heading: string;
  /** Markdown with inline citation markers. */
  markdown: string;
  /** Ids (see citationId) of the documents this section's facts come from, in order of first mention. */
  citations: string[];
  /** Who wrote the section's prose, when a model was asked: "deterministic" or "llm:<model>". */
  generator?: string;
}

/** A section of a result: publishable markdown, and the same text with its citation markers. */
export interface ResultSection extends DraftSection {
  /** Publishable: markers replaced by links, or footnotes (defined at the section's end) where a source has no address. */
  markdown: string;
  /** The drafter's text with inline markers, for clients that want the machine-readable form. */
  markdownWithCitations: string;
}

/** What happened to one section when a model was asked to rewrite the draft (see model-rewrite.ts). */
export interface ModelSectionReport {
  heading: string;
  /**
   * accepted: the model's prose is shown; unchanged: its answer was the draft's text, so the section is the
   * deterministic draft; refused: it failed the checks; kept: not sent (nothing to rewrite, or no time left).
   */
  outcome: 'accepted' | 'unchanged' | 'refused' | 'failed' | 'timed_out' | 'kept';
  reason?: string;
  durationMs: number;
  /** Facts of the draft section (versions, numbers, dates, identifiers, names, links) and how many the rewrite kept. */
  facts?: { total: number; kept: number };
}

export interface ModelReport {
  name: string;
  sections: ModelSectionReport[];
}

export interface ResultCitation {
  id: string;
  kind: DocumentKind;
  title: string;
  url: string | null;
}

export interface ExcludedDocument {
  id: string;
  reason: string;
}

export interface RetrievalReport {
  /** Documents retrieval returned, per kind (every kind the plan queried, zeros included). */
  searched: Partial<Record<DocumentKind, number>>;
  /** Documents the result cites; every searched document is either used or excluded. */
  used: number;
  excluded: ExcludedDocument[];
}

/** Release notes: which version the document is for, released or a draft before its tag. */
export interface ReleaseStatus {
  version: string;
  /** unreleased: toVersion is not tagged; the document covers everything after fromVersion up to `upTo`. */
  status: 'released' | 'unreleased';
  releasedAt?: string;
  /** Drafts: the newest release in the range, which the proposal follows. */
  base?: string;
  /** Drafts: the version the changes since `base` call for (semver, release-please's rules). */
  proposedVersion?: string;
  bump?: 'major' | 'minor' | 'patch' | 'pre-release';
  /** Drafts: the newest commit the range reaches. */
  upTo?: { sha: string; committedAt: string };
}

export interface SkillResult {
  format: 'markdown';
  title: string;
  /** The whole document, publishable: title and every section rendered for the skill's format, footnotes at the end. */
  markdown: string;
  /** The whole document with inline citation markers, ending with link definitions that make them links. */
  markdownWithCitations: string;
  sections: ResultSection[];
  citations: ResultCitation[];
  /** "deterministic", or "llm:<model>" when a model's rewrite of at least one section passed the checks. */
  generator: string;
  /** Present when a model was asked: what it did with each section. */
  model?: ModelReport;
  retrieval: RetrievalReport;
  /** Remarks for the reader about how the result was made (e.g. why a model's answer was not used). */
  notes?: string[];
  /** Release notes only. */
  release?: ReleaseStatus;
}
