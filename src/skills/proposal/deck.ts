/** The full deck: one section per slide; rendered with `---` between slides. */
import { escapeText, section } from '../markdown';
import type { ProposalInputs } from './definition';
import type { DraftSection } from '../result';
import { formatDate } from '../time';
import { approach, challenges, proofPoint } from './blocks';
import type { ProposalSelection } from './select';
import { inSentence } from './wording';

const PROOF_SLIDE = 'Proof';

function titleSlide(inputs: ProposalInputs, now: string): string {
  const industry = inputs.industry ? `${escapeText(inputs.industry)} · ` : '';
  return `${industry}Prepared for the ${escapeText(inputs.customerName.trim())} team, ${formatDate(now)}`;
}

function agenda(sel: ProposalSelection): string {
  const proof = sel.proof.length
    ? `Proof: ${sel.proof.length === 1 ? 'one customer result' : `${sel.proof.length} customer results`}`
    : 'Proof';
  return ['1. Your challenges', '2. Our approach', `3. ${proof}`, '4. Plan and timeline', '5. Next steps'].join('\n');
}

function proofSlides(sel: ProposalSelection): DraftSection[] {
  if (sel.proof.length === 0)
    return [section(PROOF_SLIDE, 'No documented results match these challenges yet; we would rather show none than stretch one.')];
  return sel.proof.map((doc) => {
    const p = proofPoint(doc, sel);
    const lines = [`**Outcome:** ${p.outcome}`, p.metrics && `**Metrics:** ${p.metrics}`, p.answers && `**Answers:** ${p.answers}.`];
    return section(`${PROOF_SLIDE}: ${escapeText(doc.customer)}`, lines.filter(Boolean).join('\n\n'));
  });
}

function plan(sel: ProposalSelection): string {
  const strongest = sel.answers.find((a) => a.evidence.length > 0);
  const open = sel.answers.some((a) => a.evidence.length === 0);
  return [
    'Proposed sequence; dates to be agreed together after discovery.',
    '',
    '1. **Discovery**: confirm the challenges, the success measures and the data involved.',
    `2. **Pilot**: ${strongest ? `start with ${escapeText(inSentence(strongest.painPoint))}, where our evidence is strongest` : 'start with the challenge you rank first'}, in a limited scope.`,
    `3. **Rollout**: extend to the remaining challenges${open ? ', including those not yet backed by evidence once they are scoped' : ''}.`,
    '4. **Review**: measure the results against the success measures from discovery.',
  ].join('\n');
}

export function deckSections(inputs: ProposalInputs, sel: ProposalSelection, now: string): DraftSection[] {
  return [
    section('Title', titleSlide(inputs, now)),
    section('Agenda', agenda(sel)),
    section('Challenges', challenges(sel)),
    section('Approach', approach(sel)),
    ...proofSlides(sel),
    section('Plan and timeline', plan(sel)),
    section('Next steps', 'Book a 30-minute call to agree on the discovery scope.'),
  ];
}

/** Slides separated by `---`; the title slide carries the deck's H1. */
export function renderDeck(title: string, sections: readonly Pick<DraftSection, 'heading' | 'markdown'>[]): string {
  const slides = sections.map((s, i) => (i === 0 ? `# ${title}\n\n${s.markdown}` : `## ${s.heading}\n\n${s.markdown}`));
  return `${slides.join('\n\n---\n\n')}\n`;
}
