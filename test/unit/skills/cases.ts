/** The demo cases every golden and invariant test runs: each skill, tone, format and severity. */
import type { ProjectDocument } from '../../../src/skills/documents';
import type { SkillInputs } from '../../../src/skills/inputs';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft } from '../../../src/skills/run';
import type { SkillName } from '../../../src/skills/types';
import { DEMO_NOW, loadDemoDocuments } from './demo';
import { retrieve } from './memory-store';

export interface DemoCase<S extends SkillName = SkillName> {
  skill: S;
  name: string;
  inputs: SkillInputs[S];
}

export const RETAIL = {
  customerName: 'Harbor & Vine Market',
  industry: 'Retail',
  painPoints: [
    'Checkout pages slow down during seasonal peaks',
    'Store managers build order reports by hand in spreadsheets',
    'Staff share logins across stores',
    'Loyalty program data lives in a separate system',
  ],
};

export const CASES: DemoCase[] = [
  { skill: 'release_notes_composer', name: 'neutral-1.2.1-2.0.0', inputs: { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'neutral' } },
  { skill: 'release_notes_composer', name: 'casual-1.2.1-2.0.0', inputs: { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'casual' } },
  { skill: 'release_notes_composer', name: 'formal-1.2.1-2.0.0', inputs: { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'formal' } },
  { skill: 'release_notes_composer', name: 'neutral-1.0.0-1.2.1', inputs: { fromVersion: '1.0.0', toVersion: '1.2.1' } },
  { skill: 'proposal_writer', name: 'email-retail', inputs: { ...RETAIL, format: 'email' } },
  { skill: 'proposal_writer', name: 'one-pager-retail', inputs: { ...RETAIL, format: 'one-pager' } },
  { skill: 'proposal_writer', name: 'full-deck-retail', inputs: { ...RETAIL, format: 'full-deck' } },
  {
    skill: 'proposal_writer',
    name: 'one-pager-healthcare-no-pain-points',
    inputs: { customerName: 'Cedar Valley Health', industry: 'Healthcare', format: 'one-pager' },
  },
  { skill: 'incident_rca', name: 'sev1-INC-2025-014', inputs: { incidentId: 'INC-2025-014', severity: 'SEV-1' } },
  { skill: 'incident_rca', name: 'sev2-INC-2025-014', inputs: { incidentId: 'INC-2025-014', severity: 'SEV-2' } },
  { skill: 'incident_rca', name: 'sev3-INC-2025-022', inputs: { incidentId: 'INC-2025-022', severity: 'SEV-3' } },
];

let demo: ProjectDocument[] | undefined;

/** What retrieval returns for a case from the demo project, through the same plan a real invocation runs. */
export function retrievedFor(c: DemoCase): ProjectDocument[] {
  demo ??= loadDemoDocuments();
  return retrieve(retrievalPlan(c.skill, c.inputs), demo);
}

export function runCase(c: DemoCase, docs: readonly ProjectDocument[] = retrievedFor(c)): SkillResult {
  return selectAndDraft(c.skill, c.inputs, docs, DEMO_NOW);
}
