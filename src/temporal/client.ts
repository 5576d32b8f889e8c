import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import type { Config } from '../config/config';
import { temporalConnectionOptions } from './connection';
import { SEARCH_ATTRIBUTES } from './search-attributes';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  /**
   * Set while a worker runs in this process on a NativeConnection: a client on that connection, through which
   * skill invocations are started with eager start (src/api/worker-in-api.ts). Null or absent otherwise.
   */
  starter?: Client | null;
  close(): Promise<void>;
}

/**
 * One lazy connection per process: the API must come up (and say 503 on /readyz) while Temporal is down,
 * instead of crashing at start-up.
 */
export function connectTemporalLazy(config: Config['temporal']): TemporalHandle {
  const connection = Connection.lazy({
    ...temporalConnectionOptions(config),
    // The SDK default retries an unreachable server for ~25 s. An HTTP caller is better served by a prompt
    // 503 it can retry; four attempts (~1 s) ride out a blip without holding requests.
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 4 }))],
  });
  const client = new Client({ connection, namespace: config.namespace });
  return { connection, client, close: () => connection.close() };
}

export async function connectTemporal(config: Config['temporal']): Promise<TemporalHandle> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const client = new Client({ connection, namespace: config.namespace });
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
