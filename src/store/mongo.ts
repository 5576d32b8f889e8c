import { MongoClient, type Db } from 'mongodb';

export interface Store {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/** One MongoClient per process, created at start-up and injected everywhere. */
export async function connectStore(uri: string, dbName: string, appName: string, options: { monitorCommands?: boolean } = {}): Promise<Store> {
  const client = new MongoClient(uri, {
    appName,
    // Command events for tests that inspect the queries the service sends; off in the service itself.
    monitorCommands: options.monitorCommands ?? false,
    serverSelectionTimeoutMS: 5_000,
    connectTimeoutMS: 5_000,
    maxPoolSize: 50,
  });
  await client.connect();
  return { client, db: client.db(dbName), close: () => client.close() };
}

export async function pingStore(db: Db): Promise<void> {
  await db.command({ ping: 1 });
}

/** MongoDB's duplicate-key error, the basis of every idempotency guard here. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
