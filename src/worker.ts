/**
 * The worker process's entry point, `node dist/src/worker.js` (the Dockerfile, docker-compose.yml, scripts/dev.ts,
 * docs/deployment.md and the tests start it by this path); what it runs is composed in src/worker/worker.ts.
 */
import { runWorkerProcess } from './worker/worker';

runWorkerProcess().catch((err: unknown) => {
  process.stderr.write(`worker failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
