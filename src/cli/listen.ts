import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { callApi, API_OPTIONS, type ApiSettings } from './api-client';
import type { CliCommand } from './command';
import { adminApiSettings } from './local-api';

const MAX_BODY_BYTES = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;
// Standard Webhooks' headers: passed on as received, so the receiver behind can verify them too.
const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'] as const;

/**
 * Receiving an app's outbound webhooks on this machine, like `stripe listen`: with `--app` and `--forward-to` it
 * registers a loopback endpoint for the app (removed again when it stops), prints the endpoint's signing secret,
 * verifies each delivery's signature and forwards it, headers and body as received, to your local handler, whose
 * status it answers with (so a failing handler gets the service's retries). With `--secret` alone it only
 * receives and verifies, for an endpoint registered by hand.
 */
export const listenCommand: CliCommand = {
  summary:
    "Receive an app's outbound webhooks here, verify their signatures and forward them to your handler (--app SLUG --forward-to URL registers the endpoint itself)",
  usage: '(--app SLUG --forward-to http://127.0.0.1:4000/hooks [--events A,B] | --secret whsec_…) [--port 0] [--api URL --token ADMIN_JWT]',
  options: {
    app: { type: 'string' },
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    secret: { type: 'string' },
    port: { type: 'string' },
    ...API_OPTIONS,
  },
  async run(values) {
    const port = Number(values.port ?? (values.secret ? 4000 : 0));
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a port number');
    const forwardTo = typeof values['forward-to'] === 'string' ? forwardUrl(values['forward-to']) : null;
    if (typeof values.app !== 'string' && typeof values.secret !== 'string')
      throw new Error('give --app SLUG (registers an endpoint for it) or --secret whsec_… (an endpoint you registered)');

    let webhook: Webhook | null = typeof values.secret === 'string' ? new Webhook(values.secret) : null;
    const server = createServer((req, res) => void receive(req, res, webhook, forwardTo));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/`;

    let registered: { api: ApiSettings; path: string } | null = null;
    try {
      if (typeof values.app === 'string') {
        const api = adminApiSettings(values, 'cli-listen');
        const path = `/v1/apps/${encodeURIComponent(values.app)}/webhook-endpoints`;
        const eventTypes = typeof values.events === 'string' ? values.events.split(',').map((t) => t.trim()) : null;
        const endpoint = await register(api, path, { url, eventTypes, description: 'cli listen (removed when it stops)' }, values.app);
        registered = { api, path: `${path}/${endpoint.id}` };
        webhook = new Webhook(endpoint.secret);
        process.stdout.write(`endpoint ${endpoint.id} registered for app ${values.app}: ${url}\n`);
        process.stdout.write(`webhook signing secret (for your handler's own check): ${endpoint.secret}\n`);
      }
      process.stdout.write(
        `ready: listening on ${url}${forwardTo ? `, forwarding to ${forwardTo}` : ''} (Ctrl-C stops${registered ? ' and removes the endpoint' : ''})\n`,
      );
      await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
    } finally {
      if (registered) {
        await callApi(registered.api, 'DELETE', registered.path).then(
          () => process.stdout.write('endpoint removed\n'),
          (err: Error) =>
            process.stderr.write(`could not remove the endpoint (${err.message}); delete it with DELETE ${registered!.path}\n`),
        );
      }
      server.closeAllConnections();
      server.close();
    }
    return 0;
  },
};

function forwardUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('--forward-to must be an absolute http(s) URL, e.g. http://127.0.0.1:4000/hooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('--forward-to must be an http(s) URL');
  return url.toString();
}

async function register(
  api: ApiSettings,
  path: string,
  body: { url: string; eventTypes: string[] | null; description: string },
  app: string,
): Promise<{ id: string; secret: string }> {
  try {
    return await callApi<{ id: string; secret: string }>(api, 'POST', path, body);
  } catch (err) {
    const message = (err as Error).message;
    if (/^403 outbound_preview/.test(message))
      throw new Error(`${message}\nhint: an admin enables it: npm run cli -- outbound-access --slug ${app} --enable`);
    if (/^422 unsafe_url/.test(message))
      throw new Error(
        `${message}\nhint: the service must allow loopback receivers (OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true; npm run dev sets it)`,
      );
    throw err;
  }
}

async function receive(req: IncomingMessage, res: ServerResponse, webhook: Webhook | null, forwardTo: string | null): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413).end();
      return;
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks).toString('utf8');
  const id = String(req.headers['webhook-id'] ?? '-');
  if (!webhook) {
    res.writeHead(503).end();
    return;
  }
  let event: { type?: string };
  try {
    event = webhook.verify(body, req.headers as Record<string, string>) as { type?: string };
  } catch (err) {
    process.stdout.write(`REFUSED ${id}: ${(err as Error).message}\n`);
    res.writeHead(401).end();
    return;
  }
  if (!forwardTo) {
    process.stdout.write(`verified ${id} ${event.type ?? '?'} ${body}\n`);
    res.writeHead(200).end();
    return;
  }
  const headers = Object.fromEntries(SIGNED_HEADERS.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])));
  try {
    const answer = await fetch(forwardTo, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    await answer.arrayBuffer();
    process.stdout.write(`verified ${id} ${event.type ?? '?'} -> ${forwardTo} ${answer.status}\n`);
    res.writeHead(answer.status >= 200 && answer.status < 600 ? answer.status : 502).end();
  } catch (err) {
    process.stdout.write(`verified ${id} ${event.type ?? '?'} -> ${forwardTo} failed: ${(err as Error).message}\n`);
    res.writeHead(502).end();
  }
}
