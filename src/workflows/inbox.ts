import { jsonChars } from '../billing/state-budget';

/**
 * A workflow's queue of unapplied messages that knows its size in characters of JSON, kept as messages come and
 * go, so deciding whether it may travel in a continue-as-new costs nothing per message. Deterministic.
 */
export class Inbox<T> {
  private readonly items: { message: T; chars: number }[] = [];
  private total = 0;

  constructor(initial: readonly T[]) {
    for (const message of initial) this.push(message);
  }

  get length(): number {
    return this.items.length;
  }

  get chars(): number {
    return this.total;
  }

  push(message: T): void {
    const chars = jsonChars(message);
    this.items.push({ message, chars });
    this.total += chars;
  }

  shift(): T | undefined {
    const item = this.items.shift();
    if (item) this.total -= item.chars;
    return item?.message;
  }

  all(): T[] {
    return this.items.map((item) => item.message);
  }
}
