/**
 * References in commit messages. Pure, and linear in the message's length.
 *   prNumber    "Merge pull request #123 from ..." (a merge commit), else the last "(#123)" of the subject
 *               (a squash merge appends it; a revert of a squash merge carries both, its own last).
 *   ticketKeys  Jira-style keys "ABC-12", and GitHub closing keywords "fixes #45" as "<issuePrefix>-45".
 *
 * A key-shaped word is not always a ticket: "AIP-193", "UTF-8", "ISO-8601", "RFC-7231" are words of the
 * message. With the project's ticket prefixes configured, only keys with those prefixes count, wherever they
 * stand. Without, a key counts only where messages put references: opening or closing the subject ("WEB-12:
 * …", "… WEB-12"), in brackets ("[WEB-12]", "(WEB-12, WEB-13)"), after a keyword ("fixes WEB-12",
 * "implements WEB-12"), on a trailer or a line of its own ("Refs: WEB-12", "WEB-12"), or in a branch name
 * ("feature/WEB-12-export").
 */

export interface RefOptions {
  /** Key prefix for "fixes #45"-style issue references (GitHub issues have no project key). */
  issuePrefix: string;
  /** When given, only keys with these prefixes count (the project's Jira keys), wherever they stand. */
  ticketPrefixes?: readonly string[];
}

export const DEFAULT_REF_OPTIONS: RefOptions = { issuePrefix: 'GH' };

/** Uppercase words followed by a number that name standards and encodings, not tickets ("UTF-8", "SHA-256"). */
const NOT_TICKETS = new Set([
  'UTF',
  'ISO',
  'RFC',
  'SHA',
  'MD',
  'CVE',
  'CWE',
  'GHSA',
  'HTTP',
  'TLS',
  'SSL',
  'AES',
  'RSA',
  'PEP',
  'ES',
  'ECMA',
  'WCAG',
  'IEEE',
  'ANSI',
  'CP',
  'GPL',
  'LGPL',
  'AGPL',
  'WIN',
  'IPV',
  'OS',
  'AIP',
  'JSR',
  'KEP',
]);

