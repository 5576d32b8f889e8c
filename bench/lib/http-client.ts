import { Agent, request } from 'node:http';

/** Loopback HTTP with keep-alive sockets: the load generator's and the probes' only client. */
export interface HttpAnswer {
  status: number;
  text: string;
}

export const keepAliveAgent = (maxSockets: number) => new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });

const REQUEST_TIMEOUT_MS = 30_000;

export function send(agent: Agent, url: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    if (u.hostname !== '127.0.0.1') throw new Error(`benchmarks talk to loopback only, not ${u.hostname}`);
    const req = request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method,
        headers:
          body === undefined
            ? headers
            : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
