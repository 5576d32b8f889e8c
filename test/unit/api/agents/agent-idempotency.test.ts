import assert from 'node:assert/strict';
import { a2aIdempotencyKey, mcpIdempotencyKey } from '../../../../src/api/agents/agent-idempotency';

describe('idempotency keys of agent protocol ids', () => {
  it('any id gives a valid key; equal ids the same one; ids that differ anywhere (or by type) different ones', () => {
    const valid = /^[\x21-\x7e]{1,255}$/;
    const long = 'z'.repeat(1_000);
    const keys = [
      mcpIdempotencyKey('s', 'with space é 日本'),
      mcpIdempotencyKey('s', `${long}1`),
      mcpIdempotencyKey('s', `${long}2`),
      mcpIdempotencyKey('s', 7),
      mcpIdempotencyKey('s', '7'),
      mcpIdempotencyKey('t', 7),
      a2aIdempotencyKey('with space é'),
      a2aIdempotencyKey(`${long}1`),
      a2aIdempotencyKey(`${long}2`),
    ];
    for (const k of keys) assert.match(k, valid);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(mcpIdempotencyKey('s', 7), mcpIdempotencyKey('s', 7));
    assert.equal(a2aIdempotencyKey('m'), a2aIdempotencyKey('m'));
  });
});
