import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let bundlePath: Promise<string> | null = null;

/** Bundles the workflows once per test run (~1 s) and shares the file with every in-process and child worker. */
export function workflowBundlePath(): Promise<string> {
  bundlePath ??= (async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../../src/workflows'), logger: quietLogger });
    const dir = join(process.env.TEST_DATA_DIR ?? '/tmp', 'bundle');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'workflow-bundle.js');
    writeFileSync(path, code);
    return path;
  })();
  return bundlePath;
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };
