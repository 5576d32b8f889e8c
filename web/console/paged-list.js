// @ts-check
// A list that pages with a "More" button (the API's cursors), so 100k customers never load at once. Each list
// shows its own loading line, and its own error box with a Retry that loads the same page again.
import { el, loading, problemBox, scrollBox } from './dom.js';

/**
 * @template T
 * @typedef {{ items: T[], nextCursor: string | null }} Page
 */

/**
 * @template T
 * @param {HTMLElement} box where the list goes (its first heading names the scrolling region)
 * @param {(cursor: string | null) => Promise<Page<T>>} fetchPage
 * @param {() => { table: HTMLTableElement, add: (items: T[]) => void }} build
 * @param {string} empty what to say when there is nothing
 * @returns {Promise<Page<T>>}
 */
export async function pagedList(box, fetchPage, build, empty) {
  const more = el('button', { type: 'button', hidden: true }, 'More');
  const note = el('p', { class: 'muted' });
  const status = el('div', { class: 'list-status' });
  /** @type {string | null} */
  let cursor = null;
  const { table, add } = build();
  const heading = box.querySelector('h2, h3');
  const wrap = scrollBox(heading && heading.textContent ? heading.textContent.trim() : 'List', table);
  box.append(wrap, status, el('p', {}, more), note);
  const load = async () => {
    more.disabled = true;
    status.replaceChildren(loading(cursor ? 'more' : 'the list'));
    try {
      const page = await fetchPage(cursor);
      status.replaceChildren();
      add(page.items);
      cursor = page.nextCursor;
      more.hidden = !cursor;
      const body = table.querySelector('tbody');
      if (!cursor && body && body.children.length === 0) note.textContent = empty;
      return page;
    } catch (err) {
      status.replaceChildren(problemBox(err, () => load().catch(() => {})));
      throw err;
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', () => load().catch(() => {}));
  return load();
}
