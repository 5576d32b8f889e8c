// @ts-check
// Starting a skill from the console: a form built from the skill's own input schema (the catalog's
// `inputSchema`), sent as the API's POST /v1/agents/{project}/skills/{name} sends it; the API validates, and its
// problem (with the members it refused) is shown as it is.
import { api } from './api.js';
import { el, problemBox } from './dom.js';
import { go, hrefWith } from './nav.js';

/**
 * @typedef {{ type?: string, enum?: string[], items?: { type?: string }, description?: string, default?: unknown }} PropertySchema
 * @typedef {{ name: string, title: string, description: string, available: boolean, unavailableReason: string | null,
 *   inputSchema: { properties?: Record<string, PropertySchema>, required?: string[] } }} SkillEntry
 */

/** One input of the form, and how its value is read back. @param {string} skill @param {string} name @param {PropertySchema} p @param {boolean} required */
function input(skill, name, p, required) {
  const id = `skill-${skill}-${name}`;
  const label = `${name}${required ? '' : ' (optional)'}`;
  if (p.enum) {
    const select = el(
      'select',
      { id, name, required: required ? 'required' : null },
      required ? null : el('option', { value: '' }, '—'),
      ...p.enum.map((v) => el('option', { value: v, selected: p.default === v ? 'selected' : null }, v)),
    );
    return { node: el('label', { for: id }, label, ' ', select), read: () => select.value || undefined };
  }
  if (p.type === 'array') {
    const area = el('textarea', { id, name, rows: 3, cols: 32, placeholder: 'one per line' });
    return {
      node: el('label', { for: id }, label, ' ', area),
      read: () => {
        const lines = area.value
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        return lines.length ? lines : undefined;
      },
    };
  }
  const field = el('input', { id, name, required: required ? 'required' : null, size: 24, autocomplete: 'off' });
  return { node: el('label', { for: id }, label, ' ', field), read: () => field.value.trim() || undefined };
}

/**
 * A "Start a skill" section for a project: pick a skill, fill its inputs, start it, and open its invocation.
 * @param {string} project
 * @param {SkillEntry[]} skills
 */
export function startSkillSection(project, skills) {
  const usable = skills.filter((s) => s.available);
  const section = el('section', { id: 'start-skill', class: 'panel' }, el('h3', {}, 'Start a skill'));
  if (usable.length === 0) {
    section.append(el('p', { class: 'muted' }, 'No skill is available to this project.'));
    return section;
  }
  const picker = el('select', { id: 'start-skill-name', name: 'skill' }, ...usable.map((s) => el('option', { value: s.name }, s.title)));
  const slot = el('div');
  const status = el('div', { class: 'list-status' });
  const show = () => {
    const skill = /** @type {SkillEntry} */ (usable.find((s) => s.name === picker.value) || usable[0]);
    const props = skill.inputSchema.properties || {};
    const required = skill.inputSchema.required || [];
    const fields = Object.entries(props).map(([name, p]) => ({ name, ...input(skill.name, name, p, required.includes(name)) }));
    const submit = el('button', { type: 'submit' }, 'Start');
    const form = el(
      'form',
      { class: 'skill-form', 'data-skill': skill.name },
      el('p', { class: 'muted' }, skill.description),
      ...fields.map((f) => f.node),
      el('p', {}, submit),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      submit.disabled = true;
      status.replaceChildren();
      /** @type {Record<string, unknown>} */
      const body = {};
      for (const f of fields) {
        const v = f.read();
        if (v !== undefined) body[f.name] = v;
      }
      try {
        const started = await api(`/v1/agents/${encodeURIComponent(project)}/skills/${encodeURIComponent(skill.name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        go(hrefWith({ view: 'invocation', project, id: started.id }, false));
      } catch (err) {
        submit.disabled = false;
        status.replaceChildren(problemBox(err, null));
      }
    });
    slot.replaceChildren(form);
  };
  picker.addEventListener('change', show);
  section.append(el('label', { for: 'start-skill-name' }, 'Skill '), picker, slot, status);
  show();
  return section;
}
