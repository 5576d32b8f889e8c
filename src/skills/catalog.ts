/**
 * The skill registry: every skill folder's definition, by name. The API routes, the OpenAPI document, the
 * CLI and run.ts (hence the activities) all read skills from here.
 */
import { incidentSkill } from './incident';
import type { SkillInputs } from './inputs';
import { proposalSkill } from './proposal';
import { releaseNotesSkill } from './release-notes';
import type { Skill } from './skill';
import type { SkillDefinition, SkillName } from './types';

const REGISTRY: { [S in SkillName]: Skill<SkillInputs[S]> } = {
  release_notes_composer: releaseNotesSkill,
  proposal_writer: proposalSkill,
  incident_rca: incidentSkill,
};

/** The catalog, in the order clients see it. */
export const SKILLS: readonly SkillDefinition[] = [REGISTRY.release_notes_composer, REGISTRY.proposal_writer, REGISTRY.incident_rca];

const byName = new Map<string, SkillDefinition>(SKILLS.map((s) => [s.name, s]));

export function findSkill(name: string): SkillDefinition | undefined {
  return byName.get(name);
}

export function getSkill(name: SkillName): SkillDefinition {
  const skill = byName.get(name);
  if (!skill) throw new Error(`unknown skill ${name}`);
  return skill;
}

/** The executable skill (plan, drafter, renderer, instructions) of a name. */
export function skillOf<S extends SkillName>(name: S): Skill<SkillInputs[S]> {
  return REGISTRY[name] as Skill<SkillInputs[S]>;
}
