import type { Skill } from '../skill';
import { proposalWriter, type ProposalInputs } from './definition';
import { draftProposal, proposalRenderer } from './draft';
import { proposalPlan } from './plan';
import { proposalInstructions } from './prompt';
import { selectProposalEvidence } from './select';

export const proposalSkill: Skill<ProposalInputs> = {
  ...proposalWriter,
  /** A proposal can be written for any customer: no rules beyond the schema. */
  rules: () => [],
  plan: proposalPlan,
  draft: (inputs, documents, searchedKinds, now) =>
    draftProposal(inputs, selectProposalEvidence(inputs, documents, now), documents, searchedKinds, now),
  render: (inputs) => proposalRenderer(inputs.format),
  instructions: proposalInstructions,
  /** Each pain point stays with the evidence that answers it (or with its "not yet backed" line). */
  anchors: (inputs) => inputs.painPoints ?? [],
};
