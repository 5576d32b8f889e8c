import { HttpProblem } from './problem';

/**
 * Long-lived answers held open at once (event streams of invocations and A2A tasks, MCP sessions' GET streams),
 * bounded per caller (a token's `sub`) and per process: one caller's streams never take another's share. Past the
 * caller's share, 429; past the process's, 503. Only callers with a stream open are kept.
 */
export class StreamBudget {
  private open = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    private readonly perCaller: number,
    private readonly max: number,
  ) {}

  /** Takes one stream for `caller`; returns its release (calling it again does nothing). */
  acquire(caller: string): () => void {
    const mine = this.byCaller.get(caller) ?? 0;
    if (mine >= this.perCaller)
      throw new HttpProblem(429, 'too_many_streams', `You have ${mine} streams open, the most one caller may: close one, or poll instead`, {
        headers: { 'Retry-After': '5' },
      });
    if (this.open >= this.max)
      throw new HttpProblem(503, 'too_many_streams', 'Too many event streams are open; poll instead, or retry', {
        headers: { 'Retry-After': '5' },
      });
    this.open += 1;
    this.byCaller.set(caller, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open -= 1;
      const left = (this.byCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.byCaller.set(caller, left);
      else this.byCaller.delete(caller);
    };
  }
}
