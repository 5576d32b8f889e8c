/** The deterministic proposal in the requested format. */
import { assembleResult } from '../assemble';
import type { ProjectDocument } from '../documents';
import type { ProposalFormat, ProposalInputs } from './definition';
import { renderDocument } from '../markdown';
import type { DraftSection, SkillResult } from '../result';
import type { DocumentKind } from '../types';
import { proposalTitle } from './blocks';
import { deckSections, renderDeck } from './deck';
import { emailSections, emailSubject, renderEmail } from './email';
import { onePagerSections } from './one-pager';
import type { ProposalSelection } from './select';

/** How the markdown of a proposal in this format is laid out (also used to render a model's rewrite). */
export function proposalRenderer(
  format: ProposalFormat,
): (title: string, sections: readonly Pick<DraftSection, 'heading' | 'markdown'>[]) => string {
  return format === 'email' ? renderEmail : format === 'full-deck' ? renderDeck : renderDocument;
}

export function draftProposal(
  inputs: ProposalInputs,
  sel: ProposalSelection,
  documents: readonly ProjectDocument[],
  searchedKinds: readonly DocumentKind[],
  now: string,
): SkillResult {
  const [title, sections] =
    inputs.format === 'email'
      ? [emailSubject(inputs, sel), emailSections(inputs, sel)]
      : [proposalTitle(inputs), inputs.format === 'full-deck' ? deckSections(inputs, sel, now) : onePagerSections(inputs, sel)];
  return assembleResult({
    title,
    sections,
    render: proposalRenderer(inputs.format),
    documents,
    searchedKinds,
    reasons: sel.reasons,
    generator: 'deterministic',
  });
}
