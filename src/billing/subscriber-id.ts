/** Which subscriber record an event belongs to, and the Temporal workflow id of that record. Pure. */
import type { BillingEvent } from './provider-events';

/** `operator` for the service's own subscriptions, `app:{slug}` for a customer app's subscribers. */
export type BillingScope = 'operator' | `app:${string}`;

export function appScope(slug: string): BillingScope {
  return `app:${slug}`;
}

export interface SubscriberIds {
  /** The record the event is applied to. */
  primary: string;
  /** Every id the event names for that subscriber: primary first, then in lookup order, without repeats. */
  all: string[];
}

/**
 * Every id the event names for one customer: `original_app_user_id`, then `app_user_id`, then `aliases`; a
 * TRANSFER has none of those and names `transferred_to` (the provider lists every id of the destination
 * customer there), then the sources `transferred_from`, since a transfer merges the sources into the
 * destination. The primary record is the smallest of those ids (code-unit order): the record that stays
 * canonical when they are merged (subscriber-state.ts's mergeInto), so the event reaches it without a forward.
 * Null when the event names nobody (e.g. a TEST event, or a TRANSFER without a destination).
 */
export function resolveSubscriberIds(event: BillingEvent): SubscriberIds | null {
  const named =
    event.type === 'TRANSFER'
      ? unique([...nonEmpty(event.transferred_to), ...nonEmpty(event.transferred_from)])
      : unique([...nonEmpty([event.original_app_user_id, event.app_user_id]), ...nonEmpty(event.aliases)]);
  // A transfer to nobody moves nothing.
  if (named.length === 0 || (event.type === 'TRANSFER' && nonEmpty(event.transferred_to).length === 0)) return null;
  const primary = named.reduce((min, id) => (id < min ? id : min));
  return { primary, all: [primary, ...named.filter((id) => id !== primary)] };
}

/** `billing/{scope}/{subscriberId}`, with the subscriber id made safe by `workflowIdSegment`. */
export function workflowIdFor(scope: BillingScope, subscriberId: string): string {
  return `billing/${scope}/${workflowIdSegment(subscriberId)}`;
}

// Kept verbatim: readable ids such as `$RCAnonymousID:8069238d`, `user_42`, `ada@example.com`, `a+b=c~d`.
const SAFE_CHAR = /^[A-Za-z0-9$:._@+=~-]$/;
// Temporal refuses workflow ids over 1,000 bytes; an overlong id would fail every delivery for that subscriber.
const MAX_SEGMENT_LENGTH = 200;
const HASH_LENGTH = 16;
// `%` never appears unescaped in an encoded id, and `~` is not a hex digit: this marker cannot collide.
const TRUNCATION_MARKER = '%~';

/**
 * Percent-encodes (UTF-8) every character outside a conservative safe set, so that `/` cannot fake a path
 * segment and spaces, quotes, `?`, `#` or `%` cannot break Temporal UI links and visibility queries; `%` itself
 * is encoded, so the mapping is injective. An id whose encoding exceeds 200 characters keeps a readable prefix
 * followed by `%~` and a 64-bit FNV-1a hash of the whole id.
 */
export function workflowIdSegment(subscriberId: string): string {
  const tokens = [...subscriberId].map((char) => (SAFE_CHAR.test(char) ? char : percentEncode(char)));
  const encoded = tokens.join('');
  if (encoded.length <= MAX_SEGMENT_LENGTH) return encoded;
  const budget = MAX_SEGMENT_LENGTH - TRUNCATION_MARKER.length - HASH_LENGTH;
  let prefix = '';
  for (const token of tokens) {
    if (prefix.length + token.length > budget) break;
    prefix += token;
  }
  return `${prefix}${TRUNCATION_MARKER}${fnv1a64(subscriberId)}`;
}

function nonEmpty(values: readonly (string | null | undefined)[] | null | undefined): string[] {
  return (values ?? []).filter((value): value is string => typeof value === 'string' && value.length > 0);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function percentEncode(char: string): string {
  return utf8Bytes(char.codePointAt(0) ?? 0)
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

// Written out rather than TextEncoder, which replaces lone surrogates and so would map two ids to one.
function utf8Bytes(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) {
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  }
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
}

/** A 64-bit FNV-1a digest of the UTF-16 code units, as 16 hex digits. */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(HASH_LENGTH, '0');
}
