/** Why a stream was refused: the caller holds its share already, or the process holds its bound. */
export class TooManyStreams extends Error {
  constructor(
    readonly scope: 'caller' | 'process',
    /** The streams open in that scope. */
    readonly open: number,
  ) {
    super(`too many streams open (${scope}: ${open})`);
  }
}

/**
 * Long-lived answers held open at once (event streams of invocations and A2A tasks, MCP sessions' GET streams),
 * bounded per caller (a token's `sub`) and per process: one caller's streams never take another's share. Past the
 * caller's share or the process's bound, TooManyStreams (the API answers 429 or 503). Only callers with a stream
 * open are kept.
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
    if (mine >= this.perCaller) throw new TooManyStreams('caller', mine);
    if (this.open >= this.max) throw new TooManyStreams('process', this.open);
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
