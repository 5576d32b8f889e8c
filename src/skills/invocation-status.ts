/** The life of a skill invocation as clients see it (the `status` they poll). Pure. */
export const INVOCATION_STATUSES = ['queued', 'retrieving', 'drafting', 'completed', 'failed', 'cancelled'] as const;
export type InvocationStatus = (typeof INVOCATION_STATUSES)[number];
export const TERMINAL_STATUSES: readonly InvocationStatus[] = ['completed', 'failed', 'cancelled'];

/** A terminal status is final: no later write changes it. */
export const isTerminalStatus = (status: string): boolean => (TERMINAL_STATUSES as readonly string[]).includes(status);

export const isInvocationStatus = (value: string): value is InvocationStatus => (INVOCATION_STATUSES as readonly string[]).includes(value);
