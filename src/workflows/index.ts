export { skillInvocation } from './skill-invocation';
export { billingSubscriber } from './billing-subscriber';
export { billingMetrics } from './billing-metrics';
export { outboundDelivery } from './outbound-delivery';
