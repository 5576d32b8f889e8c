import assert from 'node:assert/strict';
import { ServiceError } from '@temporalio/client';
import { classifyStartFailure, inputOf } from '../../../src/api/skill-start';
import type { InvocationRecord } from '../../../src/store/invocations';

/** A start failure as the client raises it: a ServiceError around the gRPC status. */
const failed = (code: number, details: string) => new ServiceError('Failed to start Workflow', { cause: Object.assign(new Error(details), { code, details }) });

describe('classifyStartFailure: did a failed start certainly start nothing?', () => {
  it('refusals by the server are certain: nothing runs', () => {
    for (const code of [3, 5, 7, 8, 9, 11, 12, 16]) assert.equal(classifyStartFailure(failed(code, 'refused')), 'rejected', `code ${code}`);
  });

  it('no connection ever made is certain too', () => {
    assert.equal(classifyStartFailure(failed(14, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:1')), 'rejected');
  });

  it('a timeout, a cancelled call or a connection lost mid-call may have started the run', () => {
    assert.equal(classifyStartFailure(failed(4, 'Deadline exceeded after 5.001s')), 'unconfirmed');
    assert.equal(classifyStartFailure(failed(1, 'Cancelled on client')), 'unconfirmed');
    assert.equal(classifyStartFailure(failed(14, 'Connection dropped')), 'unconfirmed');
    assert.equal(classifyStartFailure(failed(13, 'Received RST_STREAM with code 2')), 'unconfirmed');
    assert.equal(classifyStartFailure(failed(2, 'unknown')), 'unconfirmed');
  });

  it('an error with no gRPC status (a native transport error, anything unexpected) is unconfirmed', () => {
    assert.equal(classifyStartFailure(new Error('tonic::transport::Error(Transport, hyper::Error(Io, BrokenPipe))')), 'unconfirmed');
    assert.equal(classifyStartFailure(undefined), 'unconfirmed');
  });

  it('a cycle of causes ends', () => {
    const a: { cause?: unknown } = {};
    a.cause = a;
    assert.equal(classifyStartFailure(a), 'unconfirmed');
  });
});

describe('inputOf: every start of one invocation carries the same workflow input', () => {
  it('is built from the record alone, the accepted time as the drafters\' "now"', () => {
    const createdAt = new Date('2026-11-22T10:00:00.000Z');
    const record = { _id: 'inv_X', project: 'acme-web', skill: 'incident_rca', inputs: { incidentId: 'INC-1', severity: 'SEV-1' }, createdAt } as unknown as InvocationRecord;
    assert.deepEqual(inputOf(record), { invocationId: 'inv_X', project: 'acme-web', skill: 'incident_rca', inputs: { incidentId: 'INC-1', severity: 'SEV-1' }, requestedAt: '2026-11-22T10:00:00.000Z' });
  });
});
