import assert from 'node:assert/strict';
import { erasThatMayGo } from '../../../src/temporal/clients/billing-subscriber-eras';

describe('patch eras: which old branches no open run needs (the sunset rule)', () => {
  it('names an era only when it and every older era have no open run, never the newest', () => {
    assert.deepEqual(erasThatMayGo({ v1: 3, v2: 0, v3: 0, v4: 9, v5: 9 }), []);
    assert.deepEqual(erasThatMayGo({ v1: 0, v2: 1, v3: 0, v4: 9, v5: 9 }), ['v1']);
    assert.deepEqual(erasThatMayGo({ v1: 0, v2: 0, v3: 4, v4: 9, v5: 9 }), ['v1', 'v2']);
    assert.deepEqual(erasThatMayGo({ v1: 0, v2: 0, v3: 0, v4: 9, v5: 9 }), ['v1', 'v2', 'v3']);
    assert.deepEqual(erasThatMayGo({ v1: 0, v2: 0, v3: 0, v4: 0, v5: 0 }), ['v1', 'v2', 'v3', 'v4']);
  });
});
