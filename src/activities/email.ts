import type { Mailer } from '../mail';
import type { ActivityDeps } from './deps';
import { sendOnce } from './send-once';

/** Mail to people: each mail has an idempotency key (here the provider event id) and is sent once (send-once.ts). */
export function createEmailActivities(deps: ActivityDeps & { mailer: Mailer | null }) {
  const { mailOutbox: outbox, projects } = deps.repos;
  const now = deps.now ?? (() => new Date());

  return {
    async sendBillingIssueEmail(args: { eventId: string; subscriberId: string }): Promise<'sent' | 'kept' | 'already_sent' | 'no_owner'> {
      const org = (await projects.getOrg(args.subscriberId)) ?? (await orgOfProject(args.subscriberId));
      if (!org) {
        deps.logger.warn({ subscriberId: args.subscriberId }, 'billing issue for an unknown org or project: no owner to email');
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
            `The billing provider reported a problem charging the subscription of ${org.name} (${args.subscriberId}).`,
            `Access continues for now; please update the payment method so the subscription does not lapse.`,
            ``,
            `Reference: ${args.eventId}`,
          ].join('\n'),
          messageId: `<${encodeURIComponent(key)}@skills-billing.local>`,
        },
        now(),
      );
      return sendOnce({ outbox, mailer: deps.mailer, logger: deps.logger, now }, mail);
    },
  };

  async function orgOfProject(id: string) {
    const project = await projects.getProject(id);
    return project ? projects.getOrg(project.org) : null;
  }
}
