import type { Mailer } from '../mail';
import { MailOutbox } from '../store/mail-outbox';
import { ProjectRepository } from '../store/projects';
import type { ActivityDeps } from './deps';

/**
 * Mail to people. Each mail has an idempotency key (here the provider event id): the outbox remembers it, so a
 * retried activity does not send again once the first send was recorded, and the deterministic Message-ID lets
 * a mail server drop the one duplicate a crash between "sent" and "recorded" could cause.
 */
export function createEmailActivities(deps: ActivityDeps & { mailer: Mailer | null }) {
  const outbox = new MailOutbox(deps.db);
  const projects = new ProjectRepository(deps.db);
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
      if (mail.status === 'sent') return 'already_sent';
      if (!deps.mailer) {
        await outbox.mark(key, 'kept', now());
        deps.logger.info({ to: mail.to, subject: mail.subject }, 'no SMTP relay configured: mail kept in the outbox');
        return 'kept';
      }
      await deps.mailer.send(mail);
      await outbox.mark(key, 'sent', now());
      return 'sent';
    },
  };

  async function orgOfProject(id: string) {
    const project = await projects.getProject(id);
    return project ? projects.getOrg(project.org) : null;
  }
}
