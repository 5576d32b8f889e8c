import { loadConfig } from '../config/config';
import { connectTemporal } from '../temporal/client';
import { countOpenSubscriberRunsByEra, ERA_MARKS, erasThatMayGo, SUBSCRIBER_ERAS } from '../temporal/clients/billing-subscriber-eras';
import type { CliCommand } from './command';

/**
 * The sunset check of the subscriber workflow's patch eras (ARCHITECTURE.md, "Patch eras and their sunset"): how
 * many open runs on TEMPORAL_TASK_QUEUE are in each era, and which eras' branches no open run needs any more.
 */
export const billingPatchErasCommand: CliCommand = {
  summary: 'Count open billingSubscriber runs per patch era (TemporalChangeVersion) and say which old branches may go',
  usage: '[--json]',
  options: { json: { type: 'boolean' } },
  async run(values) {
    const config = loadConfig(process.env);
    const temporal = await connectTemporal(config.temporal);
    try {
      const counts = await countOpenSubscriberRunsByEra(temporal.client, config.temporal.taskQueue);
      const mayGo = erasThatMayGo(counts);
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ taskQueue: config.temporal.taskQueue, counts, mayGo })}\n`);
        return 0;
      }
      process.stdout.write(`open billingSubscriber runs on task queue ${config.temporal.taskQueue}, by patch era:\n`);
      const newest = SUBSCRIBER_ERAS[SUBSCRIBER_ERAS.length - 1];
      for (const era of SUBSCRIBER_ERAS) {
        const verdict = era === newest ? 'current' : mayGo.includes(era) ? 'no open run needs it: its branches may go' : 'still needed';
        process.stdout.write(`  ${era}  ${String(counts[era]).padStart(8)}  ${verdict}  (${ERA_MARKS[era]})\n`);
      }
    } finally {
      await temporal.close();
    }
    return 0;
  },
};
