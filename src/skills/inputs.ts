/** Inputs of each skill after schema validation, by skill name. Each type is derived from its folder's input schema. */
import type { IncidentRcaInputs } from './incident/definition';
import type { ProposalInputs } from './proposal/definition';
import type { ReleaseNotesInputs } from './release-notes/definition';

export type { IncidentRcaInputs, Severity } from './incident/definition';
export type { ProposalFormat, ProposalInputs } from './proposal/definition';
export type { ReleaseNotesInputs, Tone } from './release-notes/definition';

export interface SkillInputs {
  release_notes_composer: ReleaseNotesInputs;
  proposal_writer: ProposalInputs;
  incident_rca: IncidentRcaInputs;
}
