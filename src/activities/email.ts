import type { Mailer } from '../mail';
import { MailOutbox } from '../store/mail-outbox';
import { ProjectRepository } from '../store/projects';
import type { ActivityDeps } from './deps';

/**
 * Mail to people. Each mail has an idempotency key (here the provider event id), and the outbox hands the right
 * to send it to one attempt only (claim before send): a retried activity never sends a second copy. A crash in
 * the middle of a send leaves the claim in doubt, and the mail is then not sent again (at most once); the
 * deterministic Message-ID makes any copy recognisable.
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
      // Claim, send, mark: a retry after a failed mark or a crash mid-send finds the claim and sends nothing.
      const claim = await outbox.claim(key, now());
      if (claim === 'sent') return 'already_sent';
      if (claim === 'kept') return 'kept';
      if (claim === 'in_doubt') {
        deps.logger.warn({ key, to: mail.to }, 'an earlier attempt claimed this mail and did not finish; not sending it twice (check the SMTP relay log)');
        return 'already_sent';
      }
      try {
        await deps.mailer.send(mail);
      } catch (err) {
        // Refused or failed before the relay took it: give the claim back so the retry sends.
        await outbox.release(key);
        throw err;
      }
      await outbox.mark(key, 'sent', now());
      return 'sent';
    },
  };

  async function orgOfProject(id: string) {
    const project = await projects.getProject(id);
    return project ? projects.getOrg(project.org) : null;
  }
}
