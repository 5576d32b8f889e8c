/**
 * The one source of "now" outside workflows (which have Temporal's): injected wherever time is read, so a test
 * can set it and every default is the same.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
