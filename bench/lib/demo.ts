/** The demo project (demo/acme-web) and one invocation case per skill, as the golden tests use them. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectDocument } from '../../src/skills/documents';
import type { SkillInputs } from '../../src/skills/inputs';
import type { SkillName } from '../../src/skills/types';
import { repoRoot } from './paths';

export interface SkillCase<S extends SkillName = SkillName> {
  skill: S;
  inputs: SkillInputs[S];
}

export const DEMO_CASES: SkillCase[] = [
  { skill: 'release_notes_composer', inputs: { fromVersion: '1.2.1', toVersion: '2.0.0', tone: 'neutral' } },
  {
    skill: 'proposal_writer',
    inputs: {
      customerName: 'Harbor & Vine Market',
      industry: 'Retail',
      format: 'one-pager',
      painPoints: [
        'Checkout pages slow down during seasonal peaks',
        'Store managers build order reports by hand in spreadsheets',
        'Staff share logins across stores',
      ],
    },
  },
  { skill: 'incident_rca', inputs: { incidentId: 'INC-2025-014', severity: 'SEV-1' } },
];

export function loadDemo(): {
  org: { id: string; name: string; ownerEmail: string };
  project: { id: string; name: string };
  documents: ProjectDocument[];
} {
  const dir = join(repoRoot(), 'demo');
  const org = JSON.parse(readFileSync(join(dir, 'orgs', 'acme.json'), 'utf8')) as { name: string; ownerEmail: string };
  const project = JSON.parse(readFileSync(join(dir, 'acme-web', 'project.json'), 'utf8')) as { project: string; name: string; org: string };
  const documents = readdirSync(join(dir, 'acme-web'))
    .filter((f) => f.endsWith('.json') && f !== 'project.json')
    .sort()
    .flatMap((f) => (JSON.parse(readFileSync(join(dir, 'acme-web', f), 'utf8')) as { documents: ProjectDocument[] }).documents);
  return { org: { id: project.org, ...org }, project: { id: project.project, name: project.name }, documents };
}
