/**
 * The input types derived from the schemas (schema-type.ts) are exactly the shapes the drafters were written
 * against: the interfaces below are the hand-written ones they replace. A mismatch fails to compile.
 */
import assert from 'node:assert/strict';
import type { IncidentRcaInputs, ProposalInputs, ReleaseNotesInputs } from '../../../src/skills/inputs';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <T extends true>(value: T) => value;

interface WrittenReleaseNotesInputs {
  fromVersion: string;
  toVersion: string;
  tone?: 'casual' | 'neutral' | 'formal';
  excludeContributors?: string[];
  listing?: { internalWork?: 'omit' | 'list'; docs?: 'count' | 'list' | 'omit' };
}
interface WrittenProposalInputs {
  customerName: string;
  format: 'email' | 'one-pager' | 'full-deck';
  industry?: string;
  painPoints?: string[];
}
interface WrittenIncidentRcaInputs {
  incidentId: string;
  severity: 'SEV-1' | 'SEV-2' | 'SEV-3';
}

describe('skills: input types derived from the schemas', () => {
  it('match the hand-written shapes they replace', () => {
    assert.equal(same<Equal<ReleaseNotesInputs, WrittenReleaseNotesInputs>>(true), true);
    assert.equal(same<Equal<ProposalInputs, WrittenProposalInputs>>(true), true);
    assert.equal(same<Equal<IncidentRcaInputs, WrittenIncidentRcaInputs>>(true), true);
  });
});
