import assert from 'node:assert/strict';
import { parseRetryAfter } from '../../../src/llm/retry-after';

describe('llm: Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delay-seconds', () => {
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 12 ', now), 12_000);
  });
  it('reads an HTTP date, never negative', () => {
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
  });
  it('ignores what it cannot read', () => {
    for (const v of [null, undefined, '', '-1', '1.5', 'soon', 'Thursday']) assert.equal(parseRetryAfter(v, now), undefined, String(v));
  });
});
