import type { DepsOf } from './deps';
import { sendOnce } from './send-once';
import { currentActivity, whileHeartbeating } from './heartbeat';

/** Mail to people: each mail has an idempotency key (here the provider event id) and is sent once (send-once.ts). */
export function createEmailActivities(deps: DepsOf<'mailOutbox' | 'projects', 'logger' | 'mailer'>) {
  const { mailOutbox: outbox, projects } = deps.repos;
  const { now } = deps;

  return {
    /**
     * `orgIds`: the ids that may name the org or project, the event's app_user_id first (absent on activities
     * scheduled before it: the subscriber id alone). The first that names one gets the mail.
     */
    async sendBillingIssueEmail(args: {
      eventId: string;
      subscriberId: string;
      orgIds?: string[];
    }): Promise<'sent' | 'kept' | 'already_sent' | 'no_owner'> {
      let org = null;
      for (const id of args.orgIds ?? [args.subscriberId]) {
        org = (await projects.getOrg(id)) ?? (await orgOfProject(id));
        if (org) break;
      }
      if (!org) {
        deps.logger.warn(
          { subscriberId: args.subscriberId, orgIds: args.orgIds },
          'billing issue for an unknown org or project: no owner to email',
        );
        return 'no_owner';
      }
      const key = `billing_issue:${args.eventId}`;
      const mail = await outbox.record(
        key,
        {
          to: org.ownerEmail,
          subject: `Billing issue with the ${org.name} subscription`,
          text: [
            `Hello,`,
            ``,
            `The billing provider reported a problem charging the subscription of ${org.name} (${org._id}).`,
            `Access continues for now; please update the payment method so the subscription does not lapse.`,
            ``,
            `Reference: ${args.eventId}`,
          ].join('\n'),
          messageId: `<${encodeURIComponent(key)}@skills-billing.local>`,
        },
        now(),
      );
      // A slow relay keeps the attempt alive; a worker that dies mid-send is noticed within the heartbeat timeout.
      return whileHeartbeating(currentActivity(), () =>
        sendOnce({ outbox, mailer: deps.mailer, logger: deps.logger, now, metrics: deps.metrics }, mail),
      );
    },
  };

  async function orgOfProject(id: string) {
    const project = await projects.getProject(id);
    return project ? projects.getOrg(project.org) : null;
  }
}
