import type { Severity } from './definition';

/** How much each severity gets: SEV-1 everything plus a customer-facing summary; SEV-3 may be short. */
export interface Depth {
  /** Error issues discussed, linked ones first claimed, then the busiest of the services' others. */
  issues: number;
  runbooks: number;
  followUps: number;
  /** Error first/last seen times in the timeline, besides the incident's own milestones and notes. */
  issueEventsInTimeline: boolean;
  customerSummary: boolean;
}

export const DEPTH: Record<Severity, Depth> = {
  'SEV-1': { issues: 5, runbooks: 3, followUps: 10, issueEventsInTimeline: true, customerSummary: true },
  'SEV-2': { issues: 3, runbooks: 2, followUps: 6, issueEventsInTimeline: true, customerSummary: false },
  'SEV-3': { issues: 2, runbooks: 1, followUps: 3, issueEventsInTimeline: false, customerSummary: false },
};

/** The section SEV-1 adds after the seven every RCA has. */
export const CUSTOMER_SUMMARY = 'Customer-facing summary';
