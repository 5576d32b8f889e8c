import type { ProposalInputs } from '../inputs';
import type { SkillModule } from '../skill-module';
import { draftProposal, proposalRenderer } from './draft';
import { proposalPlan } from './plan';
import { proposalInstructions } from './prompt';
import { selectProposalEvidence } from './select';

export const proposalModule: SkillModule<ProposalInputs> = {
  plan: proposalPlan,
  draft: (inputs, documents, searchedKinds, now) => draftProposal(inputs, selectProposalEvidence(inputs, documents, now), documents, searchedKinds, now),
  render: (inputs) => proposalRenderer(inputs.format),
  instructions: proposalInstructions,
};
