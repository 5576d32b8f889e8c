import type { IncidentRcaInputs } from './definition';
import type { RetrievalPlan } from '../retrieval-plan';

/** Error issues and runbooks sharing a service: enough for "top by event count" without reading a whole tracker. */
const BY_SERVICE_LIMIT = { error_issue: 50, runbook: 20 };

/**
 * Step 1: the incident. Step 2: its linked error issues and runbooks by id, and those of its services
 * (error issues busiest first), which is how contributing issues nobody linked are found.
 */
export function incidentPlan(inputs: IncidentRcaInputs): RetrievalPlan {
  return {
    steps: [
      { queries: [{ kind: 'incident', where: [{ field: 'incidentId', op: 'eq', value: inputs.incidentId }], limit: 1 }] },
      {
        queries: [
          { kind: 'error_issue', where: [{ field: 'issueId', op: 'in', from: { kind: 'incident', field: 'errorIssueIds' } }], limit: 100 },
          {
            kind: 'error_issue',
            where: [{ field: 'service', op: 'in', from: { kind: 'incident', field: 'services' } }],
            sort: [{ field: 'count', order: 'desc' }],
            limit: BY_SERVICE_LIMIT.error_issue,
          },
          { kind: 'runbook', where: [{ field: 'externalId', op: 'in', from: { kind: 'incident', field: 'runbookIds' } }], limit: 50 },
          {
            kind: 'runbook',
            where: [{ field: 'service', op: 'in', from: { kind: 'incident', field: 'services' } }],
            limit: BY_SERVICE_LIMIT.runbook,
          },
        ],
      },
    ],
  };
}
