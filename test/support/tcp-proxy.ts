/**
 * A TCP proxy on loopback in front of a real server, for network faults that no mock should fake: while
 * replies are held, what the client sends still reaches the server (which acts on it) but nothing comes back
 * until release(), so the client's call times out although the server did the work.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** host:port to give the client instead of the server's. */
  address: string;
  /** From now on (all connections, present and future), keep the server's bytes from the client. */
  holdReplies(): void;
  /** Deliver what was held and forward as usual again. */
  release(): void;
  close(): Promise<void>;
}

/** `listenPort`: listen there (a port the client was given before the proxy came up); any free port by default. */
export async function startTcpProxy(target: string, listenPort = 0): Promise<TcpProxy> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  let holding = false;
  const pairs = new Set<{ client: Socket; upstream: Socket; held: Buffer[] }>();

  const server = createServer((client) => {
    const upstream = createConnection({ host, port });
    const pair = { client, upstream, held: [] as Buffer[] };
    pairs.add(pair);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (holding) pair.held.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  const addr = server.address();

  return {
    address: `127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    holdReplies() {
      holding = true;
    },
    release() {
      holding = false;
      for (const pair of pairs) {
        for (const chunk of pair.held.splice(0)) pair.client.write(chunk);
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
