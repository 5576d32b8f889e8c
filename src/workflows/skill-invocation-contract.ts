/**
 * The contract of the `skillInvocation` workflow, for whoever starts or follows it (the API, the CLI, the
 * activities that write progress): its id and its steps. Workflow-safe: no imports.
 */

/** The workflow of an invocation: readable in the Temporal UI, and unique per invocation. */
export const skillWorkflowId = (project: string, invocationId: string) => `skill/${project}/${invocationId}`;

/**
 * The steps, in order; an invocation's `progress.completedSteps` counts the finished ones out of
 * `SKILL_STEPS.length`. A step added here is counted everywhere at once.
 */
export const SKILL_STEPS = ['retrieve', 'draft', 'store'] as const;
export type SkillStep = (typeof SKILL_STEPS)[number];
export const TOTAL_STEPS = SKILL_STEPS.length;
