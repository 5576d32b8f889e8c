// @ts-check
// Markdown: markdown-it (html: false) parses, and its tokens become elements here (never HTML strings), so no
// string from the API is ever parsed as HTML. Citations such as [pr:50] link to the cited document.
import { el, safeUrl } from './dom.js';

/** @typedef {import('./types').Citation} Citation */
/** @typedef {ReturnType<Window['markdownit']>} MarkdownIt */
/** @typedef {ReturnType<MarkdownIt['parse']>[number]} Token */

const ALLOWED = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'strong',
  'em',
  's',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'br',
  'code',
  'pre',
]);

/** @type {MarkdownIt | null} */
let md = null;

/**
 * The document as elements, each citation a link to its document (its own http(s) address, else its entry in
 * the list of cited documents, `#cite-{id}`).
 * @param {string} source
 * @param {Map<string, Citation>} citations
 * @returns {Node[]}
 */
export function renderMarkdown(source, citations) {
  md = md || window.markdownit({ html: false, linkify: false, typographer: false });
  const root = document.createDocumentFragment();
  /** @type {(DocumentFragment | HTMLElement)[]} */
  const stack = [root];
  const top = () => /** @type {DocumentFragment | HTMLElement} */ (stack[stack.length - 1]);
  /** @param {string} tag @param {Record<string, string>} attrs */
  const open = (tag, attrs) => {
    const e = document.createElement(ALLOWED.has(tag) ? tag : 'span');
    if (tag === 'a') {
      const href = safeUrl(attrs.href);
      if (href) {
        e.setAttribute('href', href);
        e.setAttribute('rel', 'noopener noreferrer');
        e.setAttribute('target', '_blank');
      }
    }
    if (tag === 'ol' && attrs.start) e.setAttribute('start', String(Number(attrs.start) || 1));
    top().append(e);
    stack.push(e);
  };
  const close = () => {
    if (stack.length > 1) stack.pop();
  };
  /** @param {Token} t @returns {Record<string, string>} */
  const attrsOf = (t) => Object.fromEntries((t.attrs || []).map(([k, v]) => [k, String(v)]));
  /** @param {Citation} c @param {string} label */
  const citationLink = (c, label) => {
    const url = safeUrl(c.url);
    const a = el(
      'a',
      {
        class: 'citation',
        href: url || '#cite-' + c.id,
        title: `${c.kind}: ${c.title}`,
        'data-citation': c.id,
        ...(url ? { target: '_blank', rel: 'noopener noreferrer' } : {}),
      },
      label,
    );
    if (!url)
      a.addEventListener('click', (e) => {
        e.preventDefault();
        const li = document.getElementById('cite-' + c.id);
        if (li) {
          li.classList.add('focus');
          li.scrollIntoView();
        }
      });
    return a;
  };
  /** @param {string} s */
  const text = (s) => {
    // Citations such as [pr:50] become links to the cited document (its own url when it has an http(s) one).
    const re = /\[([a-z_]+:[^\]\s]+)\]/g;
    let last = 0;
    /** @type {RegExpExecArray | null} */
    let m;
    while ((m = re.exec(s))) {
      const c = citations.get(/** @type {string} */ (m[1]));
      if (!c) continue;
      top().append(document.createTextNode(s.slice(last, m.index)));
      top().append(citationLink(c, /** @type {string} */ (m[1])));
      last = m.index + m[0].length;
    }
    top().append(document.createTextNode(s.slice(last)));
  };
  /** @param {Token[]} tokens */
  const walk = (tokens) => {
    for (let i = 0; i < tokens.length; i++) {
      const t = /** @type {Token} */ (tokens[i]);
      if (t.type === 'inline') {
        walk(t.children || []);
        continue;
      }
      // A citation the document links itself ([pr:50] with a reference definition) links to the cited
      // document the same way as a bare one: its own http(s) url, else its entry in the list below.
      const inner = tokens[i + 1];
      const after = tokens[i + 2];
      if (t.type === 'link_open' && inner && inner.type === 'text' && after && after.type === 'link_close') {
        const c = citations.get(inner.content);
        if (c) {
          top().append(citationLink(c, inner.content));
          i += 2;
          continue;
        }
      }
      if (t.nesting === 1) {
        open(t.tag, attrsOf(t));
        continue;
      }
      if (t.nesting === -1) {
        close();
        continue;
      }
      switch (t.type) {
        case 'text':
          text(t.content);
          break;
        case 'code_inline':
          top().append(el('code', {}, t.content));
          break;
        case 'fence':
        case 'code_block':
          top().append(el('pre', {}, el('code', {}, t.content)));
          break;
        case 'softbreak':
          top().append(document.createTextNode('\n'));
          break;
        case 'hardbreak':
          top().append(el('br'));
          break;
        case 'hr':
          top().append(el('hr'));
          break;
        case 'image':
          top().append(document.createTextNode(t.content || ''));
          break;
        default:
          if (t.content) top().append(document.createTextNode(t.content));
      }
    }
  };
  walk(md.parse(source, {}));
  return [root];
}
