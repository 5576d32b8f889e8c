// @ts-check
// CSV export of a list the console pages through: every page (up to a bound) fetched with the same filters,
// written as RFC 4180 CSV and saved as a file. A cell that a spreadsheet would read as a formula (=, +, -, @,
// tab, carriage return first) is prefixed with an apostrophe, so an id or a reason from a webhook cannot run
// as one.
import { el, showError } from './dom.js';

/** Rows exported at most: the export says when the list had more. */
export const MAX_ROWS = 10_000;

/** One cell as CSV. @param {unknown} value */
export function csvCell(value) {
  let s = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** @param {string[]} head @param {unknown[][]} rows */
export const toCsv = (head, rows) => [head, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

/** Saves text as a file the browser downloads. @param {string} name @param {string} text @param {string} type */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * An "Export CSV" button: fetches every page (`fetchPage(cursor)`, up to MAX_ROWS rows) and saves the rows.
 * @template T
 * @param {string} fileName
 * @param {string[]} head
 * @param {(item: T) => unknown[]} row
 * @param {(cursor: string | null) => Promise<{ items: T[], nextCursor: string | null }>} fetchPage
 */
export function csvButton(fileName, head, row, fetchPage) {
  const button = el('button', { type: 'button', class: 'export', 'data-export': fileName }, 'Export CSV');
  const note = el('span', { class: 'muted', role: 'status' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    note.textContent = 'Exporting…';
    try {
      /** @type {unknown[][]} */
      const rows = [];
      /** @type {string | null} */
      let cursor = null;
      do {
        const page = await fetchPage(cursor);
        for (const item of page.items) if (rows.length < MAX_ROWS) rows.push(row(item));
        cursor = page.nextCursor;
      } while (cursor && rows.length < MAX_ROWS);
      download(fileName, toCsv(head, rows), 'text/csv;charset=utf-8');
      note.textContent = `${rows.length} rows exported${cursor ? ` (the first ${MAX_ROWS}: narrow the filters for the rest)` : ''}.`;
    } catch (err) {
      note.textContent = '';
      showError(err);
    } finally {
      button.disabled = false;
    }
  });
  return el('span', { class: 'export-box' }, button, ' ', note);
}
