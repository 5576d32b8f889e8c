import { createBillingActivities } from './billing';
import { createDeadLetterActivities } from './dead-letters';
import type { ActivityDeps } from './deps';
import { systemClock } from '../config/clock';
import { createEmailActivities } from './email';
import { createOutboundActivities } from './outbound';
import { createPublishActivities } from './publish';
import { createSkillActivities } from './skills';

export type { ActivityDeps } from './deps';

/** All activities, built from injected dependencies: the per-domain factories merged. */
export function createActivities(given: ActivityDeps) {
  // The one place the activities' clock is defaulted: every factory below reads `deps.now`.
  const deps = { ...given, now: given.now ?? systemClock };
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