const TICKET_KEY = /(?<![A-Za-z0-9_-])([A-Z][A-Z0-9]{1,9})-([1-9]\d{0,8})(?![A-Za-z0-9_]|-\d)/g;
const CLOSING_REF = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+#([1-9]\d{0,8})\b/gi;
const MERGE_PR = /^Merge pull request #([1-9]\d{0,8})\b/;
const SQUASH_PR = /\(#([1-9]\d{0,8})\)/g;

/** Words after which a key is a reference: "fixes WEB-1", "implements WEB-1", "see WEB-1". */
const REFERENCE_WORDS = new Set([
  'fix',
  'fixes',
  'fixed',
  'close',
  'closes',
  'closed',
  'resolve',
  'resolves',
  'resolved',
  'ref',
  'refs',
  'references',
  'implements',
  'implement',
  'addresses',
  'see',
  'part of',
  'relates to',
  'related to',
]);
/** Trailer tokens whose values are references: "Refs: WEB-1, WEB-2", "Jira: WEB-1". */
const REFERENCE_TRAILERS = new Set([
  'refs',
  'ref',
  'references',
  'related',
  'relates-to',
  'related-to',
  'jira',
  'ticket',
  'tickets',
  'issue',
  'issues',
  'closes',
  'fixes',
  'resolves',
  'see',
  'part-of',
]);

/** More key-shaped words than this in one message are not looked at (a message is not a ticket index). */
const MAX_CANDIDATES = 200;
/** How far around a key its position is read. */
const CONTEXT = 120;

/** "Merge pull request #N from …": a merge commit whose second parent is the PR's branch. */
export function isPrMerge(subject: string): boolean {
  return MERGE_PR.test(subject);
}

export function prNumberOf(subject: string): number | undefined {
  const merge = MERGE_PR.exec(subject);
  if (merge) return Number(merge[1]);
  const squash = [...subject.matchAll(SQUASH_PR)].pop();
  return squash ? Number(squash[1]) : undefined;
}

/** True when only references, brackets and separators stand in `text` ("", " - ", "(", "WEB-1, ", "and"). */
function onlyReferences(text: string): boolean {
  const rest = text.replace(/[A-Z][A-Z0-9_]*-[0-9]+|#[0-9]+|\band\b/g, '');
  for (const c of rest) if (!' \t,;:()[]{}-–—|/.&'.includes(c)) return false;
  return true;
}

/** "feat(scope)!: " at the start of a subject, which a leading key may follow. */
function withoutConventionalPrefix(line: string): string {
  const colon = line.indexOf(':');
  if (colon < 1 || colon > 60) return line;
  const head = line.slice(0, colon);
  return /^[A-Za-z]+(\([^()]*\))?!?$/.test(head) ? line.slice(colon + 1) : line;
}

function inReferencePosition(text: string, at: number, length: number, firstLine: boolean): boolean {
  if (text[at - 1] === '/') return true; // a branch name: feature/WEB-12-export
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at + length);
  const lineEnd = nl < 0 ? text.length : nl;
  const beforeAll = text.slice(Math.max(lineStart, at - CONTEXT), at);
  // After "feat(x): " a key opens the description only when set off ("feat: WEB-12: …"): "feat: HTML-5 parser" is prose.
  const conventional = firstLine && lineStart === 0 && at < CONTEXT && withoutConventionalPrefix(beforeAll) !== beforeAll;
  const before = conventional ? withoutConventionalPrefix(beforeAll) : beforeAll;
  const after = text.slice(at + length, Math.min(lineEnd, at + length + CONTEXT));
  const lineReachable = at - lineStart <= CONTEXT && lineEnd - (at + length) <= CONTEXT;
  if (lineReachable && onlyReferences(after)) return true;
  if (lineReachable && onlyReferences(before) && (!conventional || /^\s*[:\-–—]/.test(after))) return true;
  // Inside a bracket group of references: "(WEB-1, WEB-2)".
  const open = Math.max(before.lastIndexOf('('), before.lastIndexOf('['));
  const close = [after.indexOf(')'), after.indexOf(']')].filter((i) => i >= 0).sort((a, b) => a - b)[0];
  if (open >= 0 && close !== undefined && onlyReferences(before.slice(open + 1)) && onlyReferences(after.slice(0, close))) return true;
  const trailer = /^\s*([A-Za-z][A-Za-z-]{0,30})\s*:/.exec(text.slice(lineStart, Math.min(lineEnd, lineStart + 40)));
  if (trailer && REFERENCE_TRAILERS.has(trailer[1]!.toLowerCase()) && onlyReferences(text.slice(lineStart + trailer[0].length, at)))
    return true;
  const words = before.trimEnd().toLowerCase().split(/\s+/);
  const last = (words[words.length - 1] ?? '').replace(/:$/, '');
  return REFERENCE_WORDS.has(last) || REFERENCE_WORDS.has(`${words[words.length - 2] ?? ''} ${last}`);
}

/** Ticket keys in order of first mention, each once. */
export function ticketKeysOf(text: string, options: RefOptions = DEFAULT_REF_OPTIONS): string[] {
  const found: { at: number; key: string }[] = [];
  const firstLineEnd = text.indexOf('\n');
  let candidates = 0;
  for (const m of text.matchAll(TICKET_KEY)) {
    if (++candidates > MAX_CANDIDATES) break;
    const prefix = m[1]!;
    const allowed = options.ticketPrefixes
      ? options.ticketPrefixes.includes(prefix)
      : !NOT_TICKETS.has(prefix) && inReferencePosition(text, m.index, m[0].length, firstLineEnd < 0 || m.index < firstLineEnd);
    if (allowed) found.push({ at: m.index, key: `${prefix}-${m[2]}` });
  }
  for (const m of text.matchAll(CLOSING_REF)) found.push({ at: m.index, key: `${options.issuePrefix}-${m[1]}` });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.key))];
}
