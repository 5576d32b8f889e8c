// @ts-check
// What each event log reason means, and what to do about it: the receiver's answer to the caller is the same
// for every refusal, so this is where an operator learns why.

/** @type {Record<string, string>} */
const REASONS = {
  // ignored (acknowledged, no effect)
  unknown_type: 'A type this service does not know: acknowledged so the provider does not retry it, and recorded with no effect.',
  test_event: "The provider's test event: acknowledged, no effect.",
  no_subscriber: 'The event names no app_user_id, original_app_user_id or transfer ids: nobody to apply it to.',
  // refused before authorization
  unknown_app: 'No app has this slug: check the ?app= value of the webhook URL in the provider’s settings.',
  missing_authorization: 'No Authorization header: paste the app’s webhook value into the provider’s Authorization field.',
  bearer_prefix: 'The right value, sent as “Bearer …”: enter the value alone in the provider’s Authorization field, without “Bearer ”.',
  token_not_webhook_value:
    'An API token (a JWT) was sent: the receiver wants the app’s webhook value (whsec_…), shown when the app was connected or its value rotated.',
  rotated_out: 'A value this app had before a rotation, past its grace period: give the provider the current value.',
  authorization_mismatch: 'Not this app’s value: rotate the value (apps API or CLI) and paste the new one into the provider.',
  operator_not_configured: 'OPERATOR_WEBHOOK_AUTHORIZATION is not set: the operator’s receiver refuses everything.',
  missing_app: 'The URL has no ?app= parameter.',
  // refused after authorization
  unsupported_media_type: 'The body was not application/json.',
  too_large: 'The body was over 256 KiB.',
  malformed_json: 'The body was not valid JSON (or nested too deep, or held a lone surrogate).',
  invalid_event: 'Not a billing-provider event: the detail names what the schema refused.',
  store_unavailable: 'The inbox could not store the event (503): the provider retries it.',
  internal_error: 'The receiver failed (a bug): the provider retries it.',
};

/** The explanation of a reason code, or '' for none. @param {string | null} reason */
export const explain = (reason) => (reason ? REASONS[reason] || '' : '');
