/** Injected time source: milliseconds since the epoch. Tests pass a fake. */
export interface RuntimeClock {
  now(): number;
}

export const systemClock: RuntimeClock = { now: () => Date.now() };

export function isoAt(clock: RuntimeClock): string {
  return new Date(clock.now()).toISOString();
}
