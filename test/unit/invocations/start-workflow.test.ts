import assert from 'node:assert/strict';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { startInvocationWorkflow, type StartClient } from '../../../src/invocations/start-workflow';
import type { InvocationRecord } from '../../../src/store/invocations';

const record = {
  _id: 'inv_1',
  project: 'p',
  skill: 'proposal_writer',
  inputs: { customerName: 'C', format: 'email' },
  createdAt: new Date('2026-01-01T00:00:00Z'),
  workflowId: 'skill/p/inv_1',
} as unknown as InvocationRecord;

const grpc = (code: number, message: string) => Object.assign(new Error(message), { code });

/** A client whose start fails as given and whose describe answers as given; counts the starts. */
function client(start: () => Promise<unknown>, describe: () => Promise<unknown>) {
  const calls = { start: 0, describe: 0 };
  const c = {
    connection: { withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() },
    workflow: {
      start: async () => (calls.start++, start()),
      getHandle: () => ({ describe: async () => (calls.describe++, describe()) }),
    },
  } as unknown as StartClient;
  return { c, calls };
}

describe('starting an invocation workflow', () => {
  it('a start whose deadline passed but that reached Temporal counts as started: the record and key stay', async () => {
    const { c, calls } = client(() => Promise.reject(grpc(4, 'DEADLINE_EXCEEDED')), () => Promise.resolve({ status: { name: 'RUNNING' } }));
    assert.equal(await startInvocationWorkflow(c, 'q', record, 'deterministic'), 'started');
    assert.deepEqual(calls, { start: 1, describe: 1 });
  });

  it('a cancelled start that never reached Temporal is reported as not started', async () => {
    const { c } = client(() => Promise.reject(grpc(1, 'CANCELLED')), () => Promise.reject(new WorkflowNotFoundError('no run', 'skill/p/inv_1', undefined)));
    assert.equal(await startInvocationWorkflow(c, 'q', record, 'deterministic'), 'not-started');
  });

  it('when Temporal cannot say whether the run exists, the outcome is unknown (never "not started")', async () => {
    const { c } = client(() => Promise.reject(grpc(4, 'DEADLINE_EXCEEDED')), () => Promise.reject(grpc(14, 'UNAVAILABLE')));
    assert.equal(await startInvocationWorkflow(c, 'q', record, 'deterministic'), 'unknown');
  });

  it('an unreachable server refused the call: not started, without asking again', async () => {
    const { c, calls } = client(() => Promise.reject(grpc(14, 'UNAVAILABLE: connect ECONNREFUSED')), () => Promise.resolve({}));
    assert.equal(await startInvocationWorkflow(c, 'q', record, 'deterministic'), 'not-started');
    assert.equal(calls.describe, 0);
  });

  it('a run that already exists with the id counts as started, so a resumed start is safe to repeat', async () => {
    const { c } = client(() => Promise.reject(new WorkflowExecutionAlreadyStartedError('exists', 'skill/p/inv_1', 'skillInvocation')), () => Promise.resolve({}));
    assert.equal(await startInvocationWorkflow(c, 'q', record, 'model'), 'started');
  });
});
