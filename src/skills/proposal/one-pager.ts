import { section } from '../markdown';
import type { DraftSection } from '../result';
import { approach, challenges, proofPoint, summary } from './blocks';
import { proposalWriter, type ProposalInputs } from './definition';
import type { ProposalSelection } from './select';

/** The one-pager's headings, in order, from the catalog entry (definition.ts); email and deck have layouts of their own. */
const [H_SUMMARY, H_CHALLENGES, H_APPROACH, H_PROOF, H_NEXT_STEPS] = proposalWriter.output.sections;

function proof(sel: ProposalSelection): string {
  if (sel.proof.length === 0) return 'No documented results match these challenges yet.';
  return sel.proof
    .map((doc) => {
      const p = proofPoint(doc, sel);
      return [`- ${p.outcome}`, p.metrics && `  Metrics: ${p.metrics}`, p.answers && `  Answers: ${p.answers}.`].filter(Boolean).join('\n');
    })
    .join('\n');
}

function nextSteps(sel: ProposalSelection): string {
  const call = sel.answers.length ? 'confirm these challenges' : 'learn about your challenges';
  return [
    `1. A 30-minute call to ${call} and how you would measure success.`,
    '2. A written plan with scope and timeline, starting where the evidence is strongest.',
    '',
    'Reply to book the call.',
  ].join('\n');
}

export function onePagerSections(inputs: ProposalInputs, sel: ProposalSelection): DraftSection[] {
  return [
    section(H_SUMMARY, summary(inputs, sel)),
    section(H_CHALLENGES, challenges(sel)),
    section(H_APPROACH, approach(sel)),
    section(H_PROOF, proof(sel)),
    section(H_NEXT_STEPS, nextSteps(sel)),
  ];
}
