import { loadConfig } from '../config/config';
import { connectStore } from '../store/mongo';
import { connectTemporal } from '../temporal/client';
import type { CliCommand } from './command';

const DEADLINE_MS = 5_000;

/**
 * Whether this process's dependencies answer: the store (a ping) and Temporal (its health service), each within
 * 5 s. Exit 0 when both do, 1 otherwise: a container healthcheck for processes that serve no HTTP (the worker).
 */
export const healthCommand: CliCommand = {
  summary: 'Check that the store and Temporal answer (exit 0) or not (exit 1), for container healthchecks',
  options: {},
  async run() {
    const config = loadConfig(process.env);
    const check = async (name: string, fn: () => Promise<unknown>): Promise<boolean> => {
      try {
        await Promise.race([
          fn(),
          new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${DEADLINE_MS / 1000} s`)), DEADLINE_MS).unref()),
        ]);
        process.stdout.write(`${name}: up\n`);
        return true;
      } catch (err) {
        process.stdout.write(`${name}: down (${(err as Error).message})\n`);
        return false;
      }
    };
    const store = await check('mongodb', async () => {
      const s = await connectStore(config.mongo.uri, config.mongo.dbName, 'cli');
      try {
        await s.db.command({ ping: 1 });
      } finally {
        await s.close();
      }
    });
    const temporal = await check('temporal', async () => {
      const t = await connectTemporal(config.temporal);
      try {
        await t.connection.healthService.check({});
      } finally {
        await t.close();
      }
    });
    return store && temporal ? 0 : 1;
  },
};
