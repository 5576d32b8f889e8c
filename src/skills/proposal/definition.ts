import type { FromSchema } from '../schema-type';
import type { SkillDefinition } from '../types';

export const proposalInputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['customerName', 'format'],
  properties: {
    customerName: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    format: { type: 'string', enum: ['email', 'one-pager', 'full-deck'] },
    industry: { type: 'string', minLength: 1, maxLength: 100 },
    painPoints: {
      type: 'array',
      maxItems: 20,
      items: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S' },
    },
  },
} as const;

/** The inputs after validation against proposalInputSchema (ajv, src/api/http/validation.ts). */
export type ProposalInputs = FromSchema<typeof proposalInputSchema>;
export type ProposalFormat = ProposalInputs['format'];

/** This skill's catalog entry, as clients see it (GET /v1/agents/:project/skills). */
export const proposalWriter = {
  name: 'proposal_writer',
  version: '1.0.0',
  title: 'Proposal writer',
  description:
    "Writes a proposal for a prospective customer from the project's wins, case studies and sales notes, answering each pain point with cited evidence.",
  inputSchema: proposalInputSchema,
  output: {
    format: 'markdown',
    sections: ['Summary', 'Your challenges', 'Our approach', 'Proof', 'Next steps'],
  },
  retrievalScope: ['win', 'case_study', 'sales_note'],
} as const satisfies SkillDefinition;
