import { MongoClient, type Db } from 'mongodb';

export interface Store {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/** One MongoClient per process, created at start-up and injected everywhere. */
/**
 * `lazy`: return at once and let the driver connect on first use, so a process can start (and report itself
 * not ready) while the store is down, instead of exiting.
 */
export async function connectStore(
  uri: string,
  dbName: string,
  appName: string,
  options: { monitorCommands?: boolean; lazy?: boolean } = {},
): Promise<Store> {
  const client = new MongoClient(uri, {
    appName,
    // Command events for tests that inspect the queries the service sends; off in the service itself.
    monitorCommands: options.monitorCommands ?? false,
    serverSelectionTimeoutMS: 5_000,
    connectTimeoutMS: 5_000,
    maxPoolSize: 50,
    // Every write waits for the journal: a webhook is answered 200 only once its event "can no longer be lost",
    // and activity writes (projections, totals, mail claims) are not redone once their activity has completed.
    // With w: 1 alone, a crash of a standalone mongod loses the last ~100 ms of acknowledged writes.
    writeConcern: { j: true },
  });
  if (!options.lazy) {
    await client.connect();
    return { client, db: client.db(dbName), close: () => client.close() };
  }
  // A failed first connection closes the driver's topology for good (operations then fail at once), so keep
  // calling connect() until one succeeds; from then on the driver itself reconnects after an outage.
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = () => {
    client.connect().catch(() => {
      if (!stopped) timer = setTimeout(attempt, 2_000).unref();
    });
  };
  attempt();
  return {
    client,
    db: client.db(dbName),
    close: async () => {
      stopped = true;
      clearTimeout(timer);
      await client.close();
    },
  };
}

export async function pingStore(db: Db): Promise<void> {
  await db.command({ ping: 1 });
}

/** MongoDB's duplicate-key error, the basis of every idempotency guard here. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
