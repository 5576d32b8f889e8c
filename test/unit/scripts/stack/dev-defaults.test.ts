import assert from 'node:assert/strict';
import { devDefaults } from '../../../../scripts/stack/dev-defaults';

describe('npm run dev: development defaults, each said at start-up', () => {
  it('allows loopback receivers for outbound webhooks unless .env or the environment says otherwise', () => {
    const fresh = devDefaults({});
    assert.deepEqual(fresh.set, { OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK: 'true' });
    assert.equal(fresh.notes.length, 1);
    assert.match(fresh.notes[0]!, /OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true, for development only/);
    const refused = devDefaults({ OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK: 'false' });
    assert.deepEqual(refused, { set: {}, notes: [] });
  });
});
