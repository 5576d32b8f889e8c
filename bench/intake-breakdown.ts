/**
 * Where an intake request's time goes: each step the webhook route and the forwarder take, timed one at a
 * time on an otherwise idle service (sequential, so these are service times, not queueing), next to a full
 * HTTP round trip of the product and of the insert-only baseline.
 */
import { appScope, workflowIdFor } from '../src/billing/subscriber-id';
import { APP_WEBHOOK_PATH } from '../src/contracts/webhook-paths';
import { AppRepository } from '../src/store/apps';
import { WebhookEventRepository, eventKey, type WebhookEventRecord } from '../src/store/webhook-events';
import { keepAliveAgent, send } from './lib/http-client';
import { providerEvent, envelope, EPOCH_MS } from './lib/provider-events';
import type { Service } from './lib/service';
import { nowMs, summarize } from './lib/stats';

const SAMPLES = 100;

export async function microTimings(product: Service, authorization: string, baselineUrl: string, signalSamples: number[]) {
  const apps = new AppRepository(product.store.db);
  const events = new WebhookEventRepository(product.store.db);
  const raw = product.store.db.collection<{ _id: string; eventJson: string; receivedAt: Date }>('raw_probe');
  const steps: Record<string, number[]> = { 'app lookup': [], 'inbox insert': [], 'signal-with-start': [], 'raw insert (baseline op)': [] };
  const scope = appScope('bench');
  const time = async (label: string, fn: () => Promise<unknown>) => {
    const t = nowMs();
    await fn();
    steps[label]!.push(nowMs() - t);
  };
  for (let i = 0; i < SAMPLES; i++) {
    const event = providerEvent('RENEWAL', `probe-u${i}`, { id: `probe-e${i}`, at: EPOCH_MS + i });
    const record: WebhookEventRecord = {
      _id: eventKey(scope, event.id),
      scope,
      eventId: event.id,
      type: event.type,
      workflowId: workflowIdFor(scope, `probe-u${i}`),
      subscriberId: `probe-u${i}`,
      eventJson: JSON.stringify(event),
      receivedAt: new Date(),
      acceptedBy: product.forwarder.instanceId,
      ignored: false,
      deliveries: 1,
    };
    await time('app lookup', () => apps.get('bench'));
    await time('inbox insert', () => events.accept(record));
    const before = signalSamples.length;
    await product.forwarder.forward(record);
    const signal = signalSamples[before] ?? Number.NaN;
    steps['signal-with-start']!.push(signal);

    await time('raw insert (baseline op)', () => raw.insertOne({ _id: `raw-${i}`, eventJson: record.eventJson, receivedAt: new Date() }));
  }

  const agent = keepAliveAgent(1);
  const roundTrip = async (url: string, label: string) => {
    const out: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const body = envelope(providerEvent('RENEWAL', `rt-u${i}`, { id: `rt-${label}-e${i}`, at: EPOCH_MS + i }));
      const t = nowMs();
      const res = await send(agent, url, 'POST', body, { Authorization: authorization });
      if (res.status !== 200) throw new Error(`probe request answered ${res.status}: ${res.text}`);
      out.push(nowMs() - t);
    }
    return out;
  };
  const http = {
    product: await roundTrip(`${product.baseUrl}${APP_WEBHOOK_PATH}?app=bench`, 'product'),
    baseline: await roundTrip(baselineUrl, 'baseline'),
  };
  agent.destroy();

  const p50 = (xs: number[]) => summarize(xs).p50.toFixed(2);
  const lines = [
    `  idle service times per event (p50 of ${SAMPLES}, one at a time): ${Object.entries(steps)
      .map(([k, v]) => `${k} ${p50(v)} ms`)
      .join(' · ')}`,
    `  idle HTTP round trip (p50): product ${p50(http.product)} ms (ack waits for app lookup + inbox insert; the relay runs after the ack) vs baseline ${p50(http.baseline)} ms`,
  ];
  return {
    lines,
    details: {
      steps: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, summarize(v)])),
      http: { product: summarize(http.product), baseline: summarize(http.baseline) },
    },
  };
}
