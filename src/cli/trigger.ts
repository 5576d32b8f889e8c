import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { CHAIN_PERIODS, nextInChain, type ChainPeriod, type ChainProduct, type ChainState } from '../billing/event-chain';
import type { BillingEvent } from '../billing/provider-events';
import { SAMPLE_TYPES } from '../billing/sample-events';
import { APP_WEBHOOK_PATH, OPERATOR_WEBHOOK_PATH } from '../contracts/webhook-paths';
import { requireString, type CliCommand } from './command';
import { apiBase } from './local-api';

/** Chains remembered between runs, beside the dev stack's own files; the oldest are forgotten past this. */
// One file per story, so triggers run at once for different subscribers never overwrite each other's.
const CHAIN_DIR = join('.data', 'trigger-chains');
const MAX_CHAINS = 500;

const DEFAULT_PRODUCT = { productId: 'pro_monthly', price: 9.99, currency: 'USD', store: 'APP_STORE', period: 'P1M' as ChainPeriod };

/**
 * Trying the billing receiver by hand, like `stripe trigger`: each run sends the next event of one subscriber's
 * story (event-chain.ts) to an app's receiver (or the operator's), and remembers the chain in
 * .data/trigger-chains/ of the current folder, so `--type RENEWAL` renews the purchase sent before it and
 * `--type EXPIRATION` ends that period.
 */
export const triggerCommand: CliCommand = {
  summary: "Send the next event of USER's subscription story (purchase, renewal, cancellation, expiration, …) to an app's receiver",
  usage: `--type ${SAMPLE_TYPES.slice(1, 4).join('|')}|… --user USER (--app SLUG --authorization VALUE | --operator) [--sandbox] [--product ID] [--price USD] [--currency EUR] [--store PLAY_STORE] [--period P1M|P1Y|…] [--trial] [--refund] [--api URL]`,
  options: {
    type: { type: 'string' },
    user: { type: 'string' },
    app: { type: 'string' },
    authorization: { type: 'string' },
    operator: { type: 'boolean' },
    api: { type: 'string' },
    sandbox: { type: 'boolean' },
    production: { type: 'boolean' },
    product: { type: 'string' },
    price: { type: 'string' },
    currency: { type: 'string' },
    store: { type: 'string' },
    period: { type: 'string' },
    entitlement: { type: 'string' },
    trial: { type: 'boolean' },
    refund: { type: 'boolean' },
  },
  async run(values) {
    const type = requireString(values, 'type');
    if (!SAMPLE_TYPES.includes(type)) throw new Error(`--type must be one of ${SAMPLE_TYPES.join(', ')}`);
    const user = requireString(values, 'user');
    if (user.length > 200) throw new Error('--user is longer than 200 characters');
    if (values.refund && type !== 'CANCELLATION') throw new Error('--refund goes with --type CANCELLATION');
    const api = apiBase(values);
    const operator = values.operator === true;
    const authorization = operator
      ? process.env.OPERATOR_WEBHOOK_AUTHORIZATION
      : typeof values.authorization === 'string'
        ? values.authorization
        : process.env.APP_WEBHOOK_AUTHORIZATION;
    if (!authorization)
      throw new Error(operator ? 'OPERATOR_WEBHOOK_AUTHORIZATION is not set' : "--authorization (the app's webhook value) is required");
    const app = operator ? null : requireString(values, 'app');
    const url = app === null ? `${api}${OPERATOR_WEBHOOK_PATH}` : `${api}${APP_WEBHOOK_PATH}?app=${encodeURIComponent(app)}`;

    const overrides = productOverrides(values);
    const environment = environmentOf(values, api);
    const product: ChainProduct = { ...DEFAULT_PRODUCT, entitlementIds: ['pro'], ...overrides, environment };
    const key = `${api} ${app === null ? 'operator' : `app:${app}`} ${user}`;
    const step = nextInChain(type, user, readChain(key), product, {
      nowMs: Date.now(),
      newId: () => randomUUID().replace(/-/g, '').slice(0, 20),
      trial: values.trial === true,
      refund: values.refund === true,
      overrides: { ...overrides, ...(values.sandbox || values.production ? { environment } : {}) },
    });

    let ok = true;
    for (const event of step.events) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ api_version: '1.0', event }),
      });
      const answer = await res.text();
      process.stdout.write(`${res.status} ${answer}\n`);
      process.stdout.write(`  ${describe(event)}\n`);
      if (res.status !== 200) {
        ok = false;
        break;
      }
    }
    if (ok && step.state) {
      writeChain(key, step.state);
    }
    if (step.state?.environment === 'SANDBOX')
      process.stdout.write('  note: SANDBOX purchases add no MRR (the provider leaves them out); drop --sandbox to count it\n');
    return ok ? 0 : 1;
  },
};

