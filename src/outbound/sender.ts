import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface SendResult {
  status: number;
  latencyMs: number;
  /** The first `keepBodyBytes` of the response body as text (whole characters only), for the delivery log. */
  body: string;
  /** The response body was longer than what `body` holds. */
  bodyTruncated: boolean;
}

/** How much of a response is read at most (the rest is not waited for): a receiver cannot make us read more. */
const MAX_RESPONSE_READ = 64 * 1024;

/**
 * One POST to a receiver, connected to `address` (already checked by url-guard) whatever DNS says now; the
 * URL's host still names the server for the Host header, SNI and certificate checks. Redirects are not
 * followed (a 3xx is a failure), and the response body is read, at most 64 KiB of it; its first `keepBodyBytes`
 * are kept for the delivery log.
 */
export function postWebhook(args: {
  url: URL;
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  keepBodyBytes: number;
}): Promise<SendResult> {
  const started = performance.now();
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: args.address, family: args.family },
      ]);
    else callback(null, args.address, args.family);
  };
  const send = args.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      args.url,
      {
        method: 'POST',
        lookup,
        headers: {
          ...args.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(args.body)),
          'user-agent': 'skills-billing-webhooks/1',
        },
        timeout: args.timeoutMs,
      },
      (res: IncomingMessage) => {
        let read = 0;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (keptBytes < args.keepBodyBytes) {
            const part = chunk.subarray(0, args.keepBodyBytes - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          if (read > MAX_RESPONSE_READ) res.destroy();
        });
        let answered = false;
        const done = () => {
          if (answered) return;
          answered = true;
          // A streaming decode leaves out a character cut at the end; bytes that are not UTF-8 become U+FFFD.
          const body = new TextDecoder('utf-8').decode(Buffer.concat(kept), { stream: true });
          resolve({
            status: res.statusCode ?? 0,
            latencyMs: Math.round(performance.now() - started),
            body,
            bodyTruncated: read > keptBytes,
          });
        };
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
