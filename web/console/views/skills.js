// @ts-check
// Skills: per project, a form to start one, and the recent invocations with a cancel button on running ones and
// a link to each one's workflow (for those the API gives it to).
import { api } from '../api.js';
import { el, tableWithHead } from '../dom.js';
import { timeEl } from '../format.js';
import { cancelButton, workflowLink } from '../invocation-actions.js';
import { navLink, params } from '../nav.js';
import { pagedList } from '../paged-list.js';
import { startSkillSection } from '../skill-form.js';

/** @typedef {import('../types').Invocation} Invocation */

/** @param {HTMLElement} box @param {() => boolean} current */
export async function viewSkills(box, current) {
  /** @type {{ projects: { id: string }[] }} */
  const { projects } = await api('/v1/console/projects');
  if (!current()) return;
  const first = projects[0];
  const project = params().get('project') || (first && first.id) || '';
  box.append(
    el('h2', {}, 'Skills'),
    el(
      'p',
      {},
      'Project: ',
      ...projects.flatMap((p) => [p.id === project ? el('strong', {}, p.id) : navLink(p.id, { view: 'skills', project: p.id }, true), ' ']),
    ),
  );
  if (!project) {
    box.append(el('p', {}, 'Your token names no project.'));
    return;
  }
  const catalog = await api(`/v1/agents/${encodeURIComponent(project)}/skills`);
  if (!current()) return;
  box.append(startSkillSection(project, catalog.skills), el('h3', {}, 'Recent invocations'));
  await pagedList(
    box,
    async (cursor) => {
      const p = await api(
        `/v1/agents/${encodeURIComponent(project)}/invocations` +
          (cursor ? '?cursor=' + encodeURIComponent(cursor) + '&limit=25' : '?limit=25'),
      );
      return { items: /** @type {Invocation[]} */ (p.invocations), nextCursor: p.nextCursor };
    },
    () => {
      const { table, body } = tableWithHead([
        'Invocation',
        'Skill',
        'Inputs',
        'Status',
        'Progress',
        'Duration',
        'Generator',
        'Asked by',
        'Created',
        '',
      ]);
      /** @param {Invocation[]} list */
      const add = (list) =>
        list.forEach((i) =>
          body.append(
            el(
              'tr',
              {},
              el('td', {}, navLink(i.id, { view: 'invocation', project: i.project, id: i.id }, true)),
              el('td', {}, i.skill),
              el(
                'td',
                {},
                Object.entries(i.inputs || {})
                  .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' | ') : v}`)
                  .join('; '),
              ),
              el('td', {}, el('span', { class: 'status ' + i.status }, i.status)),
              el('td', {}, i.progress ? `${i.progress.completedSteps}/${i.progress.totalSteps} (${i.progress.step})` : ''),
              el('td', {}, i.durationMs === null || i.durationMs === undefined ? '—' : (i.durationMs / 1000).toFixed(1) + ' s'),
              el('td', {}, i.generator || '—'),
              el('td', {}, i.requestedBy || '—'),
              el('td', {}, timeEl(i.createdAt)),
              el('td', { class: 'actions' }, cancelButton(i), ' ', workflowLink(i)),
            ),
          ),
        );
      return { table, add };
    },
    'No invocation yet.',
  );
}
