import { createBillingActivities } from './billing';
import { createDeadLetterActivities } from './dead-letters';
import type { ActivityDeps } from './deps';
import { createEmailActivities } from './email';
import { createOutboundActivities } from './outbound';
import { createPublishActivities } from './publish';
import { createSkillActivities } from './skills';

export type { ActivityDeps } from './deps';

/** All activities, built from injected dependencies: the per-domain factories merged. */
export function createActivities(deps: ActivityDeps) {
  const billing = createBillingActivities(deps);
  const outbound = createOutboundActivities(deps);
  return {
    ...createSkillActivities(deps),
    ...billing,
    ...createEmailActivities(deps),
    ...createDeadLetterActivities(deps),
    ...outbound,
    ...createPublishActivities(billing, outbound),
  };
}
