/**
 * The billing domain is imported by Temporal workflow code: it must not reach for modules outside itself, the
 * clock or randomness. Checked on the compiled output, where type-only imports have been erased.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const billingDir = join(__dirname, '../../../src/billing');

describe('billing domain is workflow-safe', () => {
  const files = readdirSync(billingDir).filter((name) => name.endsWith('.js'));

  it('has compiled modules to check', () => {
    assert.ok(files.length >= 10, files.join(', '));
  });

  it('imports only its own modules at run time, and never reads the clock or randomness', () => {
    for (const file of files) {
      const code = readFileSync(join(billingDir, file), 'utf8');
      const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      for (const target of required) assert.match(target, /^\.\/[a-z-]+$/, `${file} requires ${target}`);
      assert.doesNotMatch(code, /Date\.now\(|new Date\(\)|Math\.random\(|process\.|setTimeout\(/, file);
    }
  });
});
