/** Inputs of each skill after schema validation (api.md "Skills"; schemas in the catalog entries). */

export type Tone = 'casual' | 'neutral' | 'formal';

export interface ReleaseNotesInputs {
  fromVersion: string;
  toVersion: string;
  /** Defaults to neutral. */
  tone?: Tone;
  /** Names never credited as contributors, besides recognisable bots (e.g. a CI account named like a person). */
  excludeContributors?: string[];
}

export type ProposalFormat = 'email' | 'one-pager' | 'full-deck';

export interface ProposalInputs {
  customerName: string;
  format: ProposalFormat;
  industry?: string;
  painPoints?: string[];
}

export type Severity = 'SEV-1' | 'SEV-2' | 'SEV-3';

export interface IncidentRcaInputs {
  incidentId: string;
  severity: Severity;
}

export interface SkillInputs {
  release_notes_composer: ReleaseNotesInputs;
  proposal_writer: ProposalInputs;
  incident_rca: IncidentRcaInputs;
}
