import type { SkillDefinition } from './types';

export const proposalWriter: SkillDefinition = {
  name: 'proposal_writer',
  version: '1.0.0',
  title: 'Proposal writer',
  description:
    "Writes a proposal for a prospective customer from the project's wins, case studies and sales notes, answering each pain point with cited evidence.",
  inputSchema: {
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
  },
  output: {
    format: 'markdown',
    sections: ['Summary', 'Your challenges', 'Our approach', 'Proof', 'Next steps'],
  },
  retrievalScope: ['win', 'case_study', 'sales_note'],
};
