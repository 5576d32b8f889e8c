/**
 * The billing provider's webhook envelope (the shape of RevenueCat's webhooks; docs/billing.md
 * lists what each type does here): its types, the
 * list of event types, which of them change state, and the JSON Schema the receivers validate with.
 * Pure and workflow-safe.
 */

/** Every type the provider documents. Others may appear at any time and are accepted as well. */
export const KNOWN_EVENT_TYPES = [
  'TEST',
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'NON_RENEWING_PURCHASE',
  'SUBSCRIPTION_PAUSED',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
  'TRANSFER',
  'SUBSCRIBER_ALIAS',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'REFUND_REVERSED',
  'INVOICE_ISSUANCE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'EXPERIMENT_ENROLLMENT',
] as const;
export type KnownEventType = (typeof KNOWN_EVENT_TYPES)[number];

/**
 * Store- and dashboard-initiated changes of access: a period extended, a refund reversed, a one-time purchase or
 * a grant from the provider's dashboard, a temporary entitlement during a store outage. Runs recorded before they
 * had effects keep recording them only (see `RuleSet`).
 */
export const GRANT_EVENT_TYPES = [
  'NON_RENEWING_PURCHASE',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'REFUND_REVERSED',
] as const;

/**
 * The types with a rule in the effects table. Every other type, known or not (PRODUCT_CHANGE, whose new product
 * arrives with the RENEWAL or INITIAL_PURCHASE that carries it; INVOICE_ISSUANCE, ...), is acknowledged and
 * recorded as the last event, and teaches the ids it names (rules v3). SUBSCRIPTION_PAUSED has its effect under
 * rules v3 only.
 */
export const EFFECT_EVENT_TYPES = [
  'INITIAL_PURCHASE',
  'RENEWAL',
  'UNCANCELLATION',
  'CANCELLATION',
  'EXPIRATION',
  'BILLING_ISSUE',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIBER_ALIAS',
  'TRANSFER',
  ...GRANT_EVENT_TYPES,
] as const;
export type EffectEventType = (typeof EFFECT_EVENT_TYPES)[number];

/**
 * The rules a subscriber run applies. `v3` (runs under the workflow's `work-v4` patch): every event teaches the ids
 * it names, whatever its type; SUBSCRIPTION_PAUSED schedules the downgrade for the period end; a period's price,
 * product and length come from the newest purchase or renewal (see subscription.ts's `paid`); a billing-issue flag
 * ends when its subscription expires or is bought again. `v2` (runs under `work-v2` or `work-v3`): the grant types
 * have effects, and a provider time far ahead of the receipt orders by the receipt (event-time.ts). `v1`: neither,
 * for runs recorded before (replay must reproduce what they did).
 */
export type RuleSet = 'v1' | 'v2' | 'v3';

/** The rules new runs apply. */
export const CURRENT_RULES: RuleSet = 'v3';

export interface SubscriberAttribute {
  value: string;
  updated_at_ms: number;
  [member: string]: unknown;
}

/**
 * One provider event. Only `id` and `type` are guaranteed; every other member may be absent or null, and
 * members not listed here are kept as they came.
 */
export interface BillingEvent {
  /** Unique; a retry keeps the same id and event_timestamp_ms. */
  id: string;
  type: string;
  app_id?: string | null;
  event_timestamp_ms?: number | null;
  /** Absent on TRANSFER. */
  app_user_id?: string | null;
  original_app_user_id?: string | null;
  /** Every id the subscriber has used. */
  aliases?: string[] | null;
  subscriber_attributes?: Record<string, SubscriberAttribute> | null;
  /** SANDBOX | PRODUCTION */
  environment?: string | null;
  product_id?: string | null;
  entitlement_ids?: string[] | null;
  /** Deprecated upstream: read only when entitlement_ids is absent. */
  entitlement_id?: string | null;
  /** TRIAL | INTRO | NORMAL | PROMOTIONAL | PREPAID */
  period_type?: string | null;
  purchased_at_ms?: number | null;
  /** Null for purchases that are not subscriptions. */
  expiration_at_ms?: number | null;
  store?: string | null;
  /** USD; 0 for trials, negative for refunds. */
  price?: number | null;
  currency?: string | null;
  price_in_purchased_currency?: number | null;
  transaction_id?: string | null;
  original_transaction_id?: string | null;
  is_family_share?: boolean | null;
  country_code?: string | null;
  renewal_number?: number | null;
  /** CANCELLATION: UNSUBSCRIBE | BILLING_ERROR | DEVELOPER_INITIATED | PRICE_INCREASE | CUSTOMER_SUPPORT | UNKNOWN */
  cancel_reason?: string | null;
  /** EXPIRATION: the cancel reasons plus SUBSCRIPTION_PAUSED */
  expiration_reason?: string | null;
  grace_period_expiration_at_ms?: number | null;
  is_trial_conversion?: boolean | null;
  transferred_from?: string[] | null;
  transferred_to?: string[] | null;
  new_product_id?: string | null;
  [member: string]: unknown;
}

export interface BillingEnvelope {
  api_version?: string;
  event: BillingEvent;
  [member: string]: unknown;
}

/**
 * The members of an event the service acts on: every documented member except `subscriber_attributes`. What
 * travels to a subscriber workflow is the event cut down to these (`reducerEvent`), so an event padded with
 * attributes or unknown members costs the workflow nothing; the whole body stays in the inbox.
 */
