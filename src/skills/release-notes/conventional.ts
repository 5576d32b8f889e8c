/**
 * Reading commit messages and pull-request titles written with Conventional Commits, and tidying them for
 * users. Every function here scans its input once (no backtracking regular expressions over the whole text),
 * so a title or body of any allowed size takes time proportional to its length.
 */
import { loginOfEmail } from '../forge';
import { gitmojiHeader } from './gitmoji';
import { capitalize, oneSpaced, trimEndOf, trimStartOf } from '../text';

export interface ConventionalHeader {
  type: string;
  scope?: string;
  /** The "!" after type or scope. */
  breaking: boolean;
  description: string;
}

const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));

/** "type(scope)!: description" → its parts; undefined for any other title. */
export function parseHeader(title: string): ConventionalHeader | undefined {
  const t = title.trim();
  let i = 0;
  while (isLetter(t[i])) i++;
  if (i === 0) return undefined;
  const type = t.slice(0, i).toLowerCase();
  let scope: string | undefined;
  if (t[i] === '(') {
    const close = t.indexOf(')', i + 1);
    if (close < 0) return undefined;
    scope = t.slice(i + 1, close).trim() || undefined;
    i = close + 1;
  }
  const breaking = t[i] === '!';
  if (breaking) i++;
  if (t[i] !== ':') return undefined;
  const description = t.slice(i + 1).trim();
  if (description === '' || description.includes('\n')) return undefined;
  return { type, scope, breaking, description };
}

/** A merge: git's own subjects ("Merge branch …", "Merge pull request #N …") and merges written by hand ("Merge from develop", "Merge main into release/15.x"). */
export function isMergeCommit(title: string): boolean {
  return (
    /^Merge (pull request|branch|remote-tracking branch|tag)\b/.test(title) || /^Merge (from|[\w./-]{1,100} (into|to)) \S/i.test(title)
  );
}

/** GitHub's merge commit of a pull request: "Merge pull request #N from org/branch", the PR's title on the next line. */
export function isPrMerge(title: string): boolean {
  return /^Merge pull request #[1-9]/.test(title);
}

/** What a revert commit undoes: the reverted subject, and the reverted commit's sha when its body names it. */
export interface Revert {
  title: string;
  sha?: string;
}

const REVERT_QUOTED = 'Revert "';
/** Nested reverts looked through at most (a revert of a revert applies the change again). */
const REVERT_DEPTH = 10;
const REVERTS_COMMIT = /^This reverts commit ([0-9a-fA-F]{7,64})\b/m;

/**
 * A revert, as git writes one (`Revert "feat: dark mode"`, body "This reverts commit <sha>.") or as
 * Conventional Commits do (`revert: dark mode`); undefined for any other title, and for a revert of a revert
 * (which applies the change again: classified by its own words).
 */
export function revertOf(title: string, body = ''): Revert | undefined {
  // A squash merge appends its pull request: `Revert "feat: dark mode" (#12)`.
  let t = title.trim().replace(/ \(#[1-9]\d{0,8}\)$/, '');
  let depth = 0;
  while (depth < REVERT_DEPTH && t.startsWith(REVERT_QUOTED) && t.endsWith('"')) {
    t = t.slice(REVERT_QUOTED.length, -1).trim();
    depth++;
  }
  if (depth === 0) {
    const header = parseHeader(t);
    if (header?.type !== 'revert') return undefined;
    t = header.description;
    depth = 1;
  }
  if (depth % 2 === 0) return undefined;
  const sha = REVERTS_COMMIT.exec(body.slice(0, 20_000))?.[1]?.toLowerCase();
  return { title: t, ...(sha ? { sha } : {}) };
}

/** A `Co-authored-by:` trailer: the name, and the email when one is given. */
export interface CoAuthor {
  name: string;
  email?: string;
}

/** More co-authors than this on one commit are not credited (a bound, not a policy). */
const CO_AUTHORS_MAX = 20;
const CO_AUTHOR_TRAILER = 'co-authored-by:';

/** People named in `Co-authored-by:` trailers, one per line. */
export function coAuthors(body: string): CoAuthor[] {
  const out: CoAuthor[] = [];
  if (!/co-authored-by:/i.test(body)) return out;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.length <= CO_AUTHOR_TRAILER.length || line.slice(0, CO_AUTHOR_TRAILER.length).toLowerCase() !== CO_AUTHOR_TRAILER) continue;
    const value = line.slice(CO_AUTHOR_TRAILER.length);
    const lt = value.indexOf('<');
    if (lt < 0 && value.includes('@')) {
      // An address alone: a GitHub no-reply address names its account; any other has no name to show, and an
      // address is not published in release notes.
      const login = loginOfEmail(value);
      if (login) out.push({ name: login, email: value.trim() });
      if (out.length >= CO_AUTHORS_MAX) break;
      continue;
    }
    const name = (lt < 0 ? value : value.slice(0, lt)).trim();
    if (!name) continue;
    const gt = lt < 0 ? -1 : value.indexOf('>', lt);
    const email = lt < 0 ? undefined : value.slice(lt + 1, gt < 0 ? undefined : gt).trim() || undefined;
    out.push({ name, ...(email ? { email } : {}) });
    if (out.length >= CO_AUTHORS_MAX) break;
  }
  return out;
}

