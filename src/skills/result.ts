/** The result of a skill invocation (the `result` of an invocation record; checked by check-result.ts). */
import type { DocumentKind } from './types';

export interface ResultSection {
  heading: string;
  markdown: string;
  /** Ids (see citationId) of the documents this section's facts come from, in order of first mention. */
  citations: string[];
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

export interface SkillResult {
  format: 'markdown';
  title: string;
  /** The whole document: title and every section, rendered for the skill's format. */
  markdown: string;
  sections: ResultSection[];
  citations: ResultCitation[];
  /** "deterministic", or "llm:<model>" when a model rewrote the prose and its answer passed checkResult. */
  generator: string;
  retrieval: RetrievalReport;
  /** Remarks for the reader about how the result was made (e.g. why a model's answer was not used). */
  notes?: string[];
}
