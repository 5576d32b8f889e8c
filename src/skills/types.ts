/** Shared shapes of the skill catalog. Pure: no I/O, safe to import from workflows. */

/** The skills' names; catalog.ts maps each one to its folder's definition (a missing or extra one fails to compile). */
export type SkillName = 'release_notes_composer' | 'proposal_writer' | 'incident_rca';

export const DOCUMENT_KINDS = [
  'commit',
  'pull_request',
  'ticket',
  'release',
  'win',
  'case_study',
  'sales_note',
  'incident',
  'error_issue',
  'runbook',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** A JSON Schema (2020-12) object, kept loose on purpose: ajv is the judge of its contents. */
export type JsonSchema = { [key: string]: unknown };

export interface SkillDefinition {
  name: SkillName;
  version: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  output: { format: 'markdown'; sections: readonly string[] };
  retrievalScope: readonly DocumentKind[];
}
