/** Reading commit messages and pull-request titles written with Conventional Commits, and tidying them for users. */

export interface ConventionalHeader {
  type: string;
  scope?: string;
  /** The "!" after type or scope. */
  breaking: boolean;
  description: string;
}

const HEADER_RE = /^([A-Za-z]+)(?:\(([^)]*)\))?(!)?:\s*(.+)$/;

export function parseHeader(title: string): ConventionalHeader | undefined {
  const m = HEADER_RE.exec(title.trim());
  if (!m) return undefined;
  return { type: m[1].toLowerCase(), scope: m[2]?.trim() || undefined, breaking: m[3] === '!', description: m[4].trim() };
}

/** The text of a `BREAKING CHANGE:` (or `BREAKING-CHANGE:`) footer: what users must do. */
export function breakingNote(body: string): string | undefined {
  const m = /^BREAKING[ -]CHANGE:[ \t]*([\s\S]*?)(?:\n\s*\n|\n[A-Za-z-]+: |$)/m.exec(body);
  const note = m?.[1].replace(/\s+/g, ' ').trim();
  return note || undefined;
}

/** People named in `Co-authored-by:` trailers. */
export function coAuthors(body: string): string[] {
  return [...body.matchAll(/^Co-authored-by:\s*([^<\n]+?)\s*(?:<[^>]*>)?\s*$/gim)].map((m) => m[1].trim());
}

export function isMergeCommit(title: string): boolean {
  return /^Merge (pull request|branch|remote-tracking branch|tag)\b/.test(title);
}

const TICKET_KEY = '[A-Z][A-Z0-9_]+-\\d+';
const REF = `(?:${TICKET_KEY}|#\\d+)`;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A title rewritten for users: no conventional prefix or scope, no ticket keys or PR references, first
 * letter capitalised, no trailing period (the wording adds its own). Bare key-shaped words are removed only
 * when they are the change's own ticket keys, so "UTF-8" survives.
 */
export function tidyTitle(title: string, ticketKeys: readonly string[] = []): string {
  const header = parseHeader(title);
  let t = header ? header.description : title.trim();
  t = t
    .replace(new RegExp(`\\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?)\\s+${REF}`, 'gi'), '')
    .replace(new RegExp(`[[(]\\s*${REF}(?:\\s*,\\s*${REF})*\\s*[\\])]`, 'g'), '')
    .replace(new RegExp(`^${TICKET_KEY}\\s*:\\s*`), '');
  for (const key of ticketKeys) t = t.replace(new RegExp(`\\s*[:\\-–]?\\s*\\b${escapeRe(key)}\\b`, 'g'), '');
  t = t.replace(/\s+/g, ' ').replace(/[\s.;,:-]+$/, '').replace(/^[\s:-]+/, '').trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const BOT_AUTHOR_RE = /\[bot\]$|^(dependabot|renovate|greenkeeper|snyk-bot|github-actions)\b/i;

export function isBot(author: string | undefined): boolean {
  return author !== undefined && BOT_AUTHOR_RE.test(author.trim());
}
