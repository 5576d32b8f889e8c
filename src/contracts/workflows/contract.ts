/**
 * What every workflow's contract states, in one shape: the workflow type's name (as the worker registers it:
 * the workflow function's name), how its id is made from what identifies a run, and its signals and queries.
 * Each contract module also exports the workflow's input type and its signature (`…Workflow`), so whoever
 * starts it is typed without importing workflow code. Only the workflow's client (src/temporal/clients/) starts
 * or signals it from outside; workflows signal each other through the same definitions.
 */
import type { QueryDefinition, SignalDefinition } from '@temporalio/workflow';

export interface WorkflowContract<IdArgs extends unknown[]> {
  readonly name: string;
  workflowId(...args: IdArgs): string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each signal and query has its own argument types
  readonly signals: Readonly<Record<string, SignalDefinition<any[], string>>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  readonly queries: Readonly<Record<string, QueryDefinition<any, any[], string>>>;
}
