import assert from 'node:assert/strict';
import { requireScope } from '../../../src/cli/command';

describe('cli: --scope', () => {
  it('takes operator and app:SLUG', () => {
    assert.equal(requireScope({ scope: 'operator' }), 'operator');
    assert.equal(requireScope({ scope: 'app:acme-web' }), 'app:acme-web');
  });

  it('refuses a missing scope, an empty or malformed slug, and anything else', () => {
    assert.throws(() => requireScope({}), /--scope is required/);
    for (const scope of ['app:', 'app:Acme', 'app:a/b', 'operators', 'APP:acme']) {
      assert.throws(() => requireScope({ scope }), /--scope must be operator or app:SLUG/, scope);
    }
  });
});