function productOverrides(values: Record<string, unknown>): Partial<ChainProduct> {
  const out: Partial<ChainProduct> = {};
  if (typeof values.product === 'string') out.productId = values.product;
  if (typeof values.price === 'string') {
    const price = Number(values.price);
    if (!Number.isFinite(price) || price < 0 || price > 100_000) throw new Error('--price must be a USD amount, e.g. 9.99');
    out.price = price;
  }
  if (typeof values.currency === 'string') {
    if (!/^[A-Z]{3}$/.test(values.currency)) throw new Error('--currency must be an ISO 4217 code, e.g. EUR');
    out.currency = values.currency;
  }
  if (typeof values.store === 'string') {
    if (!/^[A-Z_]{2,40}$/.test(values.store)) throw new Error('--store must be a store name such as APP_STORE, PLAY_STORE, STRIPE');
    out.store = values.store;
  }
  if (typeof values.period === 'string') {
    if (!(values.period in CHAIN_PERIODS)) throw new Error(`--period must be one of ${Object.keys(CHAIN_PERIODS).join(', ')}`);
    out.period = values.period as ChainPeriod;
  }
  if (typeof values.entitlement === 'string') out.entitlementIds = values.entitlement.split(',').map((e) => e.trim());
  return out;
}

/** PRODUCTION against the service on this machine (the dev stack), so MRR moves; SANDBOX elsewhere unless asked. */
function environmentOf(values: Record<string, unknown>, api: string): 'PRODUCTION' | 'SANDBOX' {
  if (values.sandbox && values.production) throw new Error('give --sandbox or --production, not both');
  if (values.sandbox) return 'SANDBOX';
  if (values.production) return 'PRODUCTION';
  const host = new URL(api).hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || (isIP(host) === 4 ? host.startsWith('127.') : host === '::1');
  return local ? 'PRODUCTION' : 'SANDBOX';
}

function describe(event: BillingEvent): string {
  if (event.type === 'TRANSFER' || !event.original_transaction_id || typeof event.expiration_at_ms !== 'number')
    return `${event.type}: a provider sample`;
  const day = (ms: number | null | undefined) => new Date(ms ?? 0).toISOString().slice(0, 10);
  const trial = event.period_type === 'TRIAL';
  const period = `${trial ? 'trial' : `period ${event.renewal_number ?? 1}`} ${day(event.purchased_at_ms)} → ${day(event.expiration_at_ms)}`;
  const what = `${event.product_id} ${trial ? 'free' : `${event.price} USD`}, ${event.store}, ${event.environment}`;
  const effect: Record<string, string> = {
    CANCELLATION:
      event.cancel_reason === 'CUSTOMER_SUPPORT'
        ? 'refunded: access ends now'
        : `auto-renew off: access lasts until ${day(event.expiration_at_ms)}`,
    EXPIRATION: `the period ends: access is removed at its end, ${day(event.expiration_at_ms)}`,
  };
  return `${event.type} of subscription ${event.original_transaction_id}, ${period} (${what})${effect[event.type] ? `; ${effect[event.type]}` : ''}`;
}

const chainFile = (key: string) => join(CHAIN_DIR, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);

function readChain(key: string): ChainState | null {
  try {
    const stored = JSON.parse(readFileSync(chainFile(key), 'utf8')) as { key: string; state: ChainState };
    return stored.key === key ? stored.state : null;
  } catch {
    return null;
  }
}

/** Written whole under a name of this process's own, then renamed; past MAX_CHAINS stories the oldest go. */
function writeChain(key: string, state: ChainState): void {
  mkdirSync(CHAIN_DIR, { recursive: true });
  const tmp = `${chainFile(key)}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(tmp, JSON.stringify({ key, state }));
  renameSync(tmp, chainFile(key));
  const stories = readdirSync(CHAIN_DIR).filter((f) => f.endsWith('.json'));
  if (stories.length <= MAX_CHAINS) return;
  // Another trigger may prune at the same time: a story already gone counts as newest and is left alone.
  const age = (f: string) => statSync(join(CHAIN_DIR, f), { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
  const byAge = stories.map((f) => ({ f, at: age(f) })).sort((a, b) => a.at - b.at);
  for (const { f } of byAge.slice(0, stories.length - MAX_CHAINS)) rmSync(join(CHAIN_DIR, f), { force: true });
}
