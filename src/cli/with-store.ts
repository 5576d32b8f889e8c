import { loadConfig, type Config } from '../config';
import { ensureIndexes } from '../store/indexes';
import { connectStore, type Store } from '../store/mongo';

/** Runs a CLI command body with a validated config and a connected store, closing it afterwards. */
export async function withStore<T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'cli');
  try {
    await ensureIndexes(store.db, config.retention);
    return await fn(store, config);
  } finally {
    await store.close();
  }
}
