/** Which evidence a proposal uses, per pain point and per format, and why the rest is left out. */
import type { EvidenceDocument, ProjectDocument } from '../documents';
import type { ProposalFormat, ProposalInputs } from './definition';
import { rankTopEvidence } from './rank';

/** How much evidence each format has room for. */
const ROOM: Record<ProposalFormat, { perPainPoint: number; proof: number }> = {
  email: { perPainPoint: 1, proof: 3 },
  'one-pager': { perPainPoint: 2, proof: 4 },
  'full-deck': { perPainPoint: 2, proof: 5 },
};

export interface PainPointAnswer {
  painPoint: string;
  /** Best first; empty when no document backs the pain point. */
  evidence: EvidenceDocument[];
}

export interface ProposalSelection {
  answers: PainPointAnswer[];
  /** Every document the proposal uses, in order of first use. */
  proof: EvidenceDocument[];
  /** True when the proof is the prospect's industry or own history rather than answers to pain points. */
  proofIsProfileOnly: boolean;
  reasons: Map<string, string>;
}

const isLibrary = (d: ProjectDocument): d is EvidenceDocument => d.kind === 'win' || d.kind === 'case_study' || d.kind === 'sales_note';

/**
 * Only wins and case studies are shown to a prospect as evidence. Sales notes are internal (other prospects'
 * names, discounts, lost deals): they take part in the ranking, so the library's vocabulary is complete,
 * but are never quoted.
 */
const isCustomerFacing = (d: EvidenceDocument) => d.kind !== 'sales_note';

const NOT_RELEVANT = 'not relevant';
const INTERNAL_NOTE = 'relevant, but sales notes are internal and not shown to prospects';

export function selectProposalEvidence(inputs: ProposalInputs, docs: readonly ProjectDocument[], now: string): ProposalSelection {
  const room = ROOM[inputs.format];
  const library = docs.filter(isLibrary);
  const painPoints = (inputs.painPoints ?? []).map((p) => p.trim()).filter(Boolean);
  // Only the first customer-facing documents of each list are used; every other document needs only to know
  // whether it was relevant (its reason), so the ranking keeps just those instead of sorting the library.
  const ranking = rankTopEvidence(library, { customerName: inputs.customerName, industry: inputs.industry }, painPoints, now, {
    perPainPoint: room.perPainPoint,
    profile: Math.min(room.proof, 2),
    keep: isCustomerFacing,
  });

  // Every backed pain point gets its best document first, whatever the room; further ones only while room lasts.
  const proof: EvidenceDocument[] = [];
  const answers: PainPointAnswer[] = painPoints.map((painPoint, i) => ({
    painPoint,
    evidence: ranking.byPainPoint[i].slice(0, 1).map((e) => e.doc),
  }));
  for (const a of answers) for (const d of a.evidence) if (!proof.includes(d)) proof.push(d);
  for (let rank = 1; rank < room.perPainPoint; rank++) {
    answers.forEach((a, i) => {
      const next = ranking.byPainPoint[i][rank]?.doc;
      if (!next) return;
      if (!proof.includes(next)) {
        if (proof.length >= room.proof) return;
        proof.push(next);
      }
      a.evidence.push(next);
    });
  }

  // Without answers to pain points, the prospect's own industry (or history with us) is the only related evidence.
  const proofIsProfileOnly = proof.length === 0;
  if (proofIsProfileOnly) proof.push(...ranking.profile.slice(0, Math.min(room.proof, 2)));

  const rankedBelow = `relevant, but ranked below the evidence used (room for ${room.proof} in a ${inputs.format})`;
  const reasons = new Map<string, string>();
  library.forEach((doc, i) => {
    if (proof.includes(doc)) return;
    const reason = !ranking.relevant[i] ? NOT_RELEVANT : isCustomerFacing(doc) ? rankedBelow : INTERNAL_NOTE;
    reasons.set(ranking.ids[i]!, reason);
  });
  return { answers, proof, proofIsProfileOnly, reasons };
}
