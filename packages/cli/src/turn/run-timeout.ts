/**
 * `run --timeout DURATION`: a bound on the whole run, start-up included. When it is reached the
 * turn is interrupted (recorded as interrupted) and the session closed; if codex does not end
 * the turn within a grace period, the run gives up on it as a second Ctrl-C would. Exit 124,
 * as `timeout(1)`.
 */
import { CliExit, EXIT } from '../exit-codes.js';

/** After the interrupt, how long the turn may take to end before the run quits it. */
export const TIMEOUT_GRACE_MS = 10_000;

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `90s`, `5m`, `1.5h`, `500ms`, or a plain number of seconds; anything else is exit 2. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const value = match === null ? Number.NaN : Number(match[1]) * (UNITS[match[2] ?? 's'] ?? 1);
  if (!Number.isFinite(value) || value < 1 || value > 7 * 24 * 3_600_000) {
    throw new CliExit(
      EXIT.usage,
      'run: --timeout wants a duration such as 90s, 5m or 1h (a plain number is seconds; at most 7 days)',
    );
  }
  return Math.round(value);
}

/** What a run does when its time is up; the caller's Ctrl-C wiring provides both. */
export interface TimeoutTarget {
  /** Interrupt the turn (or abandon a start-up that has none yet). */
  stop(): void;
  /** Give up on a turn that did not end after `stop()`. */
  quit(): void;
}

export interface RunTimeout {
  readonly expired: boolean;
  dispose(): void;
}

export function startRunTimeout(
  text: string | undefined,
  target: TimeoutTarget,
  warn: (line: string) => void,
  timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = globalThis,
): RunTimeout | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  let expired = false;
  let grace: NodeJS.Timeout | undefined;
  const timer = timers.setTimeout(() => {
    expired = true;
    warn(`run: --timeout ${text} reached; interrupting the turn and closing the session`);
    target.stop();
    grace = timers.setTimeout(() => {
      warn('run: the turn did not end after the interrupt; quitting');
      target.quit();
    }, TIMEOUT_GRACE_MS);
    grace.unref();
  }, ms);
  timer.unref();
  return {
    get expired() {
      return expired;
    },
    dispose() {
      timers.clearTimeout(timer);
      if (grace !== undefined) timers.clearTimeout(grace);
    },
  };
}
