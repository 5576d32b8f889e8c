// @ts-check
// One invocation: its document rendered from its Markdown with working citations, or its live progress while it
// runs (Server-Sent Events); a draft whose model rewrite is coming is shown and followed until the rewrite replaces it.
import { api, authHeaders } from '../api.js';
import { el, safeUrl, showError } from '../dom.js';
import { timeEl } from '../format.js';
import { cancelButton, FINISHED, rewriting, workflowLink } from '../invocation-actions.js';
import { download } from '../csv.js';
import { renderMarkdown } from '../markdown.js';
import { navLink, params } from '../nav.js';

/** @typedef {import('../types').Invocation} Invocation */
/** @typedef {import('../types').Citation} Citation */

const REWRITE_FOLLOWS = "completed · the deterministic draft; the model's rewrite follows";

/**
 * @param {HTMLElement} box
 * @param {() => boolean} current
 * @param {() => unknown} rerender draws the view again (when the followed invocation ends)
 */
export async function viewInvocation(box, current, rerender) {
  const project = params().get('project') || '';
  const id = params().get('id') || '';
  /** @type {Invocation} */
  const i = await api(`/v1/agents/${encodeURIComponent(project)}/invocations/${encodeURIComponent(id)}`);
  if (!current()) return;
  box.append(
    el('h2', {}, `${i.skill} · ${i.id}`),
    el('p', {}, navLink('← Invocations', { view: 'skills', project }, true)),
    el(
      'p',
      { class: 'muted' },
      `status ${i.status} · requested by ${i.requestedBy || '—'} · created `,
      timeEl(i.createdAt),
      ` · generator ${i.generator || '—'}`,
      ' ',
      cancelButton(i),
      ' ',
      workflowLink(i),
    ),
  );
  if (!FINISHED.includes(i.status)) {
    const live = el(
      'p',
      { id: 'progress', 'aria-live': 'polite' },
      `${i.status} · step ${i.progress.completedSteps}/${i.progress.totalSteps}`,
    );
    box.append(live);
    void followProgress(project, id, live, current, rerender);
    return;
  }
  if (!i.result) {
    box.append(el('p', {}, i.error ? `Failed: ${i.error.message}` : 'No document yet.'));
    return;
  }
  // How the result was made: the draft's note, a model's refusals, why a rewrite stopped.
  const notes = i.result.notes || [];
  if (notes.length) box.append(el('ul', { class: 'notes muted', id: 'notes' }, ...notes.map((n) => el('li', {}, n))));
  if (rewriting(i)) {
    // The draft is shown now; the model's version replaces it when the stream brings it.
    const live = el('p', { id: 'progress', 'aria-live': 'polite' }, REWRITE_FOLLOWS);
    box.append(live);
    void followProgress(project, id, live, current, rerender, true);
  }
  const publishable = i.result.markdown || '';
  if (publishable) box.append(markdownActions(`${i.skill}-${i.id}.md`, publishable));
  /** @type {Map<string, Citation>} */
  const citations = new Map((i.result.citations || []).map((c) => [c.id, c]));
  // The marker form ([pr:50] with link definitions) keeps every citation a link to its document or to its entry
  // below; `markdown` is the publishable form (links and footnotes), for results written before the marker form.
  box.append(
    el(
      'article',
      { class: 'doc', id: 'document' },
      ...renderMarkdown(i.result.markdownWithCitations || i.result.markdown || '', citations),
    ),
  );
  const list = el('ol', { class: 'citations', id: 'citations' });
  for (const c of citations.values()) {
    const url = safeUrl(c.url);
    list.append(
      el(
        'li',
        { id: 'cite-' + c.id },
        el('code', {}, c.id),
        ' ',
        el('span', { class: 'muted' }, c.kind),
        ' ',
        url ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, c.title) : c.title,
      ),
    );
  }
  box.append(el('h3', {}, 'Cited documents'), list);
}

/**
 * Follows a running invocation's Server-Sent Events (read with fetch, so the token goes in the Authorization
 * header as everywhere else) and shows the finished invocation when its result arrives; with `showingDraft`, the
 * draft is on the page already and only a later version is drawn.
 * @param {string} project
 * @param {string} id
 * @param {HTMLElement} live
 * @param {() => boolean} current
 * @param {() => unknown} rerender
 * @param {boolean} [showingDraft]
 */
async function followProgress(project, id, live, current, rerender, showingDraft = false) {
  try {
    const res = await fetch(`/v1/agents/${encodeURIComponent(project)}/invocations/${encodeURIComponent(id)}/events`, {
      headers: authHeaders(),
    });
    if (!res.ok || !res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !current()) {
        reader.cancel().catch(() => {});
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = (/^event: (.*)$/m.exec(block) || [])[1];
        const data = (/^data: (.*)$/m.exec(block) || [])[1];
        if (!event || !data) continue;
        const body = JSON.parse(data);
        const draft = !!body.revision && body.revision.final === false;
        if (event === 'status')
          live.textContent = draft ? REWRITE_FOLLOWS : `${body.status} · step ${body.progress.completedSteps}/${body.progress.totalSteps}`;
        // The draft already on the page needs no new rendering; any other result (the draft, the final version) does.
        if (event === 'result' && !(showingDraft && draft)) {
          reader.cancel().catch(() => {});
          if (current()) rerender();
          return;
        }
      }
    }
  } catch (err) {
    showError(err);
  }
}

/**
 * Copy and Download of the document's Markdown as published (`result.markdown`: links and footnotes, ready to
 * paste), with a line that says what happened.
 * @param {string} fileName
 * @param {string} markdown
 */
function markdownActions(fileName, markdown) {
  const said = el('span', { class: 'muted', role: 'status', id: 'markdown-status' });
  const copy = el('button', { type: 'button', id: 'copy-markdown' }, 'Copy Markdown');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(markdown);
      said.textContent = 'Copied to the clipboard.';
    } catch {
      // No clipboard access (not allowed, or not a secure page): copy through a selected text field instead.
      const area = el('textarea', { class: 'offscreen', 'aria-hidden': 'true' }, markdown);
      document.body.append(area);
      area.select();
      const ok = document.execCommand('copy');
      area.remove();
      said.textContent = ok ? 'Copied to the clipboard.' : 'Copying was refused by the browser: use Download.';
    }
  });
  const save = el('button', { type: 'button', id: 'download-markdown' }, 'Download .md');
  save.addEventListener('click', () => {
    download(fileName, markdown, 'text/markdown;charset=utf-8');
    said.textContent = `Saved as ${fileName}.`;
  });
  return el('p', { class: 'toolbar', id: 'markdown-actions' }, copy, save, said);
}
