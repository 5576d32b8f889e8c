/**
 * The entitlement a skill requires that the project does not hold, or null when it may run. `required` maps a
 * skill to the entitlement id it needs (SKILL_ENTITLEMENTS); skills not listed need none.
 */
export function missingEntitlement(skill: string, required: Record<string, string>, held: ReadonlyArray<{ id: string }>): string | null {
  const needed = required[skill];
  if (!needed) return null;
  return held.some((e) => e.id === needed) ? null : needed;
}
