import { loadConfig, type Config } from '../config/config';
import { ensureIndexes } from '../store/indexes';
import { connectStore, type Store } from '../store/mongo';
import { createRepositories, type Repositories } from '../store/repositories';

/**
 * The CLI's composition root: runs a command body with the repositories over a connected store and a validated
 * config, closing the store afterwards.
 */
export async function withStore<T>(fn: (repos: Repositories, config: Config, store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'cli');
  try {
    await ensureIndexes(store.db, config.retention);
    return await fn(createRepositories(store.db), config, store);
  } finally {
    await store.close();
  }
}
