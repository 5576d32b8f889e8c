import type { EvidenceDocument } from '../../../src/skills/documents';
import { rankTopEvidence, type Profile, type ScoredEvidence } from '../../../src/skills/proposal/rank';

export interface Ranking {
  /** Relevant documents per pain point, best first (same order as the input pain points). */
  byPainPoint: ScoredEvidence[][];
  /** Documents related to the prospect itself (same industry or same customer), best first. */
  profile: EvidenceDocument[];
}

/** Every relevant document per pain point and every profile document, best first: the proposal's ranking with no room limit. */
export function rankEvidence(docs: readonly EvidenceDocument[], profile: Profile, painPoints: readonly string[], now: string): Ranking {
  const all = { perPainPoint: docs.length, profile: docs.length, keep: () => true };
  const { byPainPoint, profile: related } = rankTopEvidence(docs, profile, painPoints, now, all);
  return { byPainPoint, profile: related };
}
