import assert from 'node:assert/strict';
import { connectionFailure, httpFailure, isRequestRefused, malformedFailure, timeoutFailure } from '../../../src/llm/failures';
import { MODEL_ATTEMPTS_WHEN_UNLIMITED, afterModelFailure } from '../../../src/llm/model-failure';

describe('llm: what a failed model call means for the drafting step', () => {
  it('retries rate limits, 5xx and lost connections until the last attempt, then uses the draft', () => {
    for (const failure of [httpFailure(429, 1_000), httpFailure(502, undefined), connectionFailure(new Error('ECONNREFUSED'))]) {
      assert.deepEqual(afterModelFailure(failure, 1, 4), { retry: true });
      assert.deepEqual(afterModelFailure(failure, 3, 4), { retry: true });
      const last = afterModelFailure(failure, 4, 4);
      assert.equal(last.retry, false);
      assert.match(!last.retry ? last.reason : '', /kept failing .* after 4 attempts\.$/);
    }
  });

  it('bounds an unlimited retry policy', () => {
    assert.deepEqual(afterModelFailure(httpFailure(500, undefined), MODEL_ATTEMPTS_WHEN_UNLIMITED - 1, 0), { retry: true });
    assert.equal(afterModelFailure(httpFailure(500, undefined), MODEL_ATTEMPTS_WHEN_UNLIMITED, undefined).retry, false);
  });

  it('never retries a timeout, a refused request, a malformed answer or an unknown error', () => {
    const cases: [unknown, RegExp][] = [
      [timeoutFailure(1500), /^The model did not answer within 1500 ms\./],
      [httpFailure(401, undefined), /^The model call failed: the model endpoint answered HTTP 401\./],
      [malformedFailure('is not JSON'), /is not JSON/],
      [new TypeError('boom'), /failed unexpectedly/],
    ];
    for (const [err, note] of cases) {
      const outcome = afterModelFailure(err, 1, 4);
      assert.equal(outcome.retry, false);
      assert.match(!outcome.retry ? outcome.reason : '', note);
    }
  });

  it('tells a refused request (400, 422), which may pass without an optional feature, from other failures', () => {
    assert.ok(isRequestRefused(httpFailure(400, undefined)));
    assert.ok(isRequestRefused(httpFailure(422, undefined)));
    for (const other of [
      httpFailure(401, undefined),
      httpFailure(404, undefined),
      httpFailure(500, undefined),
      timeoutFailure(10),
      malformedFailure('x'),
      new Error('x'),
    ])
      assert.ok(!isRequestRefused(other));
  });
});
