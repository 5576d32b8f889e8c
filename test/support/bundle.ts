import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const bundles = new Map<string, Promise<string>>();

/**
 * Bundles the workflows once per test process (~1 s) and shares the file with every in-process and child worker.
 * `interceptorModules` (test-only workflow interceptors) make a bundle of their own.
 */
export function workflowBundlePath(interceptorModules: string[] = []): Promise<string> {
  const key = interceptorModules.join('\n');
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = (async () => {
      const { code } = await bundleWorkflowCode({
        workflowsPath: require.resolve('../../src/workflows'),
        workflowInterceptorModules: interceptorModules,
        logger: quietLogger,
      });
      const dir = join(process.env.TEST_DATA_DIR ?? '/tmp', 'bundle');
      mkdirSync(dir, { recursive: true });
      // Written aside and renamed into place: test files running in parallel processes share the file, and a
      // reader must never see a half-written one.
      const name = ['workflow-bundle', ...interceptorModules.map((m) => basename(m, '.js'))].join('-');
      const path = join(dir, `${name}.js`);
      const aside = `${path}.${process.pid}.tmp`;
      writeFileSync(aside, code);
      renameSync(aside, path);
      return path;
    })();
    bundles.set(key, bundle);
  }
  return bundle;
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };
