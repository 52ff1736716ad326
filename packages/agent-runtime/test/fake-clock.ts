import type { RuntimeClock } from '@relvo-labs/agent-runtime';

/** A clock whose time moves only when the test says so; timers fire in deadline order. */
export class FakeClock implements RuntimeClock {
  private time = Date.parse('2026-01-01T00:00:00.000Z');
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;

  now(): number {
    return this.time;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const id = (this.nextId += 1);
    this.timers.push({ at: this.time + ms, fn, id });
    return () => {
      this.timers = this.timers.filter((t) => t.id !== id);
    };
  }

  /** Deadlines not yet passed. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward, firing each timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = target;
  }
}
