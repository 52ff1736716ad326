/**
 * Applies one frame that the correlator attributed to a bound run: neutral events out, and the
 * run's single settlement on its own `turn/completed`. Frames after settlement are ignored.
 */
import { CODEX_NOTIFICATION } from '../protocol/vocabulary.js';
import { turnCompletedSchema } from '../protocol/wire.js';
import type { CodexRun } from './run.js';
import {
  midTurnFailure,
  terminationOfCompletedTurn,
  translateAgentMessageDelta,
  translateMidTurnError,
} from './translate.js';
import { turnStalled } from './stall.js';

export function applyTurnFrame(run: CodexRun, method: string, params: unknown): void {
  if (run.settled) return;
  switch (method) {
    case CODEX_NOTIFICATION.agentMessageDelta:
      for (const event of translateAgentMessageDelta(params)) run.emit(event);
      return;
    case CODEX_NOTIFICATION.tokenUsageUpdated: {
      const event = run.usage.update(params);
      if (event !== undefined) run.emit(event);
      return;
    }
    case CODEX_NOTIFICATION.itemStarted: {
      run.fileChanges?.remember(params);
      const event = run.toolActivity?.started(params);
      // a command waiting for its approval is not invoked yet (held-invocations.ts)
      if (event !== undefined && run.heldInvocations?.hold(params, event) !== true) run.emit(event);
      return;
    }
    case CODEX_NOTIFICATION.itemCompleted: {
      run.heldInvocations?.forget(params);
      const event = run.toolActivity?.completed(params);
      if (event !== undefined) run.emit(event);
      return;
    }
    case CODEX_NOTIFICATION.error: {
      const { failure, retrying } = midTurnFailure(params);
      if (retrying) run.noteRetry(failure.providerCode);
      run.emit(translateMidTurnError(params, run.retries.count));
      return;
    }
    case CODEX_NOTIFICATION.turnCompleted: {
      const parsed = turnCompletedSchema.safeParse(params);
      const termination = terminationOfCompletedTurn(parsed.success ? parsed.data.turn : {});
      // our stall interrupt is not a person's action: the run failed (ADR-0008)
      if (termination.outcome === 'interrupted' && run.watchdog?.stalled === true) {
        run.settle(turnStalled(run.retries));
        return;
      }
      // the server's status is final; our interrupt only contributes its reason
      run.settle(
        termination.outcome === 'interrupted' && run.interruptReason !== undefined
          ? { outcome: 'interrupted', reason: run.interruptReason }
          : termination,
      );
      return;
    }
    default:
      // turn/started, other item/* frames, unknown methods: read for correlation only
      return;
  }
}
