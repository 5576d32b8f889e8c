import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface SendResult {
  status: number;
  latencyMs: number;
}

/**
 * One POST to a receiver, connected to `address` (already checked by url-guard) whatever DNS says now; the
 * URL's host still names the server for the Host header, SNI and certificate checks. Redirects are not
 * followed (a 3xx is a failure), and the response body is read and dropped, at most 64 KiB of it.
 */
export function postWebhook(args: {
  url: URL;
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<SendResult> {
  const started = performance.now();
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: args.address, family: args.family }]);
    else callback(null, args.address, args.family);
  };
  const send = args.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      args.url,
      {
        method: 'POST',
        lookup,
        headers: { ...args.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(args.body)), 'user-agent': 'skills-billing-webhooks/1' },
        timeout: args.timeoutMs,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 64 * 1024) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, latencyMs: Math.round(performance.now() - started) });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    // The whole exchange is bounded, not only idle time between packets.
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${args.timeoutMs} ms`)), args.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`timed out after ${args.timeoutMs} ms`)));
    req.on('error', (err) => reject(err));
    req.on('close', () => clearTimeout(timer));
    req.end(args.body);
  });
}
