import { CancellationScope, sleep } from '@temporalio/workflow';

/**
 * A durable timer kept running across messages while the time it wakes at stays the same: a new event that does
 * not move the wake time neither cancels nor restarts it (each timer started is a billable action on Temporal
 * Cloud, and a cancelled one costs a workflow task of its own). The subscriber's wake-up for a change with time
 * alone, and its next try of a refused totals delta. Deterministic.
 */
export class WakeTimer {
  private at: number | null = null;
  private scope: CancellationScope | null = null;
  private fired = false;

  /** `label` names the timer in the Temporal UI, before the time it wakes at. */
  constructor(private readonly label = 'Next change with time alone') {}

  /** Sleeps until `at` (null: no timer), replacing the running timer only when the time changed. */
  arm(at: number | null): void {
    if (at === this.at && (this.scope !== null || at === null)) return;
    this.scope?.cancel();
    this.scope = null;
    this.at = at;
    this.fired = false;
    if (at === null) return;
    const scope = new CancellationScope();
    this.scope = scope;
    scope
      // The summary labels the timer in the Temporal UI (command metadata: replay does not compare it).
      .run(() => sleep(Math.max(1, at - Date.now()), { summary: `${this.label}: ${new Date(at).toISOString()}` }))
      .then(
        () => {
          if (this.scope === scope) this.fired = true;
        },
        () => undefined, // cancelled: a newer arm() replaced it
      );
  }

  /** The timer went off; take() once it has been acted on, so the next arm() starts a new one. */
  get expired(): boolean {
    return this.fired;
  }

  take(): void {
    this.fired = false;
    this.scope = null;
    this.at = null;
  }
}
