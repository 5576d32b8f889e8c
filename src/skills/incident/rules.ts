import type { BusinessRuleError, ProjectFacts } from '../skill';
import type { IncidentRcaInputs } from './definition';

export function incidentRules(inputs: IncidentRcaInputs, facts: Partial<ProjectFacts>): BusinessRuleError[] {
  return (facts.incidentIds ?? []).includes(inputs.incidentId)
    ? []
    : [{ path: '/incidentId', message: `no incident ${inputs.incidentId} in this project` }];
}
