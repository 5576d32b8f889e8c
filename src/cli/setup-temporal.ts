import { loadConfig } from '../config/config';
import { connectTemporal, registerSearchAttributes } from '../temporal/client';
import type { CliCommand } from './command';

export const setupTemporalCommand: CliCommand = {
  summary: "Register this service's search attributes on TEMPORAL_NAMESPACE (idempotent)",
  options: {},
  async run() {
    const config = loadConfig(process.env);
    const temporal = await connectTemporal(config.temporal);
    try {
      const added = await registerSearchAttributes(temporal.connection, config.temporal.namespace);
      process.stdout.write(added.length ? `registered: ${added.join(', ')}\n` : 'all search attributes already registered\n');
    } finally {
      await temporal.close();
    }
    return 0;
  },
};
