import type { IncidentRcaInputs } from '../inputs';
import { renderDocument } from '../markdown';
import type { SkillModule } from '../skill-module';
import { draftIncidentRca } from './draft';
import { incidentPlan } from './plan';
import { incidentInstructions } from './prompt';
import { selectIncidentDocuments } from './select';

export const incidentModule: SkillModule<IncidentRcaInputs> = {
  plan: incidentPlan,
  draft: (inputs, documents, searchedKinds, now) => draftIncidentRca(inputs, selectIncidentDocuments(inputs, documents, now), documents, searchedKinds, now),
  render: () => renderDocument,
  instructions: incidentInstructions,
};
