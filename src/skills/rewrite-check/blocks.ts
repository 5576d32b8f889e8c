/**
 * A section read as blocks (list items, numbered steps, table rows, headings, paragraphs) and each block as
 * claims: the text before a group of citation markers is a claim citing that group; text after a block's last
 * group is uncited. One pass over the text per function, no backtracking: model text is untrusted.
 */
import { citationMarkers, startsBlockLine } from '../markdown';

export type BlockKind = 'item' | 'step' | 'row' | 'heading' | 'para';

export interface Claim {
  /** The citation ids of the marker group that closes it, sorted and space-separated; '' when uncited. */
  signature: string;
  /** Its text without markers. */
  text: string;
}

export interface Block {
  kind: BlockKind;
  /** Every citation id in the block, sorted and space-separated: how an entry of the rewrite meets the draft's. */
  signature: string;
  /** The block's text without its citation markers. */
  text: string;
  claims: Claim[];
  /** Text standing between two markers of one group (a comma, "and"): it would show as stray text. */
  strayBetweenMarkers: string[];
}

function kindOf(line: string): BlockKind {
  const t = line.trimStart();
  if (t.startsWith('|')) return 'row';
  if (t.startsWith('#')) return 'heading';
  if (t.startsWith('- ') || t.startsWith('* ') || t.startsWith('+ ')) return 'item';
  return startsBlockLine(t) ? 'step' : 'para';
}

/** Separators a model puts between markers that are not whitespace: they render as stray text. */
const STRAY = /^(?:[,;&]|and)$/i;

function claimsOf(raw: string): Pick<Block, 'claims' | 'strayBetweenMarkers' | 'text' | 'signature'> {
  const markers = citationMarkers(raw);
  const claims: Claim[] = [];
  const stray: string[] = [];
  let text = '';
  let claimText = '';
  let group: string[] = [];
  let at = 0;
  const close = () => {
    if (group.length) claims.push({ signature: [...new Set(group)].sort().join(' '), text: claimText });
    else if (claimText.trim()) claims.push({ signature: '', text: claimText });
    group = [];
    claimText = '';
  };
  for (const m of markers) {
    const between = raw.slice(at, m.start);
    if (group.length && between.trim() === '') {
      // Same group: markers separated by whitespace.
    } else if (group.length && STRAY.test(between.trim())) {
      stray.push(raw.slice(Math.max(0, at - 40), m.end));
    } else {
      close();
      claimText = between;
      text += between;
    }
    group.push(m.id);
    at = m.end;
  }
  close();
  const tail = raw.slice(at);
  if (tail.trim()) claims.push({ signature: '', text: tail });
  text += tail;
  return {
    claims,
    strayBetweenMarkers: stray,
    text,
    signature: [...new Set(markers.map((m) => m.id))].sort().join(' '),
  };
}

export function blocksOf(markdown: string): Block[] {
  const raw: string[] = [];
  let current: string[] = [];
  // A table row or a heading is a block of one line.
  let single = false;
  const flush = () => {
    if (current.length) raw.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.trim() === '') flush();
    else {
      if (startsBlockLine(line) || single) flush();
      const t = line.trimStart();
      single = t.startsWith('|') || t.startsWith('#');
      current.push(line);
    }
  }
  flush();
  return raw.map((text) => ({ kind: kindOf(text), ...claimsOf(text) }));
}

/** A table's header or separator row: layout, not a claim. */
export const isTableLayout = (b: Block) => b.kind === 'row' && b.signature === '';
