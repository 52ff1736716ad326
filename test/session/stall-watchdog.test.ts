/** The stall watchdog's timing on an injected clock (ADR-0008): no wall time involved. */
import { describe, expect, it } from 'vitest';
import type { WatchdogClock } from '../../src/session/stall-watchdog.js';
import { scoped } from '../support/inbound.js';
import { watchdogOn } from '../support/session-watchdog.js';

class ManualClock implements WatchdogClock {
  now = 0;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  get pending(): number {
    return this.#timers.size;
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.#timers]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.#timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
}

const setup = (options: { waiting?: () => boolean } = {}) =>
  watchdogOn(new ManualClock(), options.waiting);

const item = (id: string, type: string) => ({ item: { id, type } });

describe('StallWatchdog', () => {
  it('fires once after stallTimeoutMs of silence, then unresponsive after the grace', () => {
    const { after, dog } = setup();
    expect(after(999)).toEqual([]);
    expect(after(1)).toEqual(['stall@1000']);
    expect(dog.stalled).toBe(true);
    expect(after(200)).toEqual(['stall@1000', 'unresponsive@1200']);
    expect(after(10_000)).toHaveLength(2);
  });

  it('every frame restarts the count', () => {
    const { after, calls, clock, dog } = setup();
    for (let i = 0; i < 10; i += 1) {
      clock.advance(900);
      dog.frame(scoped('item/agentMessage/delta', {}));
    }
    expect(calls).toEqual([]);
    expect(after(1000)).toEqual(['stall@10000']);
  });

  it('a running command does not expire the count, however long; its completion restarts it', () => {
    const { after, dog } = setup();
    dog.frame(scoped('item/started', item('cmd1', 'commandExecution')));
    expect(after(60_000)).toEqual([]);
    dog.frame(scoped('item/completed', item('cmd1', 'commandExecution')));
    expect(after(999)).toEqual([]);
    expect(after(1)).toEqual(['stall@61000']);
  });

  it('other items (a message, reasoning) do not pause it', () => {
    const { after, dog } = setup();
    dog.frame(scoped('item/started', item('m1', 'agentMessage')));
    dog.frame(scoped('item/started', item('r1', 'reasoning')));
    expect(after(1000)).toEqual(['stall@1000']);
  });

  it('an approval waiting for a person does not expire the count', () => {
    let waiting = true;
    const { after } = setup({ waiting: () => waiting });
    expect(after(30_000)).toEqual([]);
    waiting = false;
    // re-armed at each expiry: fires within one more period once nobody is waited for
    expect(after(1000)).toEqual(['stall@31000']);
  });

  it('stop() leaves no timer, before or after a stall', () => {
    const a = setup();
    a.dog.stop();
    expect(a.clock.pending).toBe(0);
    a.clock.advance(5000);
    expect(a.calls).toEqual([]);

    const b = setup();
    b.clock.advance(1000);
    b.dog.stop(); // the terminal frame arrived within the grace
    expect(b.clock.pending).toBe(0);
    b.clock.advance(5000);
    expect(b.calls).toEqual(['stall@1000']);
  });

  it('frames after the stall do not restart the count', () => {
    const { after, clock, dog } = setup();
    clock.advance(1000);
    dog.frame(scoped('item/agentMessage/delta', {}));
    expect(after(200)).toEqual(['stall@1000', 'unresponsive@1200']);
  });

  // the frames codex sends while it retries a failed model request, as the real binary sent them
  const retryNotice = { error: { message: 'x' }, willRetry: true };

  it('retry notices are not progress: the count runs on from the last output however many arrive', () => {
    const { after, clock, dog } = setup();
    dog.frame(scoped('item/agentMessage/delta', {}));
    for (let i = 0; i < 12; i += 1) {
      clock.advance(90);
      dog.frame(scoped('error', retryNotice));
      // a retried stream re-announces its empty message before failing again
      dog.frame(scoped('item/started', item(`m${String(i)}`, 'agentMessage')));
    }
    expect(after(1000 - 12 * 90)).toEqual(['stall@1000']);
  });

  it('output after a retry is progress again, and a final error (no retry) restarts the count', () => {
    const { after, clock, dog } = setup();
    clock.advance(600);
    dog.frame(scoped('error', retryNotice));
    dog.frame(scoped('item/started', item('m1', 'agentMessage')));
    dog.frame(scoped('item/agentMessage/delta', {}));
    expect(after(999)).toEqual([]);
    dog.frame(scoped('error', { error: { message: 'x' }, willRetry: false }));
    expect(after(999)).toEqual([]);
    expect(after(1)).toEqual(['stall@2599']);
  });
});
