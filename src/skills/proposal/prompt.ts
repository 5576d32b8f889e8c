import type { ProposalInputs } from './definition';

const FORMAT_RULES = {
  email:
    'Format email: section "Subject" is the subject line only; section "Body" is the email, under 200 words, with exactly one call to action.',
  'one-pager': 'Format one-pager: sections Summary, Your challenges, Our approach, Proof, Next steps.',
  'full-deck':
    'Format full-deck: each section is one slide (title, agenda, challenges, approach, one slide per proof point, plan and timeline, next steps); keep slides short, bullets over paragraphs.',
};

/** What the model must do for a proposal, beyond the rules every skill shares. */
export function proposalInstructions(inputs: ProposalInputs): string {
  return [
    `You are writing a proposal for the prospect ${JSON.stringify(inputs.customerName)}${inputs.industry ? ` in ${JSON.stringify(inputs.industry)}` : ''}.`,
    FORMAT_RULES[inputs.format],
    'Answer each pain point by name. Back it with the evidence the draft cites for it (outcomes and metrics as the documents state them), or say plainly that it is not yet backed by evidence.',
    'No superlatives, guarantees, prices, discounts or timelines that the documents do not state. Do not name customers the documents do not name.',
  ].join('\n');
}
