import assert from 'node:assert/strict';
import { ServiceError, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { inputOf } from '../../../src/invocations/invoke';
import { classifyStartFailure, startInvocationWorkflow, type StartClient } from '../../../src/temporal/clients/skill-invocation';
import type { InvocationRecord } from '../../../src/store/invocations';

const record = {
  _id: 'inv_1',
  project: 'p',
  skill: 'proposal_writer',
  inputs: { customerName: 'C', format: 'email' },
  createdAt: new Date('2026-01-01T00:00:00Z'),
  workflowId: 'skill/p/inv_1',
} as unknown as InvocationRecord;
const run = { workflowId: record.workflowId, input: inputOf(record) };

const grpc = (code: number, details: string) => Object.assign(new Error(details), { code, details });
/** A start failure as the client raises it: a ServiceError around the gRPC status. */
const failed = (code: number, details: string) => new ServiceError('Failed to start Workflow', { cause: grpc(code, details) });

/** A client whose starts answer as given, one answer per call (the last repeats); records each call's options. */
function client(...answers: (() => Promise<unknown>)[]) {
  const calls: { workflowIdConflictPolicy?: string; workflowIdReusePolicy?: string; requestEagerStart?: boolean }[] = [];
  const c = {
    connection: { withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() },
    workflow: {
      start: async (_type: string, options: (typeof calls)[number]) => {
        calls.push(options);
        return answers[Math.min(calls.length - 1, answers.length - 1)]!();
      },
    },
  } as unknown as StartClient;
  return { c, calls };
}
const ok =
  (eagerlyStarted = false) =>
  () =>
    Promise.resolve({ eagerlyStarted });

describe('starting an invocation workflow', () => {
  it('every start is idempotent by the invocation id: attach to a running run, never a second after it closed', async () => {
    const { c, calls } = client(ok());
    assert.deepEqual(await startInvocationWorkflow(c, 'q', run), { kind: 'started', eager: false });
    assert.equal(calls[0]!.workflowIdConflictPolicy, 'USE_EXISTING');
    assert.equal(calls[0]!.workflowIdReusePolicy, 'REJECT_DUPLICATE');
    assert.equal(calls[0]!.requestEagerStart, false);
  });

  it('a start whose deadline passed is asked again at once: the repeat finds the run (or creates it)', async () => {
    const { c, calls } = client(() => Promise.reject(failed(4, 'Deadline exceeded after 5.001s')), ok());
    assert.deepEqual(await startInvocationWorkflow(c, 'q', run), { kind: 'started', eager: false });
    assert.equal(calls.length, 2);
  });

  it('a cancelled start whose repeat meets the closed run counts as started ("already started")', async () => {
    const { c } = client(
      () => Promise.reject(failed(1, 'Cancelled on client')),
      () => Promise.reject(new WorkflowExecutionAlreadyStartedError('exists', 'skill/p/inv_1', 'skillInvocation')),
    );
    assert.equal((await startInvocationWorkflow(c, 'q', run)).kind, 'started');
  });

  it('when the repeat fails too, even with a refusal, the outcome is unknown (never "not started")', async () => {
    const { c } = client(
      () => Promise.reject(failed(4, 'Deadline exceeded')),
      () => Promise.reject(failed(14, 'No connection established. Last error: connect ECONNREFUSED')),
    );
    assert.equal((await startInvocationWorkflow(c, 'q', run)).kind, 'unknown');
  });

  it('an unreachable server refused the call: not started, without asking again', async () => {
    const { c, calls } = client(() =>
      Promise.reject(failed(14, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:1')),
    );
    assert.equal((await startInvocationWorkflow(c, 'q', run)).kind, 'not-started');
    assert.equal(calls.length, 1);
  });

  it('with a worker in this process, the first attempt asks for eager start through its connection', async () => {
    const api = client(ok());
    const eager = client(ok(true));
    assert.deepEqual(await startInvocationWorkflow(api.c, 'q', run, { eagerClient: eager.c }), { kind: 'started', eager: true });
    assert.equal(eager.calls[0]!.requestEagerStart, true);
    assert.equal(api.calls.length, 0);
  });

  it('an unconfirmed eager start is asked again through the API client, not eagerly', async () => {
    const api = client(ok());
    const eager = client(() => Promise.reject(new Error('tonic::transport::Error(Transport, hyper::Error(Io, BrokenPipe))')));
    assert.deepEqual(await startInvocationWorkflow(api.c, 'q', run, { eagerClient: eager.c }), { kind: 'started', eager: false });
    assert.equal(api.calls[0]!.requestEagerStart, false);
  });
});

describe('classifyStartFailure: did a failed start certainly start nothing?', () => {
  it('refusals by the server are certain', () => {
    for (const code of [3, 5, 7, 8, 9, 11, 12, 16]) assert.equal(classifyStartFailure(failed(code, 'refused')), 'refused', `code ${code}`);
  });

  it('no connection ever made is certain too', () => {
    assert.equal(classifyStartFailure(failed(14, 'No connection established. Last error: null. Resolution note: ')), 'refused');
    assert.equal(classifyStartFailure(failed(14, 'connect ECONNREFUSED 127.0.0.1:7233')), 'refused');
  });

  it('a timeout, a cancelled call or a connection lost mid-call may have started the run', () => {
    assert.equal(classifyStartFailure(failed(4, 'Deadline exceeded after 5.001s')), 'uncertain');
    assert.equal(classifyStartFailure(failed(1, 'Cancelled on client')), 'uncertain');
    assert.equal(classifyStartFailure(failed(14, 'Connection dropped')), 'uncertain');
    assert.equal(classifyStartFailure(failed(13, 'Received RST_STREAM with code 2')), 'uncertain');
    assert.equal(classifyStartFailure(failed(2, 'unknown')), 'uncertain');
  });

  it('an error with no gRPC status (a native transport error, anything unexpected) is uncertain; a cycle of causes ends', () => {
    assert.equal(classifyStartFailure(new Error('tonic::transport::Error(Transport, hyper::Error(Io, BrokenPipe))')), 'uncertain');
    assert.equal(classifyStartFailure(undefined), 'uncertain');
    const a: { cause?: unknown } = {};
    a.cause = a;
    assert.equal(classifyStartFailure(a), 'uncertain');
  });
});

describe('inputOf: every start of one invocation carries the same workflow input', () => {
  it('is built from the record alone, the accepted time as the drafters\' "now"', () => {
    assert.deepEqual(inputOf(record), {
      invocationId: 'inv_1',
      project: 'p',
      skill: 'proposal_writer',
      inputs: { customerName: 'C', format: 'email' },
      requestedAt: '2026-01-01T00:00:00.000Z',
    });
  });
});
