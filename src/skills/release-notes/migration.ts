/**
 * What users must do about a breaking change, in the words of its commit or pull request: a
 * `BREAKING CHANGE:` footer, a "Migration" (or "Upgrading", "Breaking changes") section or label, or, in a
 * squash merge's commit list, the body of the squashed commit that is this change. Never another squashed
 * commit's words: those are other changes, and their subjects are not guidance. Line by line, so any body
 * size takes linear time.
 */
import { clip, oneSpaced, trimEndOf } from '../text';
import { parseHeader, tidyTitle } from './conventional';

/** A migration note longer than this is cut at a word boundary: the entry links to the full text. */
export const MIGRATION_MAX = 600;

const FOOTER_PREFIXES = ['breaking change:', 'breaking-change:', 'breaking changes:'];
// The token must be upper case (Conventional Commits): `BREAKING CHANGE:`; its value may follow on the next lines.
const SECTION_WORDS = ['migrat', 'upgrad', 'breaking'];
const LABELS = ['migration', 'migration guide', 'migrating', 'how to migrate', 'upgrading', 'upgrade guide', 'how to upgrade'];

/** "- step", "* step", "1. step" → "step"; undefined when the line is not a list item. */
function listItem(line: string): string | undefined {
  const t = line.trimStart();
  if (t.startsWith('- ') || t.startsWith('* ') || t.startsWith('+ ')) return t.slice(2).trim();
  let i = 0;
  while (i < t.length && i < 4 && t[i]! >= '0' && t[i]! <= '9') i++;
  return i > 0 && (t[i] === '.' || t[i] === ')') && t[i + 1] === ' ' ? t.slice(i + 2).trim() : undefined;
}

/** A git trailer ("Co-authored-by: …", "Signed-off-by: …", "Refs: …"): one token of letters and hyphens, then ": ". */
function isTrailer(line: string): boolean {
  const colon = line.indexOf(': ');
  if (colon < 1 || colon > 40) return false;
  for (let i = 0; i < colon; i++) {
    const c = line[i]!;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '-')) return false;
  }
  return true;
}

function headingLevel(line: string): number {
  let i = 0;
  while (line[i] === '#') i++;
  return i > 0 && i <= 6 && line[i] === ' ' ? i : 0;
}

/** Lines as one paragraph: list items become "; "-separated steps. */
function asText(lines: readonly string[]): string | undefined {
  const parts: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length > MIGRATION_MAX) break;
    const item = listItem(line);
    const text = oneSpaced(item ?? line);
    if (!text) continue;
    const last = parts.length - 1;
    if (item !== undefined && last >= 0) {
      parts[last] = trimEndOf(parts[last]!, ':;,.', false);
      parts.push('; ');
    } else if (last >= 0) parts.push(' ');
    parts.push(text);
    length += text.length + 2;
  }
  const flat = parts.join('').trim();
  return flat ? clip(flat, MIGRATION_MAX) : undefined;
}

/** True when `at` starts a line, after spaces or tabs only. */
function startsLine(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i < 0 || text[i] === '\n';
}

/**
 * The value of the first `BREAKING CHANGE:` footer: its line and the lines after it up to a blank line or a
 * trailer. Only the footer and what follows it are read, and no more than a note's worth of it.
 */
export function breakingNote(body: string): string | undefined {
  for (let at = body.indexOf('BREAKING'); at >= 0; at = body.indexOf('BREAKING', at + 8)) {
    if (!startsLine(body, at)) continue;
    const prefix = FOOTER_PREFIXES.find((p) => body.slice(at, at + p.length).toLowerCase() === p);
    if (!prefix) continue;
    const value: string[] = [];
    let size = 0;
    for (let pos = at + prefix.length; pos <= body.length && size <= MIGRATION_MAX;) {
      const nl = body.indexOf('\n', pos);
      const line = body.slice(pos, nl < 0 ? body.length : nl);
      if (value.length > 0 && (line.trim() === '' || isTrailer(line.trim()))) break;
      value.push(line);
      size += line.length;
      if (nl < 0) break;
      pos = nl + 1;
    }
    const note = asText(value);
    if (note) return note;
  }
  return undefined;
}

/** A "## Migration" section (up to the next heading) or a "Migration:" label (up to a blank line). */
function migrationSection(body: string): string | undefined {
  if (!/migrat|upgrad|breaking/i.test(body)) return undefined;
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const level = headingLevel(line);
    if (level > 0 && SECTION_WORDS.some((w) => line.toLowerCase().includes(w))) {
      const content: string[] = [];
      for (let j = i + 1; j < lines.length && headingLevel(lines[j]!.trim()) === 0; j++) content.push(lines[j]!);
      const text = asText(content);
      if (text) return text;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0 && LABELS.includes(line.slice(0, colon).trim().toLowerCase())) {
      const content = [line.slice(colon + 1)];
      for (let j = i + 1; j < lines.length && lines[j]!.trim() !== ''; j++) content.push(lines[j]!);
      const text = asText(content);
      if (text) return text;
    }
  }
  return undefined;
}

/** A squash merge lists its commits; a list longer than this is not read further. */
const SQUASHED_ITEMS_MAX = 100;

interface SquashedCommit {
  subject: string;
  body: string[];
}

/**
 * A squash merge's message as GitHub writes it ("* feat!: subject", its body, "* next subject", …): the text
 * before the first item, and the items. Undefined when no line starts a conventional commit's "* " item.
 */
function squashedCommits(body: string): { preface: string; commits: SquashedCommit[] } | undefined {
  if (!body.includes('* ')) return undefined;
  const preface: string[] = [];
  const commits: SquashedCommit[] = [];
  let conventional = false;
  for (const line of body.split('\n')) {
    if (line.startsWith('* ') && commits.length < SQUASHED_ITEMS_MAX) {
      const subject = line.slice(2).trim();
      conventional ||= parseHeader(subject) !== undefined;
      commits.push({ subject, body: [] });
    } else if (commits.length > 0) commits[commits.length - 1]!.body.push(line);
    else preface.push(line);
  }
  return conventional ? { preface: preface.join('\n'), commits } : undefined;
}

/** The squashed commit's own words: its `BREAKING CHANGE:` footer, else its body without trailers. */
function ownBody(commit: SquashedCommit): string | undefined {
  const text = commit.body.join('\n');
  return breakingNote(text) ?? asText(commit.body.filter((l) => !isTrailer(l.trim())));
}

/** What the document says users must do about its breaking change, if it says anything. */
export function migrationNote(doc: { title: string; body: string }): string | undefined {
  const squash = squashedCommits(doc.body);
  if (!squash) return breakingNote(doc.body) ?? migrationSection(doc.body);
  const own = tidyTitle(doc.title).toLowerCase();
  const mine = squash.commits.find((c) => tidyTitle(c.subject).toLowerCase() === own);
  return breakingNote(squash.preface) ?? migrationSection(squash.preface) ?? (mine ? ownBody(mine) : undefined);
}
