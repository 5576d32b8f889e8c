/** The email: a subject line, a short body (under ~200 words) and exactly one call to action. */
import { cite, citeAll, escapeText, section } from '../markdown';
import type { ProposalInputs } from './definition';
import type { DraftSection } from '../result';
import { countWords, joinList, plural } from '../text';
import type { PainPointAnswer, ProposalSelection } from './select';
import { bestFact, customerLabel, inSentence } from './wording';

/** Room for the body; the subject and greeting come on top and the whole stays under ~200 words. */
const BODY_WORDS = 170;

export function emailSubject(inputs: ProposalInputs, sel: ProposalSelection): string {
  const name = escapeText(inputs.customerName.trim());
  return sel.proof.length > 0 && !sel.proofIsProfileOnly
    ? `${name}: results on the challenges you shared`
    : `${name}: a first conversation`;
}

const quoted = (a: PainPointAnswer) => `“${escapeText(a.painPoint)}”`;

function answerLine(a: PainPointAnswer): string {
  const doc = a.evidence[0];
  return `- **${escapeText(a.painPoint)}**: at ${customerLabel(doc)}, ${inSentence(bestFact(doc, a.painPoint))} ${cite(doc)}`;
}

function body(inputs: ProposalInputs, sel: ProposalSelection): string {
  const greeting = `Hi ${escapeText(inputs.customerName.trim())} team,`;
  const cta = 'Could we have 30 minutes next week to walk through how this would work for you?';
  const closing = 'Best regards';
  const backed = sel.answers.filter((a) => a.evidence.length > 0);
  const open = sel.answers.filter((a) => a.evidence.length === 0);

  const parts = (lines: string[], rest: PainPointAnswer[], nameOpen: boolean) => {
    const intro = lines.length ? ['Here is what we have done elsewhere on the challenges you shared:', lines.join('\n')] : [];
    const more = rest.length
      ? [`We also have results on ${joinList(rest.map((a) => `${quoted(a)} ${cite(a.evidence[0])}`))}, and would bring them to the call.`]
      : [];
    const which = nameOpen ? joinList(open.map(quoted)) : plural(open.length, 'other challenge');
    const unbacked = open.length
      ? [
          `On ${which} we have no documented results yet, so we would scope ${open.length === 1 ? 'it' : 'them'} with you rather than promise an outcome.`,
        ]
      : [];
    const profileOnly =
      sel.proofIsProfileOnly && sel.proof.length
        ? [`For context, we have worked with ${joinList(sel.proof.map((d) => customerLabel(d)))} ${citeAll(sel.proof)}.`]
        : [];
    return [greeting, ...intro, ...more, ...unbacked, ...profileOnly, cta, closing].join('\n\n');
  };

  // Answer as many pain points by name as the word budget allows; the rest are still named, in one sentence,
  // and only a very long list of unbacked ones is reduced to a count.
  const draft = (shown: number, nameOpen: boolean) => parts(backed.slice(0, shown).map(answerLine), backed.slice(shown), nameOpen);
  let shown = backed.length;
  while (shown > 1 && countWords(draft(shown, true)) > BODY_WORDS) shown--;
  const text = draft(shown, true);
  return countWords(text) > BODY_WORDS ? draft(shown, false) : text;
}

export function emailSections(inputs: ProposalInputs, sel: ProposalSelection): DraftSection[] {
  return [section('Subject', emailSubject(inputs, sel)), section('Body', body(inputs, sel))];
}

export function renderEmail(_title: string, sections: readonly Pick<DraftSection, 'heading' | 'markdown'>[]): string {
  const [subject, mailBody] = sections;
  return `**Subject:** ${subject.markdown}\n\n${mailBody.markdown}\n`;
}
