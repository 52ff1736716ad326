/**
 * What a stall means for a run (ADR-0008): a warning, then `turn/interrupt`; the run fails
 * `provider_unavailable` / `turn_stalled` (never `interrupted`, which a host reads as a person's
 * action). If no terminal frame follows within the grace period the app-server is frozen: the
 * session is fenced and the run settled without it.
 */
import type { ProviderRunTermination } from '@relvo-labs/agent-provider';
import { codexError } from '../shared/codex-error.js';
import { unrefClock } from '../shared/unref-clock.js';
import { turnStalledWarning } from './diagnostics.js';
import type { CodexRun } from './run.js';
import { StallWatchdog, type WatchdogClock } from './stall-watchdog.js';
import type { RunRetries } from './turn-output.js';

export interface StallPolicy {
  readonly timeoutMs: number;
  readonly graceMs: number;
  readonly clock?: WatchdogClock;
}

/**
 * The stall failure; when codex was retrying, how often and why, so a host can say what to fix
 * (a run that only ever retried `unauthorized` wants a login, not patience).
 */
export function turnStalled(retries: RunRetries): ProviderRunTermination {
  return {
    outcome: 'failed',
    error: codexError(
      'provider_unavailable',
      'codex turn stalled: no progress from codex or the model',
      {
        providerCode: 'turn_stalled',
        ...(retries.lastCause !== undefined
          ? { details: { retries: retries.count, retryCause: retries.lastCause } }
          : {}),
      },
    ),
  };
}

/** Arms the watchdog of a freshly bound run; `fence` fences its session when codex is frozen. */
export function watchRun(
  run: CodexRun,
  policy: StallPolicy,
  fence: () => void,
  waitingOnPerson: () => boolean,
): StallWatchdog {
  return new StallWatchdog({
    stallTimeoutMs: policy.timeoutMs,
    graceMs: policy.graceMs,
    clock: policy.clock ?? unrefClock,
    waitingOnPerson,
    onStall: () => {
      run.emit(turnStalledWarning(policy.timeoutMs));
      // the shared interrupt attempt: a host interrupt racing this one sends nothing twice
      run.interrupt().catch(() => undefined);
    },
    onUnresponsive: () => {
      if (run.settled) return;
      fence();
      run.settle(turnStalled(run.retries));
    },
  });
}
