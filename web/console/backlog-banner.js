// @ts-check
// Backpressure that says so: while /readyz reports the service lagging, a banner above every view says what waits
// and how long; it goes away when the backlog drains. Webhooks are still acknowledged meanwhile.
import { readBacklog } from './api.js';
import { $, el } from './dom.js';

const EVERY_MS = 15000;

/** @param {number} s */
const duration = (s) => (s >= 90 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`);

/**
 * The banner's sentence for a lagging backlog.
 * @param {import('./types').Backlog} backlog
 */
function whatWaits(backlog) {
  const parts = [];
  if (backlog.relay.events > 0)
    parts.push(`${backlog.relay.events} accepted events wait to reach their workflows (oldest ${duration(backlog.relay.lagSeconds)})`);
  for (const [role, q] of Object.entries(backlog.queues))
    if (q && q.tasks > 0) parts.push(`the ${role} queue holds ${q.tasks} tasks (oldest ${duration(q.ageSeconds)})`);
  return `${parts.join('; ') || 'Work waits longer than usual'}. Nothing is lost: webhooks are still acknowledged, and their effects come late.`;
}

async function showBacklog() {
  const backlog = await readBacklog();
  if (!backlog || backlog.status !== 'lagging') {
    $('backlog').replaceChildren();
    return;
  }
  $('backlog').replaceChildren(
    el('div', { class: 'backlog', 'data-backlog': 'lagging' }, el('strong', {}, 'Running behind. '), whatWaits(backlog)),
  );
}

/** Shows the banner now and checks again every 15 s. */
export function watchBacklog() {
  void showBacklog();
  setInterval(() => void showBacklog(), EVERY_MS);
}
