/** Request body limits of api.md: 64 KiB for the API, 256 KiB for the billing provider's webhooks. */
export const API_BODY_LIMIT = 64 * 1024;
export const WEBHOOK_BODY_LIMIT = 256 * 1024;
