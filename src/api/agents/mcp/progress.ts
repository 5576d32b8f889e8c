import { isTerminalStatus } from '../../../skills/invocation-status';

/**
 * An MCP progress value for an invocation's state. MCP requires each notification's `progress` to be greater than
 * the last, while a step under way has finished no more steps than the state before it (`queued` and `retrieving`
 * both have 0): a step under way counts half. Pure.
 */
export function progressValue(progress: { step: string; completedSteps: number }): number {
  const underWay = progress.step !== 'queued' && !isTerminalStatus(progress.step);
  return progress.completedSteps + (underWay ? 0.5 : 0);
}