/**
 * Which key-shaped words ("WEB-12") of a title are the project's ticket references, and may be removed from
 * the prose. Anything else that looks like a key ("AIP-193", "UTF-8", "ISO-8601") is a word of the title.
 */
export interface TicketKeys {
  /** Keys the change's documents name (ticketKeys, ticket documents): removed where references stand. */
  own: readonly string[];
  /** Prefixes of the project's ticket documents ("WEB"): such keys are removed wherever they stand. */
  trackerPrefixes?: ReadonlySet<string>;
}

const KEY_RE = /^[A-Z][A-Z0-9_]+-[0-9]+$/;
const ISSUE_RE = /^#[1-9][0-9]{0,8}$/;
const CLOSING_WORDS = new Set(['fix', 'fixes', 'fixed', 'close', 'closes', 'closed', 'resolve', 'resolves', 'resolved', 'ref', 'refs']);
const SEPARATORS = new Set(['-', ':', '–', '—', '|']);

const prefixOf = (key: string) => key.slice(0, key.lastIndexOf('-'));

type RefKind = 'issue' | 'anywhere' | 'reference';

function refKind(word: string, keys: TicketKeys, ownPrefixes: ReadonlySet<string>): RefKind | undefined {
  if (ISSUE_RE.test(word)) return 'issue';
  if (word.length > 60 || !KEY_RE.test(word)) return undefined;
  const prefix = prefixOf(word);
  if (keys.trackerPrefixes?.has(prefix)) return 'anywhere';
  return keys.own.includes(word) || ownPrefixes.has(prefix) ? 'reference' : undefined;
}

/** Removes "(#12)", "[WEB-7]", "(WEB-1, #2)" groups whose every item is a removable reference. */
function withoutReferenceGroups(text: string, isRef: (word: string) => boolean): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text[i]!;
    if (open !== '(' && open !== '[') {
      out += open;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && text[j] !== ')' && text[j] !== ']' && text[j] !== '(' && text[j] !== '[') j++;
    const closed = j < text.length && (text[j] === ')' || text[j] === ']');
    const items = closed
      ? text
          .slice(i + 1, j)
          .split(/[\s,]+/)
          .filter(Boolean)
      : [];
    if (items.length > 0 && items.every(isRef)) {
      out += ' ';
      i = j + 1;
    } else {
      out += open;
      i++;
    }
  }
  return out;
}

/** A first word that reads as code or a name (`prefer-template`, `npm`, `getUser`, `v2`) keeps its case. */
function keepsCase(word: string): boolean {
  return /[-_./@$#`0-9]/.test(word) || /[a-z][A-Z]/.test(word);
}

/**
 * A title rewritten for users: no conventional prefix or scope (nor a gitmoji), no PR references, no ticket keys of the
 * project (see TicketKeys), first letter capitalised unless the title starts with code, no trailing period
 * (the wording adds its own).
 */
export function tidyTitle(title: string, keys: TicketKeys = { own: [] }): string {
  const header = parseHeader(title) ?? gitmojiHeader(title);
  const ownPrefixes = new Set(keys.own.map(prefixOf));
  const kindOf = (word: string) => refKind(trimEndOf(word, ':,;.', false), keys, ownPrefixes);
  const removable = (word: string) => kindOf(word) !== undefined;

  const text = withoutReferenceGroups(header ? header.description : title.trim(), removable);
  let words = oneSpaced(text).split(' ').filter(Boolean);
  // "fixes #45", "closes WEB-4"; then the project's keys wherever they stand.
  words = words.filter((w, i) => {
    const closing = CLOSING_WORDS.has(trimEndOf(w, ':', false).toLowerCase()) && i + 1 < words.length && removable(words[i + 1]!);
    const closed = i > 0 && CLOSING_WORDS.has(trimEndOf(words[i - 1]!, ':', false).toLowerCase()) && removable(w);
    return !closing && !closed && kindOf(w) !== 'anywhere';
  });
  // References that open or close the title: "WEB-3: …", "… WEB-7", "#12 …".
  for (let changed = true; changed && words.length > 0;) {
    changed = false;
    if (removable(words[0]!)) {
      words.shift();
      if (words.length > 0 && SEPARATORS.has(words[0]!)) words.shift();
      changed = true;
    }
    if (words.length > 0 && removable(words[words.length - 1]!)) {
      words.pop();
      if (words.length > 0 && SEPARATORS.has(words[words.length - 1]!)) words.pop();
      changed = true;
    }
  }
  const t = trimStartOf(trimEndOf(words.join(' '), '.;,:-'), ':-');
  return keepsCase(t.split(' ')[0] ?? '') ? t : capitalize(t);
}