const ACTED_ON_MEMBERS = [
  'id',
  'type',
  'app_id',
  'event_timestamp_ms',
  'app_user_id',
  'original_app_user_id',
  'aliases',
  'environment',
  'product_id',
  'entitlement_ids',
  'entitlement_id',
  'period_type',
  'purchased_at_ms',
  'expiration_at_ms',
  'store',
  'price',
  'currency',
  'price_in_purchased_currency',
  'transaction_id',
  'original_transaction_id',
  'is_family_share',
  'country_code',
  'renewal_number',
  'cancel_reason',
  'expiration_reason',
  'grace_period_expiration_at_ms',
  'is_trial_conversion',
  'transferred_from',
  'transferred_to',
  'new_product_id',
] as const;

/** The event with only the members the service acts on (ACTED_ON_MEMBERS), in their documented order. */
export function reducerEvent(event: BillingEvent): BillingEvent {
  const cut: Record<string, unknown> = {};
  for (const member of ACTED_ON_MEMBERS) if (event[member] !== undefined) cut[member] = event[member];
  return cut as BillingEvent;
}

export function isKnownEventType(type: string): type is KnownEventType {
  return (KNOWN_EVENT_TYPES as readonly string[]).includes(type);
}

export function hasEffect(type: string, rules: RuleSet = CURRENT_RULES): boolean {
  if (rules === 'v1' && (GRANT_EVENT_TYPES as readonly string[]).includes(type)) return false;
  if (type === 'SUBSCRIPTION_PAUSED' && rules !== 'v3') return false;
  return (EFFECT_EVENT_TYPES as readonly string[]).includes(type);
}

/** A refund ends access at once instead of at the period end. */
export function isRefund(event: BillingEvent): boolean {
  if (event.type !== 'CANCELLATION' && event.type !== 'EXPIRATION') return false;
  const reason = event.type === 'CANCELLATION' ? event.cancel_reason : event.expiration_reason;
  return reason === 'CUSTOMER_SUPPORT' || (typeof event.price === 'number' && event.price < 0);
}

type Schema = { [keyword: string]: unknown };

// The provider sends null for absent values, so every optional member accepts null. `anyOf` rather than a type
// array keeps the schema valid under ajv's `strict: true` (which refuses union types by default).
const orNull = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const members = (names: readonly string[], schema: Schema): [string, Schema][] => names.map((name) => [name, orNull(schema)]);

/**
 * Bounds on what one event may carry. A subscriber id ends up in a workflow id and a search attribute
 * (Temporal refuses values over 2 KB), so ids are capped well below; lists are capped so one event cannot
 * fan out into thousands of merges. The provider's real values are far inside these.
 */
export const EVENT_LIMITS = { idLength: 512, textLength: 1024, ids: 100, entitlements: 50 } as const;
/** Timestamps from 1970 to the end of year 9999: every one converts to a date. */
export const MAX_TIMESTAMP_MS = 253_402_300_799_999;

const SUBSCRIBER_ID_MEMBERS = ['app_user_id', 'original_app_user_id'] as const;
const STRING_MEMBERS = [
  'app_id',
  'environment',
  'product_id',
  'entitlement_id',
  'period_type',
  'store',
  'currency',
  'transaction_id',
  'original_transaction_id',
  'country_code',
  'cancel_reason',
  'expiration_reason',
  'new_product_id',
] as const;
const TIMESTAMP_MEMBERS = ['event_timestamp_ms', 'purchased_at_ms', 'expiration_at_ms', 'grace_period_expiration_at_ms'] as const;
const NUMBER_MEMBERS = ['price', 'price_in_purchased_currency', 'renewal_number'] as const;
const BOOLEAN_MEMBERS = ['is_family_share', 'is_trial_conversion'] as const;
const SUBSCRIBER_LIST_MEMBERS = ['aliases', 'transferred_from', 'transferred_to'] as const;

/**
 * JSON Schema (draft 2020-12, for ajv 8's `Ajv2020`) of a webhook body. It requires `event.id` and
 * `event.type`, accepts unknown members and unknown types, and checks the type of each member this service
 * reads when it is present. No `$id`, so callers may compile it more than once.
 */
export const ENVELOPE_SCHEMA: Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Billing provider webhook',
  type: 'object',
  required: ['event'],
  properties: {
    api_version: { type: 'string' },
    event: {
      type: 'object',
      required: ['id', 'type'],
      properties: {
        id: { type: 'string', minLength: 1, maxLength: EVENT_LIMITS.idLength },
        type: { type: 'string', minLength: 1, maxLength: 64 },
        ...Object.fromEntries([
          ...members(SUBSCRIBER_ID_MEMBERS, { type: 'string', maxLength: EVENT_LIMITS.idLength }),
          ...members(STRING_MEMBERS, { type: 'string', maxLength: EVENT_LIMITS.textLength }),
          ...members(TIMESTAMP_MEMBERS, { type: 'number', minimum: 0, maximum: MAX_TIMESTAMP_MS }),
          ...members(NUMBER_MEMBERS, { type: 'number', minimum: -1e9, maximum: 1e9 }),
          ...members(BOOLEAN_MEMBERS, { type: 'boolean' }),
          ...members(SUBSCRIBER_LIST_MEMBERS, {
            type: 'array',
            maxItems: EVENT_LIMITS.ids,
            items: { type: 'string', maxLength: EVENT_LIMITS.idLength },
          }),
          ...members(['entitlement_ids'], {
            type: 'array',
            maxItems: EVENT_LIMITS.entitlements,
            items: { type: 'string', maxLength: EVENT_LIMITS.textLength },
          }),
          ...members(['subscriber_attributes'], { type: 'object', additionalProperties: true }),
        ]),
      },
    },
  },
};
