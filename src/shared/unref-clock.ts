/**
 * Timers that never keep the host's event loop alive: a pending deadline or stall count is no
 * reason for a host to stay up (the transport holds the loop while a run is active, ADR-0009).
 */
export interface TimerClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * Optional: restart a pending timer's full delay from now (Node's `Timeout#refresh`), far
   * cheaper per frame than clear + set.
   */
  refresh?(handle: unknown): void;
}

export const unrefClock: TimerClock = {
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
  refresh(handle) {
    (handle as ReturnType<typeof setTimeout>).refresh();
  },
};
