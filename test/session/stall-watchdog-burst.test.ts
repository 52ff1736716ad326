/**
 * With a refreshable clock (Node's timers) the watchdog restarts its count once per synchronous
 * burst of frames, right after the burst. It must never fire earlier than stallTimeoutMs after
 * the last frame, and must still fire on time after a burst.
 */
import { describe, expect, it } from 'vitest';
import type { WatchdogClock } from '../../src/session/stall-watchdog.js';
import { scoped } from '../support/inbound.js';
import { watchdogOn } from '../support/session-watchdog.js';

class RefreshableClock implements WatchdogClock {
  now = 0;
  refreshes = 0;
  sets = 0;
  readonly #timers = new Map<number, { at: number; ms: number; fn: () => void }>();
  #next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    this.sets += 1;
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + ms, ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  refresh(handle: unknown): void {
    this.refreshes += 1;
    const t = this.#timers.get(handle as number);
    if (t !== undefined) t.at = this.now + t.ms;
  }
  /** Millisecond by millisecond: every timer due at a step fires at that step. */
  advance(ms: number): void {
    for (let step = 0; step < ms; step += 1) {
      this.now += 1;
      for (const [id, t] of [...this.#timers]) {
        if (t.at > this.now || !this.#timers.has(id)) continue;
        this.#timers.delete(id);
        t.fn();
      }
    }
  }
}

const microtasks = (): Promise<void> => new Promise((r) => setImmediate(r));

const setup = () => watchdogOn(new RefreshableClock());

describe('StallWatchdog with a refreshable clock', () => {
  it('restarts the count once per burst of frames, after the burst', async () => {
    const { clock, dog } = setup();
    clock.advance(500);
    for (let i = 0; i < 200; i += 1) dog.frame(scoped('item/agentMessage/delta', {}));
    expect(clock.refreshes).toBe(0);
    await microtasks();
    expect(clock.refreshes).toBe(1);
    expect(clock.sets).toBe(1);
  });

  it('fires stallTimeoutMs after the burst, not after the first arming', async () => {
    const { clock, calls, dog } = setup();
    clock.advance(500);
    dog.frame(scoped('item/agentMessage/delta', {}));
    dog.frame(scoped('item/agentMessage/delta', {}));
    await microtasks();
    clock.advance(999);
    expect(calls).toEqual([]);
    clock.advance(1);
    expect(calls).toEqual(['stall@1500']);
  });

  it('work items opened in a burst still hold the count; closing them lets it expire', async () => {
    const { clock, calls, dog } = setup();
    dog.frame(scoped('item/started', { item: { id: 'c1', type: 'commandExecution' } }));
    await microtasks();
    clock.advance(5000);
    expect(calls).toEqual([]);
    dog.frame(scoped('item/completed', { item: { id: 'c1', type: 'commandExecution' } }));
    await microtasks();
    clock.advance(1000);
    expect(calls).toEqual([`stall@${String(clock.now)}`]);
  });

  it('a burst after stop() re-arms nothing', async () => {
    const { clock, calls, dog } = setup();
    dog.frame(scoped('item/agentMessage/delta', {}));
    dog.stop();
    await microtasks();
    clock.advance(10_000);
    expect(calls).toEqual([]);
  });
});
