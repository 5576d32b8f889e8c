/** The billing provider's two receivers (fixed by the HTTP contract): one per customer app, one for the operator. */
export const APP_WEBHOOK_PATH = '/api/saas/iap/billingprovider/webhook';
export const OPERATOR_WEBHOOK_PATH = '/api/billing/billingprovider/webhook';
