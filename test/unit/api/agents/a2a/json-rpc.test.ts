import assert from 'node:assert/strict';
import { readEnvelope } from '../../../../../src/api/agents/a2a/json-rpc';

describe('readEnvelope (JSON-RPC 2.0)', () => {
  const base = { jsonrpc: '2.0', method: 'tasks/get', params: { id: 't' } };

  it('a string, a number or null is an id; no id is a notification', () => {
    for (const id of ['a', 1, -2.5, 0, null])
      assert.deepEqual(readEnvelope({ ...base, id }), { kind: 'request', id, method: 'tasks/get', params: { id: 't' } });
    assert.deepEqual(readEnvelope(base), { kind: 'notification', method: 'tasks/get', params: { id: 't' } });
  });

  it('an object, array or boolean id, a missing method or version, a batch: invalid, with the id only when it is one', () => {
    for (const id of [{}, [], true, false, { id: 1 }])
      assert.deepEqual(readEnvelope({ ...base, id }), {
        kind: 'invalid',
        id: null,
        message: 'A JSON-RPC id is a string, a number or null',
      });
    assert.equal(readEnvelope({ ...base, id: 3, jsonrpc: '1.0' }).kind, 'invalid');
    assert.deepEqual(readEnvelope({ jsonrpc: '2.0', id: 3 }), { kind: 'invalid', id: 3, message: 'Not a JSON-RPC 2.0 request' });
    for (const body of [[base], null, 'x', 1]) assert.equal(readEnvelope(body).kind, 'invalid');
  });
});
