import type { FromSchema } from '../schema-type';
import type { SkillDefinition } from '../types';

export const incidentInputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['incidentId', 'severity'],
  properties: {
    incidentId: { type: 'string', minLength: 1, maxLength: 200 },
    severity: { type: 'string', enum: ['SEV-1', 'SEV-2', 'SEV-3'] },
  },
} as const;

/** The inputs after validation against incidentInputSchema (ajv, src/api/http/validation.ts). */
export type IncidentRcaInputs = FromSchema<typeof incidentInputSchema>;
export type Severity = IncidentRcaInputs['severity'];

/** This skill's catalog entry, as clients see it (GET /v1/agents/:project/skills). */
export const incidentRca = {
  name: 'incident_rca',
  version: '1.0.0',
  title: 'Incident root-cause analysis',
  description:
    'Reconstructs an incident from its record, linked error-tracking issues and runbooks: timeline with durations, root cause, contributing factors, fix and follow-up actions.',
  inputSchema: incidentInputSchema,
  output: {
    format: 'markdown',
    sections: ['Summary', 'Impact', 'Timeline', 'Root cause', 'Contributing factors', 'Fix', 'Follow-up actions'],
  },
  retrievalScope: ['incident', 'error_issue', 'runbook'],
} as const satisfies SkillDefinition;
