/** Blocks shared by the one-pager and the deck: each pain point answered by name, with evidence or plainly not. */
import { cite, citeAll, escapeText } from '../markdown';
import type { ProposalInputs } from './definition';
import { asSentence, joinList, plural } from '../text';
import type { ProposalSelection } from './select';
import { approachQuote, bestFact, customerLabel, inSentence, metricsText, outcomeText, provenance } from './wording';
import type { EvidenceDocument } from '../documents';

const NOT_BACKED = 'not yet backed by evidence';

export function proposalTitle(inputs: ProposalInputs): string {
  return `Proposal for ${escapeText(inputs.customerName.trim())}`;
}

export function summary(inputs: ProposalInputs, sel: ProposalSelection): string {
  const who = `${escapeText(inputs.customerName.trim())}${inputs.industry ? ` (${escapeText(inputs.industry)})` : ''}`;
  const customers = (docs: EvidenceDocument[]) => joinList([...new Set(docs.map((d) => escapeText(d.customer)))]);
  if (sel.answers.length === 0) {
    if (sel.proof.length === 0)
      return `${who} has not shared specific challenges yet, and no documented results relate to its industry, so this proposal makes no claims beyond a first conversation.`;
    return `${who} has not shared specific challenges yet. The results below come from related work with ${customers(sel.proof)} ${citeAll(sel.proof)}.`;
  }
  const backed = sel.answers.filter((a) => a.evidence.length > 0);
  const open = sel.answers.length - backed.length;
  const shared = `${who} shared ${plural(sel.answers.length, 'challenge')}.`;
  if (backed.length === 0) {
    const profile = sel.proof.length ? ` Related results from ${customers(sel.proof)} are listed as background ${citeAll(sel.proof)}.` : '';
    return `${shared} None of them is backed by documented results yet; each is marked as such below.${profile}`;
  }
  const docs = backed.flatMap((a) => a.evidence);
  const backedText =
    backed.length === sel.answers.length ? `For ${backed.length === 1 ? 'it' : `all ${backed.length}`}` : `For ${backed.length} of them`;
  const openText = open ? ` ${plural(open, 'challenge')} ${open === 1 ? 'is' : 'are'} ${NOT_BACKED}, and marked as such below.` : '';
  return `${shared} ${backedText} we can point to results with ${customers(docs)} ${citeAll(docs)}.${openText}`;
}

export function challenges(sel: ProposalSelection): string {
  if (sel.answers.length === 0) return 'No specific challenges were shared yet; the first step below is to agree on them.';
  return sel.answers
    .map((a) => {
      const facts = a.evidence.map((d) => `${customerLabel(d)}: ${inSentence(bestFact(d, a.painPoint))} ${cite(d)}`);
      return `- **${escapeText(a.painPoint)}**: ${facts.length ? facts.join('; ') : NOT_BACKED}`;
    })
    .join('\n');
}

export function approach(sel: ProposalSelection): string {
  if (sel.answers.length === 0) return 'We start with a discovery session to agree on your challenges and how success will be measured.';
  return sel.answers
    .map((a) => {
      const head = `**${escapeText(asSentence(a.painPoint))}**`;
      const best = a.evidence[0];
      if (!best)
        return `${head} Not yet backed by evidence: we have no documented work on this, so we propose to scope it together in discovery before committing to an approach.`;
      return `${head} As with ${escapeText(best.customer)}: “${approachQuote(best, a.painPoint)}” ${cite(best)}`;
    })
    .join('\n\n');
}

/** One proof point in full: who, what came out of it, its numbers, which pain points it answers. */
export function proofPoint(doc: EvidenceDocument, sel: ProposalSelection): { outcome: string; metrics?: string; answers?: string } {
  const answered = sel.answers.filter((a) => a.evidence.includes(doc)).map((a) => escapeText(a.painPoint));
  const metrics = metricsText(doc);
  return {
    outcome: `${customerLabel(doc)}, ${provenance(doc)}: ${asSentence(outcomeText(doc))} ${cite(doc)}`,
    ...(metrics ? { metrics: `${asSentence(metrics)} ${cite(doc)}` } : {}),
    ...(answered.length ? { answers: joinList(answered) } : {}),
  };
}
