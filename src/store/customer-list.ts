/**
 * The console's customer list: what a subscriber record keeps so that every filter and sort the list offers is
 * served by an index (never a collection scan, never an in-memory sort of an unbounded set), and the queries.
 *
 * Filters are kept as one array of facets ("status:active", "store:APP_STORE", ...), so one multikey index per
 * sort key serves any filter: the first facet asked for bounds the scan, the others are checked on the way, and
 * the index keeps the sort order. Every unmerged record holds the facet "all", which is what an unfiltered list
 * asks for.
 */
import type { Filter, IndexDescription } from 'mongodb';
import type { CanonicalView } from '../billing/canonical-view';
import type { BillingScope } from '../billing/subscriber-id';

/** The facet every record holds: the unfiltered list. */
export const ALL_FACET = 'all';

/**
 * The customer states the list filters by, as the records have them: the subscriber's own status (`active`,
 * `cancelled` = access until the period ends, then a downgrade; `expired`; `none`), `trial` (entitled by a
 * subscription in its trial period; such a customer is also active or cancelled), `billing_issue` (flagged) and
 * `refunded` (a subscription of it was refunded and not bought again).
 */
export const CUSTOMER_STATUSES = ['active', 'trial', 'cancelled', 'billing_issue', 'refunded', 'expired', 'none'] as const;
export type CustomerStatusFilter = (typeof CUSTOMER_STATUSES)[number];

/** The provider's environments. */
export const CUSTOMER_ENVIRONMENTS = ['PRODUCTION', 'SANDBOX'] as const;

/** A store as the provider spells it (APP_STORE, PLAY_STORE, STRIPE, ...): new ones appear without notice. */
export const STORE_PATTERN = '^[A-Z][A-Z0-9_]{0,31}$';
const STORE_RE = new RegExp(STORE_PATTERN);

