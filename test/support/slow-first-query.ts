import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * Test-only workflow interceptor: a run's first query spends about a second of CPU (0.7 s here: forty
 * serialisations of a million-element array, native code, so the time does not depend on the JIT) before it is
 * answered, so a local activity scheduled in the same workflow task completes while the worker is busy with the
 * query. That is the window in which the SDK records the activity's marker in one workflow task and hands its
 * result to the workflow in the next (billing-query-race.test.ts). Native work keeps it far inside the SDK's
 * 5-second limit per activation on a loaded machine too. Work, not a clock: time stands still inside a workflow.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let slowed = false;
  return {
    inbound: [
      {
        handleQuery(input, next) {
          if (!slowed) {
            slowed = true;
            const numbers = new Array<number>(1_000_000).fill(7);
            let chars = 0;
            for (let i = 0; i < 40; i++) chars += JSON.stringify(numbers).length;
            // Uses the result, so the work cannot be optimised away (never true).
            if (chars === 0) throw new Error('unreachable');
          }
          return next(input);
        },
      },
    ],
  };
};
