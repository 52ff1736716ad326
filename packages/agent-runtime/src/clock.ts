/** Injected time source: milliseconds since the epoch. Tests pass a fake. */
export interface RuntimeClock {
  now(): number;
  /**
   * Calls `fn` once, `ms` from now; returns a cancel. Every deadline of the runtime goes
   * through here, so a fake clock decides when it passes. Default: an unref'd `setTimeout`.
   */
  setTimer?(ms: number, fn: () => void): () => void;
}

export const systemClock: RuntimeClock = { now: () => Date.now() };

export function isoAt(clock: RuntimeClock): string {
  return new Date(clock.now()).toISOString();
}

/** A deadline on `clock`; `cancel` is idempotent. */
export function startTimer(clock: RuntimeClock, ms: number, fn: () => void): () => void {
  if (clock.setTimer !== undefined) return clock.setTimer(ms, fn);
  // a pending deadline alone must not keep a host process alive
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
}

/** Resolves `'timeout'` once `ms` passed on `clock`, unless `work` settled first. */
export async function within<T>(
  clock: RuntimeClock,
  ms: number,
  work: Promise<T>,
): Promise<{ readonly ok: true; readonly value: T } | { readonly ok: false }> {
  let cancel: (() => void) | undefined;
  const deadline = new Promise<{ ok: false }>((resolve) => {
    cancel = startTimer(clock, ms, () => {
      resolve({ ok: false });
    });
  });
  try {
    return await Promise.race([work.then((value) => ({ ok: true as const, value })), deadline]);
  } finally {
    cancel?.();
  }
}
