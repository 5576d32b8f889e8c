import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * The API's HTTP server with its timeouts. Keep-alive outlasts a proxy's (and a client's) idle timeout, so the
 * server is never the side that closes an idle connection just as a request is written on it; a request gets
 * 60 s, what the billing provider waits before it gives up. Tests and benchmarks serve the app through this too.
 */
export function createHttpServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 60_000;
  return server;
}
