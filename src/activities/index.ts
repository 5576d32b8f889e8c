import { createBillingActivities } from './billing';
import { createDeadLetterActivities } from './dead-letters';
import type { ActivityDeps } from './deps';
import { createEmailActivities } from './email';
import { createOutboundActivities } from './outbound';
import { createSkillActivities } from './skills';

export type { ActivityDeps } from './deps';

/** All activities, built from injected dependencies: the per-domain factories merged. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSkillActivities(deps),
    ...createBillingActivities(deps),
    ...createEmailActivities(deps),
    ...createDeadLetterActivities(deps),
    ...createOutboundActivities(deps),
  };
}
