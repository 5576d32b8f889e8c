import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv, removeDevStack, withLocalSettings, writeDevStack } from '../../../src/config/env-files';

describe('cli: settings from .env and the running dev stack', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'env-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('parses KEY=VALUE lines, comments and quotes', () => {
    assert.deepEqual(parseEnv('# c\nA=1\n  B = "two words"  \nC=\'x\'\nexport D=4\n=5\nE=a=b\n'), {
      A: '1',
      B: 'two words',
      C: 'x',
      E: 'a=b',
    });
  });

  it('the environment wins, then .env, then the addresses of a dev stack that is still running', () => {
    writeFileSync(join(dir, '.env'), 'JWT_SECRET=from-env-file\nPORT=4000\n');
    writeDevStack(dir, { MONGODB_URI: 'mongodb://127.0.0.1:1/', PORT: '3000', TEMPORAL_ADDRESS: '127.0.0.1:2' });
    const env = withLocalSettings({ TEMPORAL_ADDRESS: 'from-process' }, dir);
    assert.deepEqual(
      [env.TEMPORAL_ADDRESS, env.JWT_SECRET, env.PORT, env.MONGODB_URI],
      ['from-process', 'from-env-file', '4000', 'mongodb://127.0.0.1:1/'],
    );
    assert.equal(env.DEV_STACK_PID, undefined);
    removeDevStack(dir);
    assert.equal(withLocalSettings({}, dir).MONGODB_URI, undefined);
  });

  it('ignores the addresses left by a dev stack that is gone', () => {
    writeFileSync(join(dir, '.env'), '');
    writeDevStack(dir, { MONGODB_URI: 'mongodb://127.0.0.1:1/' });
    const file = join(dir, '.data', 'dev-stack.env');
    writeFileSync(file, `DEV_STACK_PID=999999999\nMONGODB_URI=mongodb://127.0.0.1:1/\n`);
    assert.equal(withLocalSettings({}, dir).MONGODB_URI, undefined);
  });
});
