/**
 * The 422 cases: inputs that match the schema but cannot be served for this project. The caller looks up
 * the facts (the project's release versions, whether the incident exists) and passes them in; a fact the
 * caller leaves out counts as empty, so forgetting one fails loudly instead of letting a bad request through.
 */
import { skillOf } from './catalog';
import type { SkillInputs } from './inputs';
import type { BusinessRuleError, ProjectFacts } from './skill';
import type { SkillName } from './types';

export type { BusinessRuleError, ProjectFacts } from './skill';

/** Each skill's own rules (its folder's rules.ts; a skill without any has none). */
export function validateBusinessRules<S extends SkillName>(
  skill: S,
  inputs: SkillInputs[S],
  facts: Partial<ProjectFacts>,
): BusinessRuleError[] {
  const definition = skillOf(skill) as ReturnType<typeof skillOf<S>> | undefined;
  return definition ? definition.rules(inputs, facts) : [];
}
