/**
 * A stall watchdog on a clock the test advances by hand (ADR-0008), recording what it called and
 * when. Registers nothing when imported.
 */
import { StallWatchdog, type WatchdogClock } from '../../src/session/stall-watchdog.js';

/** A watchdog clock whose time only moves when the test advances it. */
export interface ManualTime extends WatchdogClock {
  readonly now: number;
  advance(ms: number): void;
}

/**
 * A watchdog (1000 ms stall timeout, 200 ms grace) on `clock`; `calls` holds `stall@<now>` and
 * `unresponsive@<now>`, and `after(ms)` advances the clock and returns the calls made by then.
 */
export function watchdogOn<C extends ManualTime>(clock: C, waitingOnPerson = () => false) {
  const calls: string[] = [];
  const dog = new StallWatchdog({
    stallTimeoutMs: 1000,
    graceMs: 200,
    clock,
    waitingOnPerson,
    onStall: () => calls.push(`stall@${String(clock.now)}`),
    onUnresponsive: () => calls.push(`unresponsive@${String(clock.now)}`),
  });
  const after = (ms: number): string[] => {
    clock.advance(ms);
    return [...calls];
  };
  return { clock, calls, dog, after };
}
