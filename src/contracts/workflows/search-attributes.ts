import { defineSearchAttributeKey } from '@temporalio/common';

/**
 * Search attributes operators filter on in the Temporal UI. Workflow-safe (only @temporalio/common), so
 * workflows upsert them and the client sets them at start. Registered by the dev stack and `cli setup-temporal`.
 */
export const SEARCH_ATTRIBUTES = {
  Project: defineSearchAttributeKey('Project', 'KEYWORD'),
  Skill: defineSearchAttributeKey('Skill', 'KEYWORD'),
  BillingScope: defineSearchAttributeKey('BillingScope', 'KEYWORD'),
  SubscriberId: defineSearchAttributeKey('SubscriberId', 'KEYWORD'),
  BillingStatus: defineSearchAttributeKey('BillingStatus', 'KEYWORD'),
  OutboundApp: defineSearchAttributeKey('OutboundApp', 'KEYWORD'),
  OutboundEndpoint: defineSearchAttributeKey('OutboundEndpoint', 'KEYWORD'),
  OutboundStatus: defineSearchAttributeKey('OutboundStatus', 'KEYWORD'),
} as const;
