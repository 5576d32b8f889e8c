// @ts-check
// What can be done to an invocation from a list or its page.
import { api } from './api.js';
import { el, safeUrl, showError } from './dom.js';

/** @typedef {import('./types').Invocation} Invocation */

export const FINISHED = ['completed', 'failed', 'cancelled'];

/**
 * A completed draft whose model rewrite is still coming (version 1, not final): cancelling stops the rewrite.
 * @param {Pick<Invocation, 'status' | 'revision'>} i
 */
export const rewriting = (i) => i.status === 'completed' && !!i.revision && i.revision.final === false;

/** A Cancel button for a running invocation or a rewrite still coming; null for a finished one. @param {Invocation} i */
export function cancelButton(i) {
  if (FINISHED.includes(i.status) && !rewriting(i)) return null;
  const b = el('button', { type: 'button' }, 'Cancel');
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await api(`/v1/agents/${encodeURIComponent(i.project)}/invocations/${encodeURIComponent(i.id)}/cancel`, { method: 'POST' });
      b.textContent = 'Cancelling…';
    } catch (err) {
      b.disabled = false;
      showError(err);
    }
  });
  return b;
}

/** A link to the invocation's workflow in the Temporal UI, when the API gives one (administrators). @param {Invocation} i */
export function workflowLink(i) {
  const url = safeUrl(i.workflowUrl);
  return url ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', 'data-workflow': i.id }, 'Workflow') : null;
}