/** `-` in front: descending. Each is (key, _id) in the index, so a cursor is the last row's pair. */
export const CUSTOMER_SORTS = ['id', '-id', 'mrr', '-mrr', 'lastEvent', '-lastEvent'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
const SORT_FIELDS = { id: '_id', mrr: 'mrrMicros', lastEvent: 'lastEventAtMs' } as const;

/** A product id a filter may name (the provider's ids are far shorter). */
export const PRODUCT_MAX_LENGTH = 200;

/** The list's keys a record keeps next to its view. */
export interface CustomerListKeys {
  facets: string[];
  /** Every id of the customer in lower case: the search finds a customer by any id, whatever the case. */
  aliasesLower: string[];
  /** The MRR contribution (integer micro-dollars per month). */
  mrrMicros: number;
  /** The last applied event's provider time; 0 when none (older than any event). */
  lastEventAtMs: number;
}

/** Pure: the list keys of a record's canonical view. A merged record is never listed and keeps no facet. */
export function customerListKeys(view: CanonicalView): CustomerListKeys {
  const facets = new Set<string>();
  if (view.mergedInto === null) {
    facets.add(ALL_FACET);
    facets.add(`status:${view.status}`);
    facets.add(`flagged:${view.flags.length > 0}`);
    for (const s of view.subscriptions) {
      // Only values a filter can name are indexed: a malformed store from an event is not a filter.
      if (s.store && STORE_RE.test(s.store)) facets.add(`store:${s.store}`);
      if (s.environment && (CUSTOMER_ENVIRONMENTS as readonly string[]).includes(s.environment)) facets.add(`environment:${s.environment}`);
      if (s.periodType === 'TRIAL' && (s.status === 'active' || s.status === 'cancelled')) facets.add('trial');
      if (s.productId && s.productId.length <= PRODUCT_MAX_LENGTH) facets.add(`product:${s.productId}`);
      if (s.status === 'refunded') facets.add('refunded');
    }
  }
  return {
    facets: [...facets].sort(),
    aliasesLower: view.mergedInto === null ? [...new Set(view.aliases.map((a) => a.toLowerCase()))] : [],
    mrrMicros: view.mrrContributionMicros,
    lastEventAtMs: view.lastEvent?.atMs ?? 0,
  };
}

export interface CustomerListQuery {
  status?: CustomerStatusFilter;
  /** The existing `flagged` filter: true = billing issue, false = none. */
  flagged?: boolean;
  store?: string;
  environment?: string;
  /** A product one of the customer's subscriptions is of. */
  product?: string;
  /** Customer id prefix (case-sensitive). Lists in id order only (see the route). */
  idPrefix?: string;
  sort: CustomerSort;
  limit: number;
  /** The last row of the previous page: its sort key (absent for the id sorts) and its _id. */
  after?: { key?: number; id: string };
}

/** The facets a query asks for; "all" when it filters by none. */
export function facetsOf(q: Pick<CustomerListQuery, 'status' | 'flagged' | 'store' | 'environment' | 'product'>): string[] {
  const facets: string[] = [];
  if (q.status === 'billing_issue') facets.push('flagged:true');
  else if (q.status === 'trial' || q.status === 'refunded') facets.push(q.status);
  else if (q.status) facets.push(`status:${q.status}`);
  if (q.flagged !== undefined) facets.push(`flagged:${q.flagged}`);
  if (q.store) facets.push(`store:${q.store}`);
  if (q.environment) facets.push(`environment:${q.environment}`);
  if (q.product) facets.push(`product:${q.product}`);
  return facets.length > 0 ? [...new Set(facets)] : [ALL_FACET];
}

export function sortOf(sort: CustomerSort): { field: '_id' | 'mrrMicros' | 'lastEventAtMs'; dir: 1 | -1 } {
  const desc = sort.startsWith('-');
  return { field: SORT_FIELDS[(desc ? sort.slice(1) : sort) as keyof typeof SORT_FIELDS], dir: desc ? -1 : 1 };
}

// Above every code point a string can continue with: `${prefix}${MAX_CHAR}` bounds the ids starting with prefix.
const MAX_CHAR = '\u{10FFFF}';

/** The filter, sort and limit of one page. */
export function customerListQuery<T>(scope: BillingScope, key: (id: string) => string, q: CustomerListQuery) {
  const facets = facetsOf(q);
  const { field, dir } = sortOf(q.sort);
  const filter: Record<string, unknown> = { scope, mergedInto: null };
  // One facet is an equality the index bounds; more are all required (the planner bounds one, checks the rest).
  filter.facets = facets.length === 1 ? facets[0] : { $all: facets };
  const idRange: Record<string, string> = {};
  if (q.idPrefix !== undefined) {
    idRange.$gte = key(q.idPrefix);
    idRange.$lt = key(q.idPrefix + MAX_CHAR);
  }
  const beyond = dir === 1 ? '$gt' : '$lt';
  if (q.after && field === '_id') {
    // Descending within a prefix: the nearer of the two upper bounds, compared as the store does (UTF-8 bytes).
    if (beyond === '$lt' && idRange.$lt !== undefined)
      idRange.$lt = Buffer.compare(Buffer.from(q.after.id), Buffer.from(idRange.$lt)) < 0 ? q.after.id : idRange.$lt;
    else idRange[beyond] = q.after.id;
  }
  if (Object.keys(idRange).length > 0) filter._id = idRange;
  if (q.after && field !== '_id') {
    // The range seeks the index to the cursor; the $or then drops the ties already shown.
    filter[field] = { [dir === 1 ? '$gte' : '$lte']: q.after.key };
    filter.$or = [{ [field]: { [beyond]: q.after.key } }, { [field]: q.after.key, _id: { [beyond]: q.after.id } }];
  }
  const sort: Record<string, 1 | -1> = field === '_id' ? { _id: dir } : { [field]: dir, _id: dir };
  return { filter: filter as Filter<T>, sort, limit: q.limit };
}

/** One index per sort key; each serves every filter (see the top of this file). */
export const CUSTOMER_LIST_INDEXES: IndexDescription[] = [
  { key: { scope: 1, mergedInto: 1, facets: 1, _id: 1 }, name: 'customers_by_id' },
  { key: { scope: 1, mergedInto: 1, facets: 1, mrrMicros: 1, _id: 1 }, name: 'customers_by_mrr' },
  { key: { scope: 1, mergedInto: 1, facets: 1, lastEventAtMs: 1, _id: 1 }, name: 'customers_by_last_event' },
];
