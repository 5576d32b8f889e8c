import { connectAppCommand, rotateAppCommand } from './apps';
import { billingCheckCommand } from './billing-check';
import { billingPatchErasCommand } from './billing-patch-eras';
import { deadLettersCommand } from './dead-letters';
import { billingBackfillTrendsCommand } from './billing-backfill-trends';
import type { CliCommand } from './command';
import { mintTokenCommand } from './mint-token';
import { createOrgCommand, createProjectCommand } from './orgs-projects';
import { outboundAccessCommand } from './outbound';
import { setupTemporalCommand } from './setup-temporal';
import { seedDemoCommand } from './seed-demo';
import { importGitCommand } from './import-git';
import { invokeCommand } from './invoke';
import { healthCommand } from './health';
import { listenCommand } from './listen';
import { triggerCommand } from './trigger';

export const COMMANDS: Record<string, CliCommand> = {
  'create-org': createOrgCommand,
  'create-project': createProjectCommand,
  'mint-token': mintTokenCommand,
  'setup-temporal': setupTemporalCommand,
  'seed-demo': seedDemoCommand,
  'import-git': importGitCommand,
  invoke: invokeCommand,
  'connect-app': connectAppCommand,
  'rotate-app-authorization': rotateAppCommand,
  'billing-check': billingCheckCommand,
  'billing-patch-eras': billingPatchErasCommand,
  'dead-letters': deadLettersCommand,
  'outbound-access': outboundAccessCommand,
  'billing-backfill-trends': billingBackfillTrendsCommand,
  health: healthCommand,
  trigger: triggerCommand,
  listen: listenCommand,
};
