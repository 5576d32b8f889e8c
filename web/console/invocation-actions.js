// @ts-check
// What can be done to an invocation from a list or its page.
import { api } from './api.js';
import { el, showError } from './dom.js';

/** @typedef {import('./types').Invocation} Invocation */

export const FINISHED = ['completed', 'failed', 'cancelled'];

/** A Cancel button for a running invocation; null for a finished one. @param {Invocation} i */
export function cancelButton(i) {
  if (FINISHED.includes(i.status)) return null;
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
