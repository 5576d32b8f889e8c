import { connectAppCommand, rotateAppCommand } from './apps';
import { billingCheckCommand } from './billing-check';
import type { CliCommand } from './command';
import { mintTokenCommand } from './mint-token';
import { setupTemporalCommand } from './setup-temporal';

export const COMMANDS: Record<string, CliCommand> = {
  'mint-token': mintTokenCommand,
  'setup-temporal': setupTemporalCommand,
  'connect-app': connectAppCommand,
  'rotate-app-authorization': rotateAppCommand,
  'billing-check': billingCheckCommand,
};
