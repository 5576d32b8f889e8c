import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let bundlePath: Promise<string> | null = null;

/** Bundles the workflows once per test process (~1 s) and shares the file with every in-process and child worker. */
export function workflowBundlePath(): Promise<string> {
  bundlePath ??= (async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../../src/workflows'), logger: quietLogger });
    const dir = join(process.env.TEST_DATA_DIR ?? '/tmp', 'bundle');
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed into place: test files running in parallel processes share the file, and a
    // reader must never see a half-written one.
    const path = join(dir, 'workflow-bundle.js');
    const aside = `${path}.${process.pid}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, path);
    return path;
  })();
  return bundlePath;
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };
