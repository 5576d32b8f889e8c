/**
 * The publishable rendering of a result: what a maintainer pastes into a release page, a proposal or a
 * postmortem. Drafts are written with inline citation markers ([pr:12], [ticket:WEB-7]) so that every claim
 * names its sources; here each run of markers becomes what a reader can follow instead:
 *
 *   - nothing, when the same line already links the document (an entry's "([#12](…))");
 *   - nothing for a commit cited beside its pull request (the pull request is where a reader follows it);
 *   - a link, "([#12](…), [c1225f2](…))", when the document has a web address;
 *   - a footnote, "[^1]", when it has none, defined once at the end ("[^1]: Ticket WEB-7: Title").
 *
 * The marker form stays available (`markdownWithCitations`), and `citations` lists every source either way.
 */
import { citationMarkers, escapeText, oneLine, safeUrl, startsBlockLine } from './markdown';
import type { ResultCitation } from './result';

/** Footnotes shared by every section of one document, numbered by first appearance. */
export interface Footnotes {
  numbers: Map<string, number>;
}

export const newFootnotes = (): Footnotes => ({ numbers: new Map() });

const KIND_NAMES: Record<string, string> = {
  commit: 'Commit',
  pr: 'Pull request',
  ticket: 'Ticket',
  release: 'Release',
  incident: 'Incident',
  error_issue: 'Error issue',
  win: 'Win',
  case_study: 'Case study',
  sales_note: 'Sales note',
  runbook: 'Runbook',
};

/** Evidence titles can be long sentences; a link label is at most this many characters. */
const LABEL_MAX = 40;

/**
 * How a reader names the document: "#12", "c1225f2", "WEB-7", "2.0.0"; evidence by its kind ("case study"),
 * or by its title when the same run links several of that kind.
 */
function label(c: ResultCitation, kindsInRun: ReadonlyMap<string, number>): string {
  const colon = c.id.indexOf(':');
  const prefix = c.id.slice(0, colon);
  const rest = c.id.slice(colon + 1);
  if (prefix === 'pr') return `#${rest}`;
  if (['commit', 'ticket', 'release', 'incident', 'error_issue'].includes(prefix)) return rest;
  if ((kindsInRun.get(prefix) ?? 0) < 2) return (KIND_NAMES[prefix] ?? 'source').toLowerCase();
  const title = oneLine(c.title);
  if (title.length <= LABEL_MAX) return escapeText(title);
  const cut = title.lastIndexOf(' ', LABEL_MAX);
  return `${escapeText(title.slice(0, cut > 0 ? cut : LABEL_MAX).trimEnd())}…`;
}

const linkTo = (url: string) => url.replace(/[()<>\s]/g, encodeURIComponent);

/**
 * The block (list item with its continuation lines, paragraph, table row) of `text` around position `at`, as
 * [start, end): a document linked anywhere in it needs no second link.
 */
function blockAround(text: string, at: number): { start: number; end: number } {
  const lineEnd = (from: number) => (text.indexOf('\n', from) < 0 ? text.length : text.indexOf('\n', from));
  let start = text.lastIndexOf('\n', at - 1) + 1;
  const row = text.slice(start, lineEnd(start)).trimStart().startsWith('|');
  while (!row && start > 0 && !startsBlockLine(text.slice(start, lineEnd(start)))) {
    const previous = text.lastIndexOf('\n', start - 2) + 1;
    if (text.slice(previous, start - 1).trim() === '') break;
    start = previous;
  }
  let end = lineEnd(at);
  while (!row && end < text.length) {
    const line = text.slice(end + 1, lineEnd(end + 1));
    if (line.trim() === '' || startsBlockLine(line)) break;
    end = lineEnd(end + 1);
  }
  return { start, end };
}

/** The targets of the links in `block`: "](target)" and "<target>". One pass. */
function linkTargets(block: string): Set<string> {
  const out = new Set<string>();
  for (let i = block.indexOf(']('); i >= 0; i = block.indexOf('](', i + 2)) {
    const close = block.indexOf(')', i + 2);
    if (close < 0) break;
    out.add(block.slice(i + 2, close));
  }
  for (let i = block.indexOf('<http'); i >= 0; i = block.indexOf('<http', i + 1)) {
    const close = block.indexOf('>', i);
    if (close < 0) break;
    out.add(block.slice(i + 1, close));
  }
  return out;
}

const PULL_REQUEST_PAGE = /\/pulls?\/\d+$/;

/**
 * One section (or any markdown) in publishable form: marker runs replaced as described above. Footnote
 * numbers are taken from (and added to) `notes`, so a document's sections share one numbering.
 */
export function publishMarkdown(markdown: string, citations: ReadonlyMap<string, ResultCitation>, notes: Footnotes): string {
  const markers = citationMarkers(markdown);
  if (markers.length === 0) return markdown;
  // Runs: markers separated by spaces only.
  const runs: { start: number; end: number; ids: string[] }[] = [];
  for (const m of markers) {
    const last = runs[runs.length - 1];
    if (last && markdown.slice(last.end, m.start).trim() === '' && !markdown.slice(last.end, m.start).includes('\n')) {
      last.end = m.end;
      last.ids.push(m.id);
    } else runs.push({ start: m.start, end: m.end, ids: [m.id] });
  }
  let out = '';
  let at = 0;
  // The block of the current run, the links it holds, and the documents this rendering linked in it: one
  // link per document per block is enough. Runs come in order, so each block is measured once.
  let block = { start: -1, end: -1, targets: new Set<string>(), linked: new Set<string>(), pullRequest: false };
  for (const run of runs) {
    if (run.start > block.end) {
      const { start, end } = blockAround(markdown, run.start);
      const targets = linkTargets(markdown.slice(start, end));
      block = { start, end, targets, linked: new Set(), pullRequest: [...targets].some((t) => PULL_REQUEST_PAGE.test(t)) };
    }
    const cited = run.ids.map((id) => citations.get(id)).filter((c): c is ResultCitation => c !== undefined);
    const linksPullRequest = block.pullRequest || cited.some((c) => c.id.startsWith('pr:'));
    const kindsInRun = new Map<string, number>();
    for (const c of cited) kindsInRun.set(c.id.slice(0, c.id.indexOf(':')), (kindsInRun.get(c.id.slice(0, c.id.indexOf(':'))) ?? 0) + 1);
    const shown: string[] = [];
    const footnotes: string[] = [];
    for (const c of cited) {
      const url = safeUrl(c.url);
      if (url && (block.targets.has(url) || block.targets.has(linkTo(url)) || block.linked.has(c.id))) continue;
      if (c.id.startsWith('commit:') && linksPullRequest) continue;
      if (url) {
        shown.push(`[${label(c, kindsInRun)}](${linkTo(url)})`);
        block.linked.add(c.id);
      } else {
        if (!notes.numbers.has(c.id)) notes.numbers.set(c.id, notes.numbers.size + 1);
        footnotes.push(`[^${notes.numbers.get(c.id)}]`);
      }
    }
    let before = markdown.slice(at, run.start);
    // A run that is a table cell's whole content needs no parentheses.
    let next = run.end;
    while (markdown[next] === ' ') next++;
    const cell = before.trimEnd().endsWith('|') && markdown[next] === '|';
    const rendered = shown.length ? (cell ? ` ${shown.join(', ')}` : ` (${shown.join(', ')})`) : '';
    const replacement = `${rendered}${footnotes.join('')}`;
    // The space before a run belongs to it: a run that renders to nothing leaves no trailing space.
    if (before.endsWith(' ')) before = before.trimEnd() + (replacement === '' || replacement.startsWith(' ') ? '' : ' ');
    out += before + replacement;
    at = run.end;
  }
  return out + markdown.slice(at);
}

/** "[^1]: Ticket WEB-7: Checkout fails on empty carts" for each footnote in `ids`, in number order. */
export function footnoteDefinitions(ids: Iterable<string>, citations: ReadonlyMap<string, ResultCitation>, notes: Footnotes): string {
  const lines = [...new Set(ids)]
    .map((id) => ({ id, n: notes.numbers.get(id), c: citations.get(id) }))
    .filter((x): x is { id: string; n: number; c: ResultCitation } => x.n !== undefined && x.c !== undefined)
    .sort((a, b) => a.n - b.n)
    .map(
      ({ n, c }) =>
        `[^${n}]: ${KIND_NAMES[c.id.slice(0, c.id.indexOf(':'))] ?? 'Source'} ${escapeText(c.id.slice(c.id.indexOf(':') + 1))}: ${escapeText(oneLine(c.title))}`,
    );
  return lines.join('\n');
}
