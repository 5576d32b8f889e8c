import { readFileSync } from 'node:fs';
import type { Config } from '../config/config';

/** A Temporal TLS file that could not be read: start-up stops and names the variable. */
export class TemporalTlsError extends Error {}

/**
 * The connection options every process uses for Temporal (API client, worker, CLI): the address, and for a
 * cluster with TLS (self-hosted mTLS, Temporal Cloud) the server CA, the client certificate pair, the server
 * name override and the API key. The files are read here, once per process at start-up, so a missing or
 * unreadable one fails start-up with its variable's name rather than at the first call.
 */
export function temporalConnectionOptions(config: Config['temporal']): {
  address: string;
  tls?: { serverRootCACertificate?: Buffer; clientCertPair?: { crt: Buffer; key: Buffer }; serverNameOverride?: string } | true;
  apiKey?: string;
} {
  const { address, tls, apiKey } = config;
  if (!tls) return { address, ...(apiKey ? { apiKey } : {}) };
  const read = (path: string, variable: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new TemporalTlsError(`${variable} (${path}) cannot be read: ${(err as Error).message}`);
    }
  };
  const options = {
    ...(tls.caPath ? { serverRootCACertificate: read(tls.caPath, 'TEMPORAL_TLS_CA_PATH') } : {}),
    ...(tls.certPath && tls.keyPath
      ? { clientCertPair: { crt: read(tls.certPath, 'TEMPORAL_TLS_CERT_PATH'), key: read(tls.keyPath, 'TEMPORAL_TLS_KEY_PATH') } }
      : {}),
    ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
  };
  return { address, tls: Object.keys(options).length > 0 ? options : true, ...(apiKey ? { apiKey } : {}) };
}
