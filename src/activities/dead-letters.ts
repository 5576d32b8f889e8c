import type { BillingScope } from '../billing/subscriber-id';
import type { DeadLetterStage } from '../store/dead-letters';
import type { DepsOf } from './deps';

/** The billing workflows' dead-letter place: what failed for good is parked where operators see it. */
export function createDeadLetterActivities(deps: DepsOf<'deadLetters', 'logger'>) {
  const { deadLetters } = deps.repos;
  const { now } = deps;
  return {
    async parkDeadLetter(args: {
      key: string;
      scope: BillingScope;
      stage: Exclude<DeadLetterStage, 'relay'>;
      eventId: string | null;
      type: string | null;
      subscriberId: string;
      workflowId: string;
      reason: string;
      payload: unknown;
    }): Promise<string> {
      const id = await deadLetters.park({ ...args, payload: JSON.stringify(args.payload) }, now());
      deps.logger.error(
        {
          deadLetter: id,
          stage: args.stage,
          scope: args.scope,
          subscriberId: args.subscriberId,
          eventId: args.eventId,
          reason: args.reason,
        },
        'billing work parked as a dead letter',
      );
      return id;
    },
  };
}
