import { renderDocument } from '../markdown';
import type { Skill } from '../skill';
import { incidentRca, type IncidentRcaInputs } from './definition';
import { draftIncidentRca } from './draft';
import { incidentPlan } from './plan';
import { incidentInstructions } from './prompt';
import { incidentRules } from './rules';
import { selectIncidentDocuments } from './select';

export const incidentSkill: Skill<IncidentRcaInputs> = {
  ...incidentRca,
  rules: incidentRules,
  plan: incidentPlan,
  draft: (inputs, documents, searchedKinds, now) =>
    draftIncidentRca(inputs, selectIncidentDocuments(inputs, documents, now), documents, searchedKinds, now),
  render: () => renderDocument,
  instructions: incidentInstructions,
};
