/**
 * References in commit messages. Pure.
 *   prNumber    "Merge pull request #123 from ..." (a merge commit), else the last "(#123)" of the subject
 *               (a squash merge appends it; a revert of a squash merge carries both, its own last).
 *   ticketKeys  Jira-style keys "ABC-12", and GitHub closing keywords "fixes #45" as "<issuePrefix>-45".
 */

export interface RefOptions {
  /** Key prefix for "fixes #45"-style issue references (GitHub issues have no project key). */
  issuePrefix: string;
  /** When given, only keys with these prefixes count (the project's Jira keys). */
  ticketPrefixes?: readonly string[];
}

export const DEFAULT_REF_OPTIONS: RefOptions = { issuePrefix: 'GH' };

/** Uppercase words followed by a number that name standards and encodings, not tickets ("UTF-8", "SHA-256"). */
const NOT_TICKETS = new Set(['UTF', 'ISO', 'RFC', 'SHA', 'MD', 'CVE', 'CWE', 'GHSA', 'HTTP', 'TLS', 'SSL', 'AES', 'RSA', 'PEP', 'ES', 'ECMA', 'WCAG', 'IEEE', 'ANSI', 'CP', 'GPL', 'LGPL', 'AGPL', 'WIN', 'IPV', 'OS']);

const TICKET_KEY = /(?<![A-Za-z0-9_-])([A-Z][A-Z0-9]{1,9})-([1-9]\d{0,8})(?![A-Za-z0-9_]|-\d)/g;
const CLOSING_REF = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+#([1-9]\d{0,8})\b/gi;
const MERGE_PR = /^Merge pull request #([1-9]\d{0,8})\b/;
const SQUASH_PR = /\(#([1-9]\d{0,8})\)/g;

export function prNumberOf(subject: string): number | undefined {
  const merge = MERGE_PR.exec(subject);
  if (merge) return Number(merge[1]);
  const squash = [...subject.matchAll(SQUASH_PR)].pop();
  return squash ? Number(squash[1]) : undefined;
}

/** Ticket keys in order of first mention, each once. */
export function ticketKeysOf(text: string, options: RefOptions = DEFAULT_REF_OPTIONS): string[] {
  const found: { at: number; key: string }[] = [];
  for (const m of text.matchAll(TICKET_KEY)) {
    const prefix = m[1];
    const allowed = options.ticketPrefixes ? options.ticketPrefixes.includes(prefix) : !NOT_TICKETS.has(prefix);
    if (allowed) found.push({ at: m.index, key: `${prefix}-${m[2]}` });
  }
  for (const m of text.matchAll(CLOSING_REF)) found.push({ at: m.index, key: `${options.issuePrefix}-${m[1]}` });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.key))];
}
