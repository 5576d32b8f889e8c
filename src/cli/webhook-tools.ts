import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { sampleEvent, SAMPLE_TYPES } from '../billing/sample-events';
import { APP_WEBHOOK_PATH, OPERATOR_WEBHOOK_PATH } from '../contracts/webhook-paths';
import { requireString, type CliCommand } from './command';

/**
 * Trying webhooks by hand, like `stripe trigger` / `stripe listen`: send a provider sample event of any type to
 * an app's receiver (or the operator's), and receive an app's outbound deliveries on a local port with their
 * signatures verified.
 */
export const triggerCommand: CliCommand = {
  summary: "Send a provider sample event of TYPE for USER to an app's webhook receiver (or the operator's, with --operator)",
  usage: `--type ${SAMPLE_TYPES.slice(1, 4).join('|')}|… --user USER (--app SLUG --authorization VALUE | --operator) [--api URL]`,
  options: {
    type: { type: 'string' },
    user: { type: 'string' },
    app: { type: 'string' },
    authorization: { type: 'string' },
    operator: { type: 'boolean' },
    api: { type: 'string' },
  },
  async run(values) {
    const type = requireString(values, 'type');
    if (!SAMPLE_TYPES.includes(type)) throw new Error(`--type must be one of ${SAMPLE_TYPES.join(', ')}`);
    const user = requireString(values, 'user');
    const api = (typeof values.api === 'string' ? values.api : (process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000')).replace(/\/$/, '');
    const operator = values.operator === true;
    const authorization = operator
      ? process.env.OPERATOR_WEBHOOK_AUTHORIZATION
      : typeof values.authorization === 'string'
        ? values.authorization
        : process.env.APP_WEBHOOK_AUTHORIZATION;
    if (!authorization)
      throw new Error(operator ? 'OPERATOR_WEBHOOK_AUTHORIZATION is not set' : "--authorization (the app's webhook value) is required");
    const url = operator
      ? `${api}${OPERATOR_WEBHOOK_PATH}`
      : `${api}${APP_WEBHOOK_PATH}?app=${encodeURIComponent(requireString(values, 'app'))}`;
    const event = sampleEvent(type, user, Date.now(), `evt_${randomUUID()}`);
    const res = await fetch(url, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_version: '1.0', event }),
    });
    process.stdout.write(`${res.status} ${await res.text()}\n`);
    return res.status === 200 ? 0 : 1;
  },
};

export const listenCommand: CliCommand = {
  summary:
    "Receive an app's outbound webhooks on a local port and verify their signatures (register http://127.0.0.1:PORT/ with OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true)",
  usage: '--secret whsec_… [--port 4000]',
  options: { secret: { type: 'string' }, port: { type: 'string' } },
  async run(values) {
    const webhook = new Webhook(requireString(values, 'secret'));
    const port = Number(values.port ?? 4000);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a port number');
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 1024 * 1024) chunks.push(c);
      });
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const event = webhook.verify(body, req.headers as Record<string, string>) as { type?: string; id?: string };
          process.stdout.write(`verified ${req.headers['webhook-id']} ${event.type ?? '?'} ${body}\n`);
          res.writeHead(200).end();
        } catch (err) {
          process.stdout.write(`REFUSED ${req.headers['webhook-id'] ?? '-'}: ${(err as Error).message}\n`);
          res.writeHead(401).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    process.stdout.write(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/ (Ctrl-C stops)\n`);
    await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
    server.close();
    return 0;
  },
};
