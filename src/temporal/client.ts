import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ClientOptions } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { Config } from '../config/config';
import { temporalConnectionOptions } from './connection';
import { SEARCH_ATTRIBUTES } from '../contracts/workflows/search-attributes';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  /**
   * Set while a worker runs in this process on a NativeConnection: a client on that connection, through which
   * skill invocations are started with eager start (src/worker/in-api.ts). Null or absent otherwise.
   */
  starter?: Client | null;
  close(): Promise<void>;
}

/** The API process's handle: also the relay's client (see lazyNativeClient). */
export interface ApiTemporalHandle extends TemporalHandle {
  relay: LazyNativeClient;
}

/** What a process's clients share besides the connection: interceptors (the benchmarks count calls with them). */
export type ClientExtras = Pick<ClientOptions, 'interceptors'>;

/**
 * The API process's Temporal handle, connected lazily: the API must come up (and say 503 on /readyz) while
 * Temporal is down, instead of crashing at start-up. Its relay client connects on first use.
 */
export function connectTemporalLazy(config: Config['temporal'], extras: ClientExtras = {}): ApiTemporalHandle {
  const connection = Connection.lazy({
    ...temporalConnectionOptions(config),
    // The SDK default retries an unreachable server for ~25 s. An HTTP caller is better served by a prompt
    // 503 it can retry; four attempts (~1 s) ride out a blip without holding requests.
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 4 }))],
  });
  const client = new Client({ ...extras, connection, namespace: config.namespace });
  const relay = lazyNativeClient(config, extras);
  return { connection, client, relay, close: async () => void (await Promise.allSettled([connection.close(), relay.close()])) };
}

export interface LazyNativeClient {
  /**
   * The client, connecting first if need be; rejects while Temporal cannot be reached (the next call tries again),
   * or when the connect is not done by `deadline` (epoch ms; a server that never answers must not hold the caller).
   */
  get(deadline?: number): Promise<Client>;
  close(): Promise<void>;
}

/**
 * A client on a NativeConnection (the SDK's Rust core), connected on first use and again after a failed connect,
 * for the webhook relay's signal-with-start calls: under load they cost the API process about a third less CPU
 * than through the JavaScript gRPC stack, and most of that work moves off the event loop the acknowledgements
 * run on (bench/README.md, intake). The SDK's worker package, which holds the native connection, is loaded only
 * when the relay first needs it, so the CLI's short commands do not pay for it.
 */
export function lazyNativeClient(config: Config['temporal'], extras: ClientExtras = {}): LazyNativeClient {
  let connecting: Promise<Client> | null = null;
  let open: NativeConnection | null = null;
  let closed = false;
  const connect = async () => {
    const { NativeConnection } = await import('@temporalio/worker');
    const connection = await NativeConnection.connect(temporalConnectionOptions(config));
    // Closed while this was connecting: close() does not wait for a connect (to a server that may be down), so the
    // connection it did not see is closed here.
    if (closed) {
      await connection.close();
      throw new Error('the Temporal connection is closed');
    }
    open = connection;
    return new Client({ ...extras, connection, namespace: config.namespace });
  };
  return {
    get(deadline) {
      if (closed) return Promise.reject(new Error('the Temporal connection is closed'));
      const attempt = (connecting ??= connect().catch((err: unknown) => {
        connecting = null;
        throw err;
      }));
      if (deadline === undefined || open) return attempt;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('connecting to Temporal took too long')), Math.max(0, deadline - Date.now()));
      });
      return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
    },
    async close() {
      closed = true;
      const connection = open;
      open = null;
      await connection?.close();
    },
  };
}

export async function connectTemporal(config: Config['temporal'], extras: ClientExtras = {}): Promise<TemporalHandle> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const client = new Client({ ...extras, connection, namespace: config.namespace });
  return { connection, client, close: () => connection.close() };
}

/** Registers the search attributes on a namespace (idempotent), for clusters not started by our dev stack. */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.keys(SEARCH_ATTRIBUTES).filter((name) => !(name in (customAttributes ?? {})));
  if (missing.length > 0) {
    // 2 = INDEXED_VALUE_TYPE_KEYWORD in the Temporal API enum.
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, 2])),
    });
  }
  return missing;
}
