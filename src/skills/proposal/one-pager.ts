import type { ProposalInputs } from '../inputs';
import { section } from '../markdown';
import type { ResultSection } from '../result';
import { approach, challenges, proofPoint, summary } from './blocks';
import type { ProposalSelection } from './select';

export const ONE_PAGER_HEADINGS = ['Summary', 'Your challenges', 'Our approach', 'Proof', 'Next steps'];

function proof(sel: ProposalSelection): string {
  if (sel.proof.length === 0) return 'No documented results match these challenges yet.';
  return sel.proof
    .map((doc) => {
      const p = proofPoint(doc, sel);
      return [`- ${p.outcome}`, p.metrics && `  Metrics: ${p.metrics}`, p.answers && `  Answers: ${p.answers}.`].filter(Boolean).join('\n');
    })
    .join('\n');
}

const NEXT_STEPS = [
  '1. A 30-minute call to confirm these challenges and how you would measure success.',
  '2. A written plan with scope and timeline, starting where the evidence is strongest.',
  '',
  'Reply to book the call.',
].join('\n');

export function onePagerSections(inputs: ProposalInputs, sel: ProposalSelection): ResultSection[] {
  return [
    section('Summary', summary(inputs, sel)),
    section('Your challenges', challenges(sel)),
    section('Our approach', approach(sel)),
    section('Proof', proof(sel)),
    section('Next steps', NEXT_STEPS),
  ];
}
