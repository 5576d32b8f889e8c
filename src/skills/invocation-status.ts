/** The life of a skill invocation as clients see it (the `status` they poll). Pure. */
export const INVOCATION_STATUSES = ['queued', 'retrieving', 'drafting', 'completed', 'failed', 'cancelled'] as const;
export type InvocationStatus = (typeof INVOCATION_STATUSES)[number];
export const TERMINAL_STATUSES: readonly InvocationStatus[] = ['completed', 'failed', 'cancelled'];

/** A terminal status is final: no later write changes it. */
export const isTerminalStatus = (status: string): boolean => (TERMINAL_STATUSES as readonly string[]).includes(status);

export const isInvocationStatus = (value: string): value is InvocationStatus => (INVOCATION_STATUSES as readonly string[]).includes(value);

/**
 * The steps, in order; an invocation's `progress.completedSteps` counts the finished ones out of
 * `SKILL_STEPS.length`. A step added here is counted everywhere at once.
 */
export const SKILL_STEPS = ['retrieve', 'draft', 'store'] as const;
export type SkillStep = (typeof SKILL_STEPS)[number];
export const TOTAL_STEPS = SKILL_STEPS.length;
