// @ts-check
// A table row's Details: a button that opens, below the row, a row of its own holding what is fetched the first
// time it opens (a delivery's payload and answers, an event log entry's body and links). The open one is part of
// the view's address, so a reload or a shared link opens it again.
import { el, loading, problemBox } from './dom.js';
import { hrefWith } from './nav.js';

/**
 * @param {object} o
 * @param {string} o.id the row's id (kept in the address under `param` while open)
 * @param {string} o.param the address parameter
 * @param {string} o.dataName the button's data attribute naming the row (`data-details`, `data-event-details`)
 * @param {string} o.detailId the detail row's element id
 * @param {number} o.columns how many columns the detail row spans
 * @param {string} o.what what is loading ("the payload and responses")
 * @param {() => Promise<Node[]>} o.fetch what the detail row shows
 */
export function openInPlace({ id, param, dataName, detailId, columns, what, fetch }) {
  const button = el('button', { type: 'button', [dataName]: id, 'aria-expanded': 'false', 'aria-controls': detailId }, 'Details');
  const cell = el('td', { colspan: String(columns) });
  const row = el('tr', { class: 'delivery-detail', id: detailId, hidden: true, 'data-detail-of': id }, cell);
  let loaded = false;
  const toggle = async () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    row.hidden = !open;
    history.replaceState(null, '', hrefWith({ [param]: open ? id : null }));
    if (!open || loaded) return;
    cell.replaceChildren(loading(what));
    try {
      cell.replaceChildren(el('div', { class: 'detail-inner' }, ...(await fetch())));
      loaded = true;
    } catch (err) {
      cell.replaceChildren(
        problemBox(err, () => {
          button.setAttribute('aria-expanded', 'false');
          return toggle();
        }),
      );
    }
  };
  button.addEventListener('click', () => void toggle());
  return { button, row, toggle };
}
