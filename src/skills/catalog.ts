import { incidentRca } from './incident-rca';
import { proposalWriter } from './proposal-writer';
import { releaseNotesComposer } from './release-notes-composer';
import type { SkillDefinition, SkillName } from './types';

/** The catalog, in the order clients see it. */
export const SKILLS: readonly SkillDefinition[] = [releaseNotesComposer, proposalWriter, incidentRca];

const byName = new Map<string, SkillDefinition>(SKILLS.map((s) => [s.name, s]));

export function findSkill(name: string): SkillDefinition | undefined {
  return byName.get(name);
}

export function getSkill(name: SkillName): SkillDefinition {
  const skill = byName.get(name);
  if (!skill) throw new Error(`unknown skill ${name}`);
  return skill;
}
