import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * Test-only workflow interceptor: a run's first query spends 0.5–3 s of CPU (a billion additions; the sandbox
 * stops a task at 5 s) before it is answered, so a local activity scheduled in the same workflow task completes
 * while the worker is busy with the query. That is the window in which the SDK records the activity's marker in
 * one workflow task and hands its result to the workflow in the next (billing-query-race.test.ts). The loop
 * counts rather than reading a clock: time stands still inside a workflow.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let slowed = false;
  return {
    inbound: [
      {
        handleQuery(input, next) {
          if (!slowed) {
            slowed = true;
            let x = 0;
            for (let i = 0; i < 1_000_000_000; i++) x = (x + i) | 0;
            // Keeps the loop from being optimised away (x is an integer: never true).
            if (x === 0.5) throw new Error('unreachable');
          }
          return next(input);
        },
      },
    ],
  };
};
